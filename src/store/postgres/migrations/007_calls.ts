/** Calls: SQLite's migration 7, in PostgreSQL's types. */
export const sql = `
CREATE TABLE call_chats (
  platform text NOT NULL,
  chat_id text NOT NULL,
  enabled boolean NOT NULL,
  changed_at bigint NOT NULL,
  PRIMARY KEY (platform, chat_id)
);
CREATE TABLE calls (
  id bigserial PRIMARY KEY,
  platform text NOT NULL,
  chat_id text NOT NULL,
  thread_id text NOT NULL,
  scope_id text,
  address text NOT NULL,
  symbol text NOT NULL,
  name text NOT NULL,
  user_id text NOT NULL,
  user_name text NOT NULL,
  message_id text,
  called_at bigint NOT NULL,
  price_sol double precision NOT NULL,
  price_usd double precision,
  sol_usd double precision,
  mcap_sol double precision,
  mcap_usd double precision,
  peak_sol double precision NOT NULL,
  peak_at bigint NOT NULL,
  last_sol double precision NOT NULL,
  last_at bigint NOT NULL,
  checked_to bigint NOT NULL,
  next_check_at bigint,
  told_multiple double precision NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX calls_by_token ON calls (platform, chat_id, address);
CREATE INDEX calls_by_chat ON calls (platform, chat_id, called_at);
CREATE INDEX calls_due ON calls (next_check_at) WHERE next_check_at IS NOT NULL;
`;
