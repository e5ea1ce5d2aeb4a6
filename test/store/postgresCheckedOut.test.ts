/**
 * A connection the server ends while it is checked out, between two statements of a transaction
 * (as PostgreSQL ends a transaction left idle at its idle_in_transaction_session_timeout, and as a
 * healed network partition delivers that end): node-postgres's pool hears a connection's errors
 * only while it is idle in the pool, so unheard this error was an uncaught exception that stopped
 * the process. Now it is heard (src/store/postgres/checkOut.ts): the transaction fails as a lost
 * connection, and the store's durable retry runs it again on a new one.
 */
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/postgresStore';
import { freshDatabase } from '../support/postgres/databases';
import { postgresRunning } from './support/stores';

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

describe.runIf(postgresRunning())('a connection ended by the server while checked out', () => {
  it('fails its transaction as a lost connection, stops nothing, and the retry commits on a new connection', async () => {
    const shared = inject('postgres');
    if (shared.adminUrl === null) throw new Error('no PostgreSQL');
    const made = await freshDatabase(shared.adminUrl);
    cleanups.push(made.drop);
    const store: PostgresStore = await openPostgresStore(made.url);
    cleanups.push(() => store.close());
    const admin = new pg.Client({ connectionString: made.url });
    await admin.connect();
    cleanups.push(() => admin.end());

    const pids: number[] = [];
    const result = await store.db.durableTransaction(async (client) => {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const pid = rows[0]?.pid ?? 0;
      pids.push(pid);
      if (pids.length === 1) {
        // Between two statements, no query under way: the server ends the session, and its last
        // words reach a connection nobody is asking anything of.
        const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        await ended;
      }
      return (await client.query<{ answer: number }>('SELECT 41 + 1 AS answer')).rows[0]?.answer;
    });

    expect(result).toBe(42);
    expect(pids).toHaveLength(2);
    expect(pids[1]).not.toBe(pids[0]);
  });
});
