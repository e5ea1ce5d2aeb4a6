/**
 * `npm start` against a database of a newer TokenWatch (a release rolled back, or an old process
 * started again in the middle of a roll): it refuses to run, in one line naming the database and
 * both schema versions, exits with code 2, and leaves the database as it was. Both stores.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/store/migrations/index';
import { PG_SCHEMA_VERSION } from '../../src/store/postgres/migrations/index';
import { openPostgresStore } from '../../src/store/postgres/postgresStore';
import { openSqliteStore } from '../../src/store/sqliteStore';
import '../support/postgres/provided';
import { freshDatabase } from '../support/postgres/databases';
import { runToEnd, tsNode, type Run } from '../support/processes';
import { postgresRunning } from './support/stores';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
});

/** `npm start` with only `env` set, in a folder of its own, its standard input empty. */
function start(env: Record<string, string>): Promise<Run> {
  const [command, args] = tsNode('src/main.ts');
  return runToEnd(command, args, { input: '', env });
}

function expectRefusal(run: Run, database: string, found: number, known: number): void {
  expect(run.code).toBe(2);
  const lines = run.stderr.trim().split('\n');
  expect(lines).toEqual([
    `Cannot open the database ${database}: it has schema version ${found}, newer than this TokenWatch knows (${known}); ` +
      'upgrade TokenWatch or restore a backup',
  ]);
}

describe('npm start against a database of a newer TokenWatch', () => {
  it('SQLite: refuses in one line, exit code 2, and leaves the file at its version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-newer-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'tokenwatch.db');
    await openSqliteStore(path).close();
    const db = new Database(path);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expectRefusal(await start({ DATABASE_PATH: path }), path, SCHEMA_VERSION + 1, SCHEMA_VERSION);
    const after = new Database(path, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    after.close();
  });

  it.runIf(postgresRunning())('PostgreSQL: refuses in one line naming the address without its password, exit code 2', async () => {
    const shared = inject('postgres');
    const made = await freshDatabase(shared.adminUrl as string);
    cleanups.push(made.drop);
    await (await openPostgresStore(made.url)).close();
    const client = new pg.Client({ connectionString: made.url });
    await client.connect();
    try {
      await client.query(`UPDATE tokenwatch_schema SET version = ${PG_SCHEMA_VERSION + 1}`);
      const run = await start({ DATABASE_URL: made.url });
      // The address as the bot shows it: this one has no password, so it reads as written.
      expectRefusal(run, made.url, PG_SCHEMA_VERSION + 1, PG_SCHEMA_VERSION);
      expect((await client.query<{ version: number }>('SELECT version FROM tokenwatch_schema')).rows).toEqual([
        { version: PG_SCHEMA_VERSION + 1 },
      ]);
    } finally {
      await client.end();
    }
  });
});
