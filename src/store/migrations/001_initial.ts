/**
 * The first schema. Times are epoch milliseconds; a chat without a thread keeps '' in `thread_id`
 * (SQLite counts NULLs as distinct in a UNIQUE index, which would let one chat follow an address
 * twice). Plain CREATE TABLE, never IF NOT EXISTS: a database that already holds other tables of
 * these names is not ours, and start-up stops instead of mixing into it.
 */
export const sql = `
CREATE TABLE follows (
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
  UNIQUE (platform, chat_id, thread_id, address)
);
-- followersOf and targets(): one index lookup per token or wallet.
CREATE INDEX follows_by_target ON follows (kind, address);

CREATE TABLE chats (
  platform         TEXT    NOT NULL,
  chat_id          TEXT    NOT NULL,
  paused_at        INTEGER,
  pause_reason     TEXT,
  detect_addresses INTEGER,
  PRIMARY KEY (platform, chat_id)
) WITHOUT ROWID;

-- Ordinary (rowid) tables: a token's snapshot JSON runs to kilobytes, too large for WITHOUT ROWID.
CREATE TABLE token_state (
  address    TEXT    NOT NULL UNIQUE,
  snapshot   TEXT    NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE wallet_state (
  address    TEXT    NOT NULL UNIQUE,
  snapshot   TEXT    NOT NULL,
  updated_at INTEGER NOT NULL
);

-- An alert event, kept once however many chats it goes to.
CREATE TABLE events (
  id         INTEGER PRIMARY KEY,
  key        TEXT    NOT NULL UNIQUE,
  kind       TEXT    NOT NULL,
  event      TEXT    NOT NULL,
  created_at INTEGER NOT NULL
);

-- One row per alert per chat. The event id stands for its key (one event per key), so the unique
-- index is "platform + chat + event key"; event first, so that it also finds an event's rows.
CREATE TABLE outbox (
  id              INTEGER PRIMARY KEY,
  event_id        INTEGER NOT NULL REFERENCES events (id),
  platform        TEXT    NOT NULL,
  chat_id         TEXT    NOT NULL,
  thread_id       TEXT    NOT NULL DEFAULT '',
  scope_id        TEXT,
  label           TEXT,
  attempts        INTEGER NOT NULL DEFAULT 0,
  created_at      INTEGER NOT NULL,
  next_attempt_at INTEGER NOT NULL,
  delivered_at    INTEGER,
  last_error      TEXT,
  UNIQUE (event_id, platform, chat_id, thread_id)
);
-- due(), pending() and deferChat(): only undelivered rows, in the order they were written. No
-- other index: each costs every alert row a write, and prune() (a periodic job) may scan.
CREATE INDEX outbox_undelivered ON outbox (platform, id) WHERE delivered_at IS NULL;

CREATE TABLE action_keys (
  key        TEXT    PRIMARY KEY,
  platform   TEXT    NOT NULL,
  chat_id    TEXT    NOT NULL,
  command    TEXT    NOT NULL,
  args       TEXT    NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX action_keys_by_expiry ON action_keys (expires_at);
`;
