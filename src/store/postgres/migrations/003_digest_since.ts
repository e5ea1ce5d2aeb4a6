/** When a chat's daily watchlist was set: SQLite's migration 4, in PostgreSQL's types. */
export const sql = `
ALTER TABLE chats ADD COLUMN digest_since bigint;
`;
