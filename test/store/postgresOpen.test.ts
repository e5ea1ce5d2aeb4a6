/**
 * Opening a PostgreSQL store: the schema is migrated once, under an advisory lock, even when two
 * stores start at once; a database of a newer TokenWatch, one holding tables of our names that are
 * not ours, and a server that does not answer are refused with one line naming the address without
 * its password, and left as they were.
 */
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/postgresStore';
import { PG_SCHEMA_VERSION } from '../../src/store/postgres/migrations/index';
import { StoreOpenError } from '../../src/store/storeOpenError';
import { freshDatabase } from '../support/postgres/databases';
import { chat, newFollow } from './helpers';
import { postgresRunning } from './support/stores';

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
});

async function database(): Promise<string> {
  const shared = inject('postgres');
  if (shared.adminUrl === null) throw new Error('no PostgreSQL');
  const made = await freshDatabase(shared.adminUrl);
  cleanups.push(made.drop);
  return made.url;
}

async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

describe.runIf(postgresRunning())('opening a PostgreSQL store', () => {
  it('migrates a new database once, even with two stores starting at once, and keeps what was written', async () => {
    const url = await database();
    const [first, second] = await Promise.all([openPostgresStore(url), openPostgresStore(url)]);
    expect(await sql<{ version: number }>(url, 'SELECT version FROM tokenwatch_schema')).toEqual([{ version: PG_SCHEMA_VERSION }]);
    await first.follows.upsert(newFollow(chat('1'), 'TokenA'));
    expect((await second.follows.get(chat('1'), 'TokenA'))?.address).toBe('TokenA');
    await Promise.all([first.close(), second.close()]);
    const again = await openPostgresStore(url);
    expect(await again.follows.countForChat(chat('1'))).toBe(1);
    await again.close();
  });

  it('refuses a database of a newer TokenWatch, and leaves it as it was', async () => {
    const url = await database();
    await (await openPostgresStore(url)).close();
    await sql(url, `UPDATE tokenwatch_schema SET version = ${PG_SCHEMA_VERSION + 1}`);
    const refusal = await openPostgresStore(url).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StoreOpenError);
    expect(refusal).toMatchObject({ reason: 'newer-schema' });
    expect((refusal as Error).message).toMatch(
      /^Cannot open the database postgres:\/\/.*: it has schema version \d+, newer than this TokenWatch knows/,
    );
    expect(await sql<{ version: number }>(url, 'SELECT version FROM tokenwatch_schema')).toEqual([{ version: PG_SCHEMA_VERSION + 1 }]);
  });

  it('refuses a database holding a table of our name that is not ours, and adds nothing to it', async () => {
    const url = await database();
    await sql(url, 'CREATE TABLE follows (something text)');
    const refusal = await openPostgresStore(url).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ reason: 'foreign' });
    const tables = await sql<{ tablename: string }>(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename");
    expect(tables.map((row) => row.tablename)).toEqual(['follows']);
  });

  it('refuses a server that does not answer in one line, without the password', async () => {
    const refusal = await openPostgresStore('postgres://bot:s3cret-pass@localhost/tokenwatch?host=/nonexistent-folder&port=5999').catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(StoreOpenError);
    expect(refusal).toMatchObject({ reason: 'unreachable' });
    const message = (refusal as Error).message;
    expect(message).toContain('postgres://bot:***@localhost/tokenwatch');
    expect(message).not.toContain('s3cret-pass');
    expect(message).not.toContain('\n');
  });
});
