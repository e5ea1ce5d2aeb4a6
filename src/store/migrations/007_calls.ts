/**
 * Calls (docs/calls.md): which chats have them on, and each chat's first post of a token with the
 * market then and its peak since. One call per chat and token: the UNIQUE index makes the first
 * post win even when two arrive at once. The peak job reads them by their next check.
 */
export const sql = `
CREATE TABLE call_chats (
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  enabled INTEGER NOT NULL,
  changed_at INTEGER NOT NULL,
  PRIMARY KEY (platform, chat_id)
);
CREATE TABLE calls (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  thread_id TEXT NOT NULL,
  scope_id TEXT,
  address TEXT NOT NULL,
  symbol TEXT NOT NULL,
  name TEXT NOT NULL,
  user_id TEXT NOT NULL,
  user_name TEXT NOT NULL,
  message_id TEXT,
  called_at INTEGER NOT NULL,
  price_sol REAL NOT NULL,
  price_usd REAL,
  sol_usd REAL,
  mcap_sol REAL,
  mcap_usd REAL,
  peak_sol REAL NOT NULL,
  peak_at INTEGER NOT NULL,
  last_sol REAL NOT NULL,
  last_at INTEGER NOT NULL,
  checked_to INTEGER NOT NULL,
  next_check_at INTEGER,
  told_multiple REAL NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX calls_by_token ON calls (platform, chat_id, address);
CREATE INDEX calls_by_chat ON calls (platform, chat_id, called_at);
CREATE INDEX calls_due ON calls (next_check_at) WHERE next_check_at IS NOT NULL;
`;
