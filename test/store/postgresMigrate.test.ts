/**
 * Migrating a PostgreSQL database that other processes are using (a release rolled in place): an
 * index built CONCURRENTLY, outside a transaction, in a migration of its own, and recorded once
 * built, even by two processes starting at once or after a build left it invalid; and a migration
 * that cannot have a table's lock at once gives way to the statements of the running processes
 * instead of holding them behind it, then goes through.
 */
import pg from 'pg';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { LOCK_WAIT_MS, migrate } from '../../src/store/postgres/migrate';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION, type PgMigration } from '../../src/store/postgres/migrations/index';
import '../support/postgres/provided';
import { freshDatabase } from '../support/postgres/databases';
import { postgresRunning } from './support/stores';

const WAIT = { timeout: 20_000, interval: 20 };
const pools: pg.Pool[] = [];
let cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.end();
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
});

async function database(): Promise<pg.Pool> {
  const shared = inject('postgres');
  if (shared.adminUrl === null) throw new Error('no PostgreSQL');
  const made = await freshDatabase(shared.adminUrl);
  cleanups.push(made.drop);
  const pool = new pg.Pool({ connectionString: made.url, max: 6 });
  // An idle client whose backend the server ends (a migration giving way, the database dropped)
  // is an error event of the pool: without a listener it would be the process's unhandled error.
  pool.on('error', () => undefined);
  pools.push(pool);
  return pool;
}

/** Migrates with `chain` on a connection of its own, as a starting process does. */
async function migrateWith(pool: pg.Pool, chain: readonly PgMigration[]): Promise<void> {
  const client = await pool.connect();
  try {
    await migrate(client, 'the test database', null, chain);
  } finally {
    client.release();
  }
}

const NEXT = PG_SCHEMA_VERSION + 1;
const withIndex: PgMigration[] = [
  ...PG_MIGRATIONS,
  { version: NEXT, name: 'outbox by chat', kind: 'expand', sql: 'CREATE INDEX CONCURRENTLY outbox_by_chat_test ON outbox (chat_id)' },
];

async function indexState(pool: pg.Pool): Promise<Array<{ valid: boolean }>> {
  const { rows } = await pool.query<{ valid: boolean }>(
    "SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'outbox_by_chat_test'",
  );
  return rows;
}

async function version(pool: pg.Pool): Promise<number> {
  return (await pool.query<{ version: number }>('SELECT version FROM tokenwatch_schema')).rows[0]?.version ?? 0;
}

describe.runIf(postgresRunning())('migrating a PostgreSQL database in use', () => {
  it('builds an index CONCURRENTLY outside a transaction, once, and records it after: two processes at once', async () => {
    const pool = await database();
    await migrateWith(pool, PG_MIGRATIONS);
    await Promise.all([migrateWith(pool, withIndex), migrateWith(pool, withIndex)]);
    expect(await indexState(pool)).toEqual([{ valid: true }]);
    expect(await version(pool)).toBe(NEXT);
    // A new database takes the whole chain, the index's transaction-less step included.
    const fresh = await database();
    await migrateWith(fresh, withIndex);
    expect(await indexState(fresh)).toEqual([{ valid: true }]);
    expect(await version(fresh)).toBe(NEXT);
  });

  it('builds again an index an interrupted build left invalid', async () => {
    const pool = await database();
    await migrateWith(pool, PG_MIGRATIONS);
    // What a build cut off midway leaves: the index there, invalid, and the version not recorded.
    await pool.query('CREATE INDEX outbox_by_chat_test ON outbox (chat_id)');
    await pool.query("UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'outbox_by_chat_test'::regclass");
    expect(await indexState(pool)).toEqual([{ valid: false }]);
    await migrateWith(pool, withIndex);
    expect(await indexState(pool)).toEqual([{ valid: true }]);
    expect(await version(pool)).toBe(NEXT);
  });

  it('gives way to the running processes while a table it alters is busy, then goes through', async () => {
    const pool = await database();
    await migrateWith(pool, PG_MIGRATIONS);
    const chain: PgMigration[] = [
      ...PG_MIGRATIONS,
      { version: NEXT, name: 'a column', kind: 'expand', sql: 'ALTER TABLE chats ADD COLUMN test_note text' },
    ];
    // A process of the release before inside a transaction that read chats: ALTER TABLE must wait for it.
    const holder = await pool.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT count(*) FROM chats');
    const migrating = migrateWith(pool, chain);
    await vi.waitFor(async () => {
      const { rows } = await pool.query(
        "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%ADD COLUMN test_note%'",
      );
      expect(rows).toHaveLength(1);
    }, WAIT);
    // Another running process reads chats while the migration waits for its lock: it is not held
    // behind the migration for longer than the migration's own wait, far inside a bot's 5 s.
    const reader = await pool.connect();
    try {
      await reader.query(`SET statement_timeout = ${5 * LOCK_WAIT_MS}`);
      expect((await reader.query<{ n: string }>('SELECT count(*) AS n FROM chats')).rows[0]?.n).toBe('0');
    } finally {
      reader.release(true);
    }
    await holder.query('COMMIT');
    holder.release();
    await migrating;
    expect(await version(pool)).toBe(NEXT);
    expect(
      (await pool.query("SELECT 1 FROM information_schema.columns WHERE table_name = 'chats' AND column_name = 'test_note'")).rows,
    ).toHaveLength(1);
  });
});
