/**
 * Follows gain a price move's direction and the one-shot targets (`/target`), and chats the daily
 * watchlist's time, zone and place (`/digest`).
 *
 * A target is a follow of the token with its target in three columns ('' and 0 for a follow that
 * is no target), and a chat may hold several targets of one token beside its /track of it: the
 * unique key takes the target in. SQLite cannot change a table's UNIQUE constraint in place, so
 * the table is made again and the rows copied, ids kept.
 */
export const sql =
  `
CREATE TABLE follows_next (
  id            INTEGER PRIMARY KEY,
  platform      TEXT    NOT NULL,
  chat_id       TEXT    NOT NULL,
  thread_id     TEXT    NOT NULL DEFAULT '',
  scope_id      TEXT,
  kind          TEXT    NOT NULL CHECK (kind IN ('token', 'wallet')),
  address       TEXT    NOT NULL,
  label         TEXT,
  events        TEXT    NOT NULL DEFAULT '',
  min_usd       REAL    NOT NULL DEFAULT 0,
  threshold_pct REAL    NOT NULL DEFAULT 0,
  side          TEXT    NOT NULL DEFAULT 'both' CHECK (side IN ('buy', 'sell', 'both')),
  muted_until   INTEGER,
  added_by      TEXT    NOT NULL,
  added_at      INTEGER NOT NULL,
  direction     TEXT    NOT NULL DEFAULT 'both' CHECK (direction IN ('up', 'down', 'both')),
  target_metric TEXT    NOT NULL DEFAULT '' CHECK (target_metric IN ('', 'price', 'mcap')),
  target_side   TEXT    NOT NULL DEFAULT '' CHECK (target_side IN ('', 'above', 'below')),
  target_value  REAL    NOT NULL DEFAULT 0,
  UNIQUE (platform, chat_id, thread_id, address, target_metric, target_side, target_value)
);
INSERT INTO follows_next (id, platform, chat_id, thread_id, scope_id, kind, address, label, events, min_usd, threshold_pct, ` +
  `side, muted_until, added_by, added_at)
  SELECT id, platform, chat_id, thread_id, scope_id, kind, address, label, events, min_usd, threshold_pct, side, muted_until, ` +
  `added_by, added_at FROM follows;
DROP TABLE follows;
ALTER TABLE follows_next RENAME TO follows;
CREATE INDEX follows_by_target ON follows (kind, address);

ALTER TABLE chats ADD COLUMN digest_time TEXT;
ALTER TABLE chats ADD COLUMN digest_zone TEXT;
ALTER TABLE chats ADD COLUMN digest_thread_id TEXT;
ALTER TABLE chats ADD COLUMN digest_scope_id TEXT;
`;
