/**
 * The numbered migrations, oldest first. Each is a TS module exporting its SQL, so that the
 * production build (tsc to dist/, which copies no .sql files) carries them. The database's
 * `PRAGMA user_version` is the number of the last one applied; never edit a published migration,
 * add the next number.
 *
 * The rule of both chains (this one and PostgreSQL's, src/store/postgres/migrations/index.ts), so
 * that a release is rolled in place over several processes (docs/operating.md#upgrading): a process
 * of the release before keeps running on the migrated schema until it is replaced. Each migration
 * says which of two kinds it is, and holds nothing else (test/store/migrationKinds.test.ts reads
 * every statement):
 *
 * - `expand` only adds: a table; a column that is nullable or has a default (a NOT NULL column
 *   without one would refuse the old release's inserts); an index, which PostgreSQL builds with
 *   CREATE INDEX CONCURRENTLY on a table that already exists (writes go on while it builds; such a
 *   migration holds its index statements alone, as they run outside a transaction). The release
 *   that adds a thing may write and read it; the release before ignores it.
 * - `contract` only removes what the release before it no longer reads or writes: a table, a
 *   column, an index (DROP INDEX CONCURRENTLY on PostgreSQL). So a removal ships at least one
 *   release after the code stopped using it.
 *
 * Anything else (a rename, a new type, a stricter constraint, a key changed, rows rewritten) is
 * made in steps: the new beside the old, written by both, in an expand; the old dropped in a later
 * contract. SQLite serves one process, so nothing of it runs beside an old release; its chain keeps
 * the rule all the same, so that the two chains stay alike (npm run store:copy copies the columns
 * both have). A migration released before the rule that breaks it says how (`beforeTheRule`), and
 * docs/operating.md#upgrading how to cross it. No new one may.
 */
import { sql as initial } from './001_initial';
import { sql as actionKeyRefresh } from './002_action_key_refresh';
import { sql as targetsDirectionsDigests } from './003_targets_directions_digests';
import { sql as digestSince } from './004_digest_since';
import { sql as fairShares } from './005_fair_shares';
import { sql as storeMarket } from './006_store_market';
import { sql as calls } from './007_calls';
import { sql as quietBudget } from './008_quiet_budget';
import { sql as walletCluster } from './009_wallet_cluster';

/** Which way a migration moves the schema (the rule above). */
export type MigrationKind = 'expand' | 'contract';

export interface Migration {
  version: number;
  name: string;
  kind: MigrationKind;
  sql: string;
  /** Released before the rule, which it breaks: how, and what a process of the release before meets (docs/operating.md#upgrading). */
  beforeTheRule?: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', kind: 'expand', sql: initial },
  { version: 2, name: 'action key refresh', kind: 'expand', sql: actionKeyRefresh },
  {
    version: 3,
    name: 'targets, directions and digests',
    kind: 'expand',
    sql: targetsDirectionsDigests,
    beforeTheRule:
      'makes the follows table again with another unique key (the target in it), so the release before upserts a follow on a key ' +
      'that is gone',
  },
  { version: 4, name: 'digest since', kind: 'expand', sql: digestSince },
  { version: 5, name: 'fair shares', kind: 'expand', sql: fairShares },
  { version: 6, name: 'store market', kind: 'expand', sql: storeMarket },
  { version: 7, name: 'calls', kind: 'expand', sql: calls },
  { version: 8, name: 'quiet hours and budget', kind: 'expand', sql: quietBudget },
  { version: 9, name: 'wallet cluster', kind: 'expand', sql: walletCluster },
];

/** The schema version this build writes and understands. */
export const SCHEMA_VERSION = MIGRATIONS.length;
