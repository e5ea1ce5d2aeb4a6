/** Quiet hours and the hourly budget: SQLite's migration 8, in PostgreSQL's types. */
export const sql = `
ALTER TABLE chats ADD COLUMN quiet text;
ALTER TABLE chats ADD COLUMN hourly_budget integer;
ALTER TABLE outbox ADD COLUMN held text;
CREATE INDEX outbox_delivered_by_chat ON outbox (platform, chat_id, delivered_at) WHERE delivered_at IS NOT NULL;
`;
