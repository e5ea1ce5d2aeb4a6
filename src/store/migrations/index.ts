/**
 * The numbered migrations, oldest first. Each is a TS module exporting its SQL, so that the
 * production build (tsc to dist/, which copies no .sql files) carries them. The database's
 * `PRAGMA user_version` is the number of the last one applied; never edit a published migration,
 * add the next number.
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

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'action key refresh', sql: actionKeyRefresh },
  { version: 3, name: 'targets, directions and digests', sql: targetsDirectionsDigests },
  { version: 4, name: 'digest since', sql: digestSince },
  { version: 5, name: 'fair shares', sql: fairShares },
  { version: 6, name: 'store market', sql: storeMarket },
  { version: 7, name: 'calls', sql: calls },
  { version: 8, name: 'quiet hours and budget', sql: quietBudget },
  { version: 9, name: 'wallet cluster', sql: walletCluster },
];

/** The schema version this build writes and understands. */
export const SCHEMA_VERSION = MIGRATIONS.length;
