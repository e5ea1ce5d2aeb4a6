/**
 * The numbered PostgreSQL migrations, oldest first; each a TS module exporting its SQL, so that
 * the production build carries them. The table `tokenwatch_schema` holds the number of the last
 * one applied. Never edit a published migration: add the next number.
 */
import { sql as initial } from './001_initial';
import { sql as targetsDirectionsDigests } from './002_targets_directions_digests';
import { sql as digestSince } from './003_digest_since';
import { sql as leases } from './004_leases';
import { sql as fairShares } from './005_fair_shares';
import { sql as storeMarket } from './006_store_market';
import { sql as calls } from './007_calls';
import { sql as quietBudget } from './008_quiet_budget';
import { sql as walletCluster } from './009_wallet_cluster';

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

export const PG_MIGRATIONS: readonly PgMigration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'targets, directions and digests', sql: targetsDirectionsDigests },
  { version: 3, name: 'digest since', sql: digestSince },
  { version: 4, name: 'leases and gateway sessions', sql: leases },
  { version: 5, name: 'fair shares', sql: fairShares },
  { version: 6, name: 'store market', sql: storeMarket },
  { version: 7, name: 'calls', sql: calls },
  { version: 8, name: 'quiet hours and budget', sql: quietBudget },
  { version: 9, name: 'wallet cluster', sql: walletCluster },
];

/** The schema version this build writes and understands. */
export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;
