/**
 * Fair shares: a Discord server's follows are counted together (MAX_FOLLOWS_PER_SERVER), and a
 * card's action keys carry who they were issued to and when, so that a person's and a chat's keys
 * are kept within their budgets, oldest dropped first (src/store/actionKeys.ts). Keys issued
 * before this migration belong to nobody and count from the epoch: they go first.
 */
export const sql = `
CREATE INDEX follows_by_scope ON follows (platform, scope_id) WHERE scope_id IS NOT NULL;
ALTER TABLE action_keys ADD COLUMN user_id TEXT NOT NULL DEFAULT '';
ALTER TABLE action_keys ADD COLUMN issued_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX action_keys_by_person ON action_keys (platform, user_id, issued_at) WHERE user_id <> '';
CREATE INDEX action_keys_by_chat ON action_keys (platform, chat_id, issued_at);
`;
