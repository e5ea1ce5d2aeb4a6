/**
 * `npm run backup -- PATH` as an operator runs it: a process of its own, beside a store that is open
 * (and so holds the instance lock, as the running bot does) or closed, reading DATABASE_PATH the
 * way the bot does. The copy is opened as a store and must hold what was written before it.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqliteStore';
import { runToEnd, tsNode, type Run } from '../support/processes';
import { chat, newFollow, tempDir, tokenSnapshot } from './helpers';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

function temp() {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t;
}

function backup(args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<Run> {
  const [command, commandArgs] = tsNode('src/cli/backup.ts', ...args);
  return runToEnd(command, commandArgs, { input: '', cwd: options.cwd, env: options.env ?? {} });
}

async function addressesIn(path: string, chatId: string): Promise<string[]> {
  const copy = openSqliteStore(path);
  try {
    return (await copy.follows.list(chat(chatId), { offset: 0, limit: 10 })).follows.map((follow) => follow.address);
  } finally {
    await copy.close();
  }
}

/** One line on standard error naming `subject`, nothing on standard output. */
function expectOneErrorLine(run: Run, subject: string): void {
  expect(run.stdout).toBe('');
  expect(run.stderr.endsWith('\n')).toBe(true);
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(run.stderr).toContain(subject);
}

describe('npm run backup', () => {
  it('copies the database while a store holds it open, and prints the copy and its size', async () => {
    const { dir, path } = temp();
    const store = openSqliteStore(path);
    try {
      await store.follows.upsert(newFollow(chat('1'), 'TokenA'));
      await store.follows.upsert(newFollow(chat('1'), 'TokenB', { kind: 'wallet' }));
      await store.follows.upsert(newFollow(chat('2'), 'TokenC'));
      await store.state.commitToken(tokenSnapshot('TokenA'), [], new Date(0));
      const destination = join(dir, 'copy.db');

      const run = await backup([destination], { cwd: dir, env: { DATABASE_PATH: path } });

      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(`Backed up ${path} to ${destination}: ${statSync(destination).size.toLocaleString('en-US')} bytes\n`);
      // The store goes on working beside the copy; what it writes now is not in it.
      await store.follows.upsert(newFollow(chat('1'), 'TokenD'));
      expect(await addressesIn(destination, '1')).toEqual(['TokenA', 'TokenB']);
      expect(await addressesIn(destination, '2')).toEqual(['TokenC']);
      const copy = openSqliteStore(destination);
      expect(await copy.state.token('TokenA')).toEqual(tokenSnapshot('TokenA'));
      await copy.close();
    } finally {
      await store.close();
    }
  }, 30_000);

  it('reads DATABASE_PATH as the bot does: its default on a service, data/tokenwatch.db, and .env', async () => {
    const { dir } = temp();
    const byDefault = openSqliteStore(join(dir, 'data', 'tokenwatch.db'));
    await byDefault.follows.upsert(newFollow(chat('1'), 'TokenA'));
    await byDefault.close();
    const fromDotEnv = openSqliteStore(join(dir, 'elsewhere', 'bot.db'));
    await fromDotEnv.follows.upsert(newFollow(chat('1'), 'TokenB'));
    await fromDotEnv.close();

    // The built-in simulator's store is data/tokenwatch-simulator.db: a service's address picks the other default.
    writeFileSync(join(dir, '.env'), 'TMDS_BASE_URL=https://data.example.com\nTMDS_API_KEY=key\n');
    const first = await backup(['first.db'], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Backed up data/tokenwatch.db to first.db');
    expect(await addressesIn(join(dir, 'first.db'), '1')).toEqual(['TokenA']);

    writeFileSync(join(dir, '.env'), 'TMDS_BASE_URL=https://data.example.com\nTMDS_API_KEY=key\nDATABASE_PATH=elsewhere/bot.db\n');
    const second = await backup(['second.db'], { cwd: dir });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('Backed up elsewhere/bot.db to second.db');
    expect(await addressesIn(join(dir, 'second.db'), '1')).toEqual(['TokenB']);
  }, 30_000);

  it('refuses a destination that exists, and leaves it byte for byte', async () => {
    const { dir, path } = temp();
    const store = openSqliteStore(path);
    await store.follows.upsert(newFollow(chat('1'), 'TokenA'));
    await store.close();
    const destination = join(dir, 'taken.db');
    const before = Buffer.from('an earlier backup the operator keeps\n');
    writeFileSync(destination, before);

    const run = await backup([destination], { cwd: dir, env: { DATABASE_PATH: path } });

    expect(run.code).toBe(1);
    expectOneErrorLine(run, destination);
    expect(run.stderr).toContain('exists');
    expect(readFileSync(destination).equals(before)).toBe(true);
  }, 30_000);

  it('refuses a missing database without creating one, and leaves no copy', async () => {
    const { dir } = temp();
    const missing = join(dir, 'nothing', 'here.db');
    const destination = join(dir, 'copy.db');

    const run = await backup([destination], { cwd: dir, env: { DATABASE_PATH: missing } });

    expect(run.code).toBe(1);
    expectOneErrorLine(run, missing);
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(destination)).toBe(false);
  }, 30_000);

  it('refuses a bot whose store is PostgreSQL, pointing to pg_dump, without a copy or the password', async () => {
    const { dir } = temp();
    const destination = join(dir, 'copy.db');

    const run = await backup([destination], { cwd: dir, env: { DATABASE_URL: 'postgres://bot:hunter22@db.example/tokenwatch' } });

    expect(run.code).toBe(1);
    expectOneErrorLine(run, 'pg_dump');
    expect(run.stderr).not.toContain('hunter22');
    expect(existsSync(destination)).toBe(false);
  }, 30_000);

  it('refuses a file that is not a TokenWatch database, and leaves no copy', async () => {
    const { dir, path } = temp();
    writeFileSync(path, 'not a database\n'.repeat(100));
    const destination = join(dir, 'copy.db');

    const run = await backup([destination], { cwd: dir, env: { DATABASE_PATH: path } });

    expect(run.code).toBe(1);
    expectOneErrorLine(run, path);
    expect(existsSync(destination)).toBe(false);
  }, 30_000);

  it('refuses a destination whose folder does not exist, and a call without exactly one path', async () => {
    const { dir, path } = temp();
    const store = openSqliteStore(path);
    await store.close();
    const destination = join(dir, 'no-such-folder', 'copy.db');

    const noFolder = await backup([destination], { cwd: dir, env: { DATABASE_PATH: path } });
    expect(noFolder.code).toBe(1);
    expectOneErrorLine(noFolder, destination);
    expect(existsSync(join(dir, 'no-such-folder'))).toBe(false);

    for (const args of [[], ['one.db', 'two.db']]) {
      const usage = await backup(args, { cwd: dir, env: { DATABASE_PATH: path } });
      expect(usage.code).toBe(2);
      expectOneErrorLine(usage, 'npm run backup -- PATH');
      expect(existsSync(join(dir, 'one.db'))).toBe(false);
    }
  }, 30_000);
});
