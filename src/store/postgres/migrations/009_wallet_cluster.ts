/** Wallets moving together: SQLite's migration 9, in PostgreSQL's types. */
export const sql = `
ALTER TABLE chats ADD COLUMN cluster text;
`;
