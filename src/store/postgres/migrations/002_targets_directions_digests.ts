/**
 * Follows gain a price move's direction and the one-shot targets (`/target`), and chats the daily
 * watchlist's time, zone and place (`/digest`): SQLite's migration 3, in PostgreSQL's types. A chat
 * may hold several targets of one token beside its /track of it, so the unique key takes the
 * target in ('' and 0 for a follow that is no target).
 */
export const sql =
  `
ALTER TABLE follows
  ADD COLUMN direction     text             NOT NULL DEFAULT 'both' CHECK (direction IN ('up', 'down', 'both')),
  ADD COLUMN target_metric text             NOT NULL DEFAULT '' CHECK (target_metric IN ('', 'price', 'mcap')),
  ADD COLUMN target_side   text             NOT NULL DEFAULT '' CHECK (target_side IN ('', 'above', 'below')),
  ADD COLUMN target_value  double precision NOT NULL DEFAULT 0;
ALTER TABLE follows DROP CONSTRAINT follows_platform_chat_id_thread_id_address_key;
ALTER TABLE follows ADD CONSTRAINT follows_one_per_chat UNIQUE (platform, chat_id, thread_id, address, target_metric, ` +
  `target_side, target_value);

ALTER TABLE chats
  ADD COLUMN digest_time      text,
  ADD COLUMN digest_zone      text,
  ADD COLUMN digest_thread_id text,
  ADD COLUMN digest_scope_id  text;
`;
