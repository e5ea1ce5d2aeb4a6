/**
 * The first PostgreSQL schema: the SQLite schema's tables and unique keys, in PostgreSQL's types.
 * Times are epoch milliseconds (bigint); a chat without a thread keeps '' in `thread_id`, so that
 * the unique keys treat "no thread" as one value, as in SQLite. Plain CREATE TABLE, never IF NOT
 * EXISTS: a database that already holds other tables of these names is not ours, and start-up stops
 * instead of mixing into it. The outbox has what SQLite's lacks, a claim (who is sending a row, and
 * until when), so that several senders can share it.
 */
export const sql = `
CREATE TABLE follows (
  id            bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  platform      text    NOT NULL,
  chat_id       text    NOT NULL,
  thread_id     text    NOT NULL DEFAULT '',
  scope_id      text,
  kind          text    NOT NULL CHECK (kind IN ('token', 'wallet')),
  address       text    NOT NULL,
  label         text,
  events        text    NOT NULL DEFAULT '',
  min_usd       double precision NOT NULL DEFAULT 0,
  threshold_pct double precision NOT NULL DEFAULT 0,
  side          text    NOT NULL DEFAULT 'both' CHECK (side IN ('buy', 'sell', 'both')),
  muted_until   bigint,
  added_by      text    NOT NULL,
  added_at      bigint  NOT NULL,
  UNIQUE (platform, chat_id, thread_id, address)
);
-- followersOf and targets(): one index lookup per token or wallet.
CREATE INDEX follows_by_target ON follows (kind, address);

CREATE TABLE chats (
  platform         text    NOT NULL,
  chat_id          text    NOT NULL,
  paused_at        bigint,
  pause_reason     text,
  detect_addresses boolean,
  PRIMARY KEY (platform, chat_id)
);

-- Rewritten at every commit of their token or wallet: pages half empty (fillfactor), so that the
-- new version lands beside the old and the index is left alone (a HOT update), and a snapshot of up
-- to a page kept in its row as written (toast_tuple_target), not compressed and moved out on every
-- write. Measured: a quarter more snapshots written a second.
CREATE TABLE token_state (
  address    text   PRIMARY KEY,
  snapshot   text   NOT NULL,
  updated_at bigint NOT NULL
) WITH (fillfactor = 50, toast_tuple_target = 8160);

CREATE TABLE wallet_state (
  address    text   PRIMARY KEY,
  snapshot   text   NOT NULL,
  updated_at bigint NOT NULL
) WITH (fillfactor = 50, toast_tuple_target = 8160);

-- An alert event, kept once however many chats it goes to.
CREATE TABLE events (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key        text   NOT NULL UNIQUE,
  kind       text   NOT NULL,
  event      text   NOT NULL,
  created_at bigint NOT NULL
);

-- One row per alert per chat, unique on platform + chat + event key (the event id stands for its
-- key). claimed_by and claimed_until: the sender that took the row with SELECT … FOR UPDATE SKIP
-- LOCKED, and until when its claim holds; only that sender may mark the row delivered.
CREATE TABLE outbox (
  id              bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id        bigint  NOT NULL REFERENCES events (id),
  platform        text    NOT NULL,
  chat_id         text    NOT NULL,
  thread_id       text    NOT NULL DEFAULT '',
  scope_id        text,
  label           text,
  attempts        integer NOT NULL DEFAULT 0,
  created_at      bigint  NOT NULL,
  next_attempt_at bigint  NOT NULL,
  delivered_at    bigint,
  last_error      text,
  claimed_by      text,
  claimed_until   bigint,
  UNIQUE (event_id, platform, chat_id, thread_id)
);
-- due(), pending() and deferChat(): only undelivered rows, in the order they were written.
CREATE INDEX outbox_undelivered ON outbox (platform, id) WHERE delivered_at IS NULL;

CREATE TABLE action_keys (
  key        text    PRIMARY KEY,
  platform   text    NOT NULL,
  chat_id    text    NOT NULL,
  thread_id  text    NOT NULL DEFAULT '',
  command    text    NOT NULL,
  args       text    NOT NULL,
  refresh    boolean NOT NULL DEFAULT false,
  expires_at bigint  NOT NULL
);
CREATE INDEX action_keys_by_expiry ON action_keys (expires_at);
`;
