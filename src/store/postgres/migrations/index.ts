/**
 * The numbered PostgreSQL migrations, oldest first; each a TS module exporting its SQL, so that
 * the production build carries them. The table `tokenwatch_schema` holds the number of the last
 * one applied. Never edit a published migration: add the next number.
 *
 * Each is an `expand` or a `contract`, under the rule written where SQLite's are defined
 * (src/store/migrations/index.ts), so that a process of the release before runs on while a release
 * is rolled in place: an expand only adds (a table, a nullable or defaulted column, an index built
 * with CREATE INDEX CONCURRENTLY on a table that exists, alone in its migration); a contract only
 * removes what the release before no longer reads or writes. migrate.ts applies them.
 */
import type { Migration } from '../../migrations/index';
import { sql as initial } from './001_initial';
import { sql as targetsDirectionsDigests } from './002_targets_directions_digests';
import { sql as digestSince } from './003_digest_since';
import { sql as leases } from './004_leases';
import { sql as fairShares } from './005_fair_shares';
import { sql as storeMarket } from './006_store_market';
import { sql as calls } from './007_calls';
import { sql as quietBudget } from './008_quiet_budget';
import { sql as walletCluster } from './009_wallet_cluster';

export type PgMigration = Migration;

/** The release before survives it, but its writes to the table wait for the build: a moment on a small table, longer on a large one. */
const BLOCKING_INDEX = 'builds an index on a table in use without CONCURRENTLY, so writes to it wait while it builds';

export const PG_MIGRATIONS: readonly PgMigration[] = [
  { version: 1, name: 'initial', kind: 'expand', sql: initial },
  {
    version: 2,
    name: 'targets, directions and digests',
    kind: 'expand',
    sql: targetsDirectionsDigests,
    beforeTheRule:
      'drops the follows unique key for one with the target in it, so the release before upserts a follow on a key that is gone',
  },
  { version: 3, name: 'digest since', kind: 'expand', sql: digestSince },
  { version: 4, name: 'leases and gateway sessions', kind: 'expand', sql: leases },
  { version: 5, name: 'fair shares', kind: 'expand', sql: fairShares, beforeTheRule: `${BLOCKING_INDEX} (follows, action_keys)` },
  { version: 6, name: 'store market', kind: 'expand', sql: storeMarket },
  { version: 7, name: 'calls', kind: 'expand', sql: calls },
  { version: 8, name: 'quiet hours and budget', kind: 'expand', sql: quietBudget, beforeTheRule: `${BLOCKING_INDEX} (outbox)` },
  { version: 9, name: 'wallet cluster', kind: 'expand', sql: walletCluster },
];

/** The schema version this build writes and understands. */
export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;
