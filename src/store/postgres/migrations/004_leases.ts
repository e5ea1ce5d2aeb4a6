/**
 * What several processes share besides the data (src/cluster/): named leases, and the Discord
 * gateway sessions a replacement process resumes.
 *
 * A lease (`member:<process>`, `partition:<n>`, `sender:<platform>`, `telegram:poller`) has an
 * owner, an epoch that grows each time it changes hands, and an expiry in the database's own clock
 * (timestamptz, compared with now()), so that the machines' clocks never matter. `info` is what
 * the owner tells the others (a member's roles, partitions and shards), for /status.
 */
export const sql = `
CREATE TABLE leases (
  name        text        PRIMARY KEY,
  owner       text        NOT NULL,
  epoch       bigint      NOT NULL,
  expires_at  timestamptz NOT NULL,
  info        jsonb       NOT NULL DEFAULT '{}'::jsonb
);

CREATE TABLE discord_sessions (
  shard_id     integer     PRIMARY KEY,
  shard_count  integer     NOT NULL,
  session      jsonb       NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now()
);
`;
