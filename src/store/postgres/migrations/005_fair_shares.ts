/** Fair shares: SQLite's migration 5, in PostgreSQL's types. */
export const sql = `
CREATE INDEX follows_by_scope ON follows (platform, scope_id) WHERE scope_id IS NOT NULL;
ALTER TABLE action_keys ADD COLUMN user_id text NOT NULL DEFAULT '';
ALTER TABLE action_keys ADD COLUMN issued_at bigint NOT NULL DEFAULT 0;
CREATE INDEX action_keys_by_person ON action_keys (platform, user_id, issued_at) WHERE user_id <> '';
CREATE INDEX action_keys_by_chat ON action_keys (platform, chat_id, issued_at);
`;
