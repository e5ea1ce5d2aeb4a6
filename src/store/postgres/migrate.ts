/**
 * Brings a PostgreSQL database's schema up to date at start: every migration it lacks, in one
 * transaction, under a transaction-level advisory lock, so that two TokenWatch processes starting
 * at once migrate once (the second waits for the first's commit, then finds nothing to do). A
 * database written by a newer TokenWatch is refused, as SQLite's is, and so is one holding tables
 * of our names that are not ours; both are left as they were (the transaction rolls back whole).
 */
import type { PoolClient } from 'pg';
import { StoreOpenError } from '../storeOpenError';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from './migrations/index';
import { unbounded } from './pgDatabase';
import { MARKET_RESET_STATEMENTS, OtherMarketError, decideMarket, type MarketOutcome, type StoreMarket } from '../storeMarket';

/** "tokenw" in ASCII: the advisory lock every TokenWatch takes to migrate. */
export const MIGRATION_LOCK = 0x746f6b656e77;

/** The schema version recorded in the database, or null when it has none (a new database). */
export async function schemaVersion(client: Pick<PoolClient, 'query'>): Promise<number | null> {
  const table = await client.query<{ found: string | null }>("SELECT to_regclass('tokenwatch_schema')::text AS found");
  if (table.rows[0]?.found == null) return null;
  const row = await client.query<{ version: number }>('SELECT version FROM tokenwatch_schema');
  return row.rows[0]?.version ?? 0;
}

/**
 * Applies what is missing, then records or checks `market` (none: not looked at) in the same
 * transaction; throws StoreOpenError naming `where` (the address without its password).
 */
export async function migrate(client: PoolClient, where: string, market: StoreMarket | null = null): Promise<MarketOutcome | null> {
  await client.query('BEGIN');
  try {
    // A migration, or the wait for another process's, may take longer than a bot's statement may.
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query(unbounded('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]));
    const found = await schemaVersion(client);
    if (found !== null && found > PG_SCHEMA_VERSION) {
      throw new StoreOpenError(
        where,
        'newer-schema',
        `it has schema version ${found}, newer than this TokenWatch knows (${PG_SCHEMA_VERSION}); upgrade TokenWatch or restore a backup`,
      );
    }
    if (found === null) {
      await client.query('CREATE TABLE tokenwatch_schema (version integer NOT NULL)');
      await client.query('INSERT INTO tokenwatch_schema (version) VALUES (0)');
    }
    const current = found ?? 0;
    for (const migration of PG_MIGRATIONS) {
      if (migration.version <= current) continue;
      await client.query(unbounded(migration.sql));
      await client.query('UPDATE tokenwatch_schema SET version = $1', [migration.version]);
    }
    const outcome = market === null ? null : await checkMarket(client, market);
    await client.query('COMMIT');
    return outcome;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (error instanceof StoreOpenError) throw error;
    if (error instanceof OtherMarketError) throw new StoreOpenError(where, 'other-market', error.message);
    const code = error !== null && typeof error === 'object' && 'code' in error ? String(error.code) : '';
    // 42P07: duplicate_table. A table of our name that we did not make.
    if (code === '42P07') {
      const text = error instanceof Error ? error.message : String(error);
      throw new StoreOpenError(where, 'foreign', `it holds tables that are not TokenWatch's (${text}); it was left untouched`);
    }
    throw error;
  }
}

/** Records the market in a database that has none, or checks it against the recorded one (src/store/storeMarket.ts). */
async function checkMarket(client: PoolClient, market: StoreMarket): Promise<MarketOutcome> {
  const found = await client.query<{ market: string }>('SELECT market FROM store_market');
  const recorded = found.rows[0]?.market ?? null;
  const decision = decideMarket(recorded, market, 'DATABASE_URL');
  if (decision === 'same') return { kind: 'same', market: market.id };
  if (decision === 'reset') for (const statement of MARKET_RESET_STATEMENTS) await client.query(unbounded(statement));
  await client.query(
    'INSERT INTO store_market (one, market, recorded_at) VALUES (true, $1, $2) ON CONFLICT (one) DO UPDATE ' +
      'SET market = excluded.market, recorded_at = excluded.recorded_at',
    [market.id, Date.now()],
  );
  return decision === 'reset' && recorded !== null
    ? { kind: 'reset', market: market.id, from: recorded }
    : { kind: 'recorded', market: market.id };
}
