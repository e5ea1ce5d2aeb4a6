/**
 * Brings a PostgreSQL database's schema up to date at start, under an advisory lock, so that two
 * TokenWatch processes starting at once migrate once (the second waits for the first, then finds
 * nothing to do; a release before this one waits for it in a transaction, this one asks for it
 * again and again, see takeMigrationLock). A database written by a newer TokenWatch is refused, as SQLite's is, and so is one
 * holding tables of our names that are not ours; both are left as they were.
 *
 * While other processes run on the database (a release rolled in place, docs/operating.md#upgrading):
 *
 * - the migrations a start lacks run in one transaction that rolls back whole, and each of its
 *   statements waits at most LOCK_WAIT_MS for a table's lock: a statement waiting for one makes
 *   every later statement on that table wait behind it, so a migration that cannot have its lock at
 *   once gives way to the running processes, and the transaction is tried again (LOCK_ATTEMPTS
 *   times, then start-up stops saying why);
 * - a migration that builds or drops an index CONCURRENTLY (writes go on meanwhile) holds only such
 *   statements: they cannot run in a transaction, so the transaction of what comes before it is
 *   committed first, each statement runs alone (an index an interrupted build left invalid is
 *   dropped first), and its version is recorded after them.
 */
import type { PoolClient } from 'pg';
import { StoreOpenError } from '../storeOpenError';
import { PG_MIGRATIONS, type PgMigration } from './migrations/index';
import { unbounded } from './pgDatabase';
import { MARKET_RESET_STATEMENTS, OtherMarketError, decideMarket, type MarketOutcome, type StoreMarket } from '../storeMarket';

/** "tokenw" in ASCII: the advisory lock every TokenWatch takes to migrate. */
export const MIGRATION_LOCK = 0x746f6b656e77;
/** How long a migration's statement waits for a table's lock before its transaction gives way and is tried again. */
export const LOCK_WAIT_MS = 1_000;
const LOCK_ATTEMPTS = 30;
const RETRY_FIRST_MS = 200;
const RETRY_MAX_MS = 5_000;
/** A statement that builds or drops an index without holding writes: it cannot run inside a transaction. */
const CONCURRENT = /^(CREATE\s+(UNIQUE\s+)?INDEX|DROP\s+INDEX)\s+CONCURRENTLY\b/i;

/** The schema version recorded in the database, or null when it has none (a new database). */
export async function schemaVersion(client: Pick<PoolClient, 'query'>): Promise<number | null> {
  const table = await client.query<{ found: string | null }>("SELECT to_regclass('tokenwatch_schema')::text AS found");
  if (table.rows[0]?.found == null) return null;
  const row = await client.query<{ version: number }>('SELECT version FROM tokenwatch_schema');
  return row.rows[0]?.version ?? 0;
}

/** A migration's statements, comments left out. */
export function statementsOf(sql: string): string[] {
  return sql
    .replace(/--[^\n]*/g, '')
    .split(';')
    .map((statement) => statement.replace(/\s+/g, ' ').trim())
    .filter((statement) => statement !== '');
}

/** Whether the migration's statements run outside a transaction (all of them CONCURRENTLY); one that mixes the two is refused. */
export function runsConcurrently(migration: PgMigration): boolean {
  const statements = statementsOf(migration.sql);
  const concurrent = statements.filter((statement) => CONCURRENT.test(statement)).length;
  if (concurrent > 0 && concurrent < statements.length)
    throw new Error(`migration ${migration.version} mixes CONCURRENTLY index statements with others; give them a migration of their own`);
  return concurrent > 0;
}

const GIVE_WAY = new Set(['55P03', '40P01']);

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The migration lock, a session lock so that it holds across the transactions and the index
 * builds, given back at the end or with the connection. Asked for again and again rather than
 * waited for in a statement: a statement waiting for it holds a snapshot, which another process's
 * index build CONCURRENTLY waits for while that process holds the lock: a deadlock.
 */
async function takeMigrationLock(client: PoolClient): Promise<void> {
  for (let wait = 50; ; wait = Math.min(1_000, wait * 2)) {
    const { rows } = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1) AS taken', [MIGRATION_LOCK]);
    if (rows[0]?.taken === true) return;
    await sleep(wait);
  }
}

function sqlState(error: unknown): string {
  return error !== null && typeof error === 'object' && 'code' in error ? String(error.code) : '';
}

/**
 * Applies what is missing, then records or checks `market` (none: not looked at) in the same
 * transaction as the last of them; throws StoreOpenError naming `where` (the address without its
 * password). `migrations` are the chain to apply (tests hand one of their own).
 */
