/**
 * Quiet hours and the hourly budget (docs/delivery.md): a chat's quiet hours (JSON: from, to, zone,
 * strict) and its budget of alerts an hour; an outbox row held by either says why, so that it goes
 * out in a digest when it comes due, and so that the budget counts only alerts sent one by one.
 */
export const sql = `
ALTER TABLE chats ADD COLUMN quiet TEXT;
ALTER TABLE chats ADD COLUMN hourly_budget INTEGER;
ALTER TABLE outbox ADD COLUMN held TEXT;
CREATE INDEX outbox_delivered_by_chat ON outbox (platform, chat_id, delivered_at) WHERE delivered_at IS NOT NULL;
`;