export async function migrate(
  client: PoolClient,
  where: string,
  market: StoreMarket | null = null,
  migrations: readonly PgMigration[] = PG_MIGRATIONS,
): Promise<MarketOutcome | null> {
  await takeMigrationLock(client);
  try {
    for (let attempt = 1, wait = RETRY_FIRST_MS; ; attempt += 1, wait = Math.min(RETRY_MAX_MS, wait * 2)) {
      try {
        return await migrateLocked(client, where, market, migrations);
      } catch (error) {
        // 55P03 lock_not_available: a table busy past LOCK_WAIT_MS; 40P01 deadlock_detected: an index
        // build and another session's wait met (one of an older release, waiting for the lock in a
        // transaction). Given way; tried again.
        if (!GIVE_WAY.has(sqlState(error)) || attempt >= LOCK_ATTEMPTS) throw describe(error, where);
        await sleep(wait);
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
  }
}

function describe(error: unknown, where: string): unknown {
  if (error instanceof StoreOpenError) return error;
  if (error instanceof OtherMarketError) return new StoreOpenError(where, 'other-market', error.message);
  // 42P07: duplicate_table. A table of our name that we did not make.
  if (sqlState(error) === '42P07') {
    const text = error instanceof Error ? error.message : String(error);
    return new StoreOpenError(where, 'foreign', `it holds tables that are not TokenWatch's (${text}); it was left untouched`);
  }
  return error;
}

/** One transaction on `client`, its statements unbounded in time and each table's lock waited for LOCK_WAIT_MS at most. */
async function inTransaction<T>(client: PoolClient, run: () => Promise<T>, lockWaitMs?: number): Promise<T> {
  await client.query('BEGIN');
  try {
    // A migration, or the wait for another process's, may take longer than a bot's statement may.
    await client.query('SET LOCAL statement_timeout = 0');
    if (lockWaitMs !== undefined) await client.query(`SET LOCAL lock_timeout = ${Math.floor(lockWaitMs)}`);
    const result = await run();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function migrateLocked(
  client: PoolClient,
  where: string,
  market: StoreMarket | null,
  migrations: readonly PgMigration[],
): Promise<MarketOutcome | null> {
  const newest = migrations.at(-1)?.version ?? 0;
  const found = await schemaVersion(client);
  if (found !== null && found > newest) {
    throw new StoreOpenError(
      where,
      'newer-schema',
      `it has schema version ${found}, newer than this TokenWatch knows (${newest}); upgrade TokenWatch or restore a backup`,
    );
  }
  let pending = migrations.filter((migration) => migration.version > (found ?? 0));
  let first = found === null;
  for (;;) {
    // What runs in a transaction: every pending migration up to the first that builds an index CONCURRENTLY.
    const split = pending.findIndex(runsConcurrently);
    const inOne = split === -1 ? pending : pending.slice(0, split);
    const last = split === -1;
    const outcome = await inTransaction(
      client,
      async () => {
        if (first) {
          await client.query('CREATE TABLE tokenwatch_schema (version integer NOT NULL)');
          await client.query('INSERT INTO tokenwatch_schema (version) VALUES (0)');
        }
        for (const migration of inOne) {
          await client.query(unbounded(migration.sql));
          await client.query('UPDATE tokenwatch_schema SET version = $1', [migration.version]);
        }
        // In the transaction of the last: a refused start leaves what it found as it was.
        return last && market !== null ? checkMarket(client, market) : null;
      },
      LOCK_WAIT_MS,
    );
    first = false;
    if (last) return outcome;
    const concurrent = pending[split] as PgMigration;
    await applyConcurrently(client, concurrent);
    pending = pending.slice(split + 1);
  }
}

/** A migration of CONCURRENTLY index statements, each alone and outside a transaction, then its version. */
async function applyConcurrently(client: PoolClient, migration: PgMigration): Promise<void> {
  await client.query('SET statement_timeout = 0');
  try {
    for (const statement of statementsOf(migration.sql)) {
      // An interrupted build leaves its index invalid, and IF NOT EXISTS would keep it: dropped and built again.
      const building = /^CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+(?:IF\s+NOT\s+EXISTS\s+)?("[^"]+"|\S+)/i.exec(statement);
      if (building !== null) await client.query(unbounded(`DROP INDEX CONCURRENTLY IF EXISTS ${building[1]}`));
      await client.query(unbounded(statement));
    }
  } finally {
    await client.query('RESET statement_timeout');
  }
  await client.query('UPDATE tokenwatch_schema SET version = $1', [migration.version]);
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
