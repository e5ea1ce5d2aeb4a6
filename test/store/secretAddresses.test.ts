/**
 * A DATABASE_URL whose password holds unencoded reserved characters (`@ / # ? : % space`, alone and
 * together) through every path that prints an address: opening the store (the start-up error),
 * `npm start` itself, `npm run store:copy` (its refusal and its report), and a running bot's
 * `/status`, `/readyz`, `/metrics` and log lines. Neither the password nor any piece of it long
 * enough to recognise may appear in any of them.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startApp } from '../../src/app';
import { renderCardText } from '../../src/chats/console/render';
import { ConfigError, loadConfig } from '../../src/config';
import { openPostgresStore } from '../../src/store/postgres/postgresStore';
import { openSqliteStore } from '../../src/store/sqliteStore';
import { StoreOpenError } from '../../src/store/storeOpenError';
import { capturedLogger } from '../delivery/helpers';
import { freshDatabase } from '../support/postgres/databases';
import { freePort, runToEnd, startBotProcess, tsNode } from '../support/processes';
import { SECRET_PASSWORDS, leakedFragments } from '../support/secretPasswords';
import { chat, tempDir } from './helpers';
import { postgresRunning } from './support/stores';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/** An address nobody answers at, with `password`. */
async function deadAddress(password: string): Promise<string> {
  return `postgres://tw:${password}@127.0.0.1:${await freePort()}/tokenwatch`;
}

/** A stopped SQLite store to copy from. */
async function sqliteFile(): Promise<string> {
  const { path, cleanup } = tempDir();
  cleanups.push(cleanup);
  await openSqliteStore(path).close();
  return path;
}

/** Runs `run` over `items`, `width` at a time: processes on a small machine. */
async function inBatches<T, R>(items: readonly T[], width: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let index = 0; index < items.length; index += width)
    results.push(...(await Promise.all(items.slice(index, index + width).map(run))));
  return results;
}

describe('a database password holding reserved characters', () => {
  it('is not in the start-up error of a store that cannot be opened', async () => {
    for (const password of SECRET_PASSWORDS) {
      const refusal = await openPostgresStore(await deadAddress(password)).catch((error: unknown) => error);
      expect(refusal, password).toBeInstanceOf(StoreOpenError);
      const message = (refusal as Error).message;
      expect(message, password).toMatch(/^Cannot open the database postgres:\/\/tw:\*\*\*@127\.0\.0\.1:\d+\/tokenwatch: /);
      expect(leakedFragments(password, message), message).toEqual([]);
    }
  });

  it('is not in what npm start prints when it cannot open the store, nor in a refused setting', async () => {
    const passwords = ['Xq7v/Zr9wKp2m', 'Xq7v@/#?Zr9wKp2m', 'Xq7v?pw=Zr9w&Kp2m'];
    const runs = await Promise.all(
      passwords.map(async (password) => {
        const { dir, cleanup } = tempDir();
        cleanups.push(cleanup);
        const bot = startBotProcess(dir, { DATABASE_URL: await deadAddress(password), LOG_LEVEL: 'info' });
        return { password, code: await bot.exit, stderr: bot.stderr() };
      }),
    );
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/Cannot open the database postgres:\/\/tw:\*\*\*@127\.0\.0\.1:\d+\/tokenwatch/);
      expect(leakedFragments(run.password, run.stderr), run.stderr).toEqual([]);
    }
    // A space is no part of an address: the setting is refused, and not echoed.
    const spaced = SECRET_PASSWORDS.find((password) => password.includes(' ')) ?? '';
    const refusal = (() => {
      try {
        return loadConfig({ DATABASE_URL: `postgres://tw:${spaced}@db/tokenwatch` });
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(ConfigError);
    expect(leakedFragments(spaced, (refusal as Error).message)).toEqual([]);
  }, 60_000);

  it('is not in what npm run store:copy prints when it cannot reach the database', async () => {
    // A file each: a copy holds its source's instance lock.
    const runs = await inBatches(SECRET_PASSWORDS, 4, async (password) => {
      const [command, args] = tsNode('src/cli/storeCopy.ts', '--from', await sqliteFile(), '--to', await deadAddress(password));
      return { password, run: await runToEnd(command, args, { input: '' }) };
    });
    for (const { password, run } of runs) {
      const printed = run.stdout + run.stderr;
      expect(run.code, printed).toBe(1);
      expect(printed, password).toMatch(/^Cannot open the database postgres:\/\/tw:\*\*\*@127\.0\.0\.1:\d+\/tokenwatch: /);
      expect(leakedFragments(password, printed), printed).toEqual([]);
    }
    // The refusal of an address of another kind names it without the password too.
    const [command, args] = tsNode(
      'src/cli/storeCopy.ts',
      '--from',
      await sqliteFile(),
      '--to',
      'mysql://tw:Xq7v@/#?Zr9wKp2m@db/tokenwatch',
    );
    const refused = await runToEnd(command, args, { input: '' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Cannot copy to mysql://tw:***@db/tokenwatch');
    expect(leakedFragments('Xq7v@/#?Zr9wKp2m', refused.stderr)).toEqual([]);
  }, 120_000);

  describe.runIf(postgresRunning())('on a server that takes it', () => {
    /** The test server trusts every local connection, so any password is let in: what matters is what is printed. */
    async function addressWith(password: string): Promise<string> {
      const admin = inject('postgres').adminUrl ?? '';
      const made = await freshDatabase(admin);
      cleanups.push(made.drop);
      return made.url.replace(/^postgres(ql)?:\/\/([^@/:]+)@/, `postgres://$2:${password}@`);
    }

    it('is not in the report of npm run store:copy', async () => {
      const from = await sqliteFile();
      const password = 'Xq7v@Zr9w:Kp2m@@Lt5n';
      const to = await addressWith(password);
      const [command, args] = tsNode('src/cli/storeCopy.ts', '--from', from, '--to', to);
      const run = await runToEnd(command, args, { input: '' });
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^Copied \S+ to postgres:\/\/postgres:\*\*\*@\S+\/tw_[0-9a-f]+\S*: 0 follows/);
      expect(leakedFragments(password, run.stdout)).toEqual([]);
    }, 60_000);

    it('is not in /status, /readyz, /metrics or the log lines of a running bot', async () => {
      // The passwords node-postgres reads as one (a lone `%` spoils its reading of the socket folder); the others cannot open a store (the tests above).
      const passwords = SECRET_PASSWORDS.filter((password) => !/[/#? ]|%(?![0-9a-f]{2})/i.test(password));
      expect(passwords.length).toBeGreaterThan(3);
      for (const password of passwords) {
        const { dir, cleanup } = tempDir();
        cleanups.push(cleanup);
        const { logger, lines } = capturedLogger();
        const app = await startApp({
          config: loadConfig({
            DATABASE_URL: await addressWith(password),
            HTTP_PORT: String(await freePort()),
            RECONCILE_CRON: '0 0 1 1 *',
          }),
          logger,
          console: { input: new PassThrough(), output: new PassThrough(), interactive: false, outDir: dir },
        });
        try {
          const status = await app.dispatcher.runLine('/status', { chat: chat('1'), userId: 'manager-1', isManager: async () => true });
          const address = app.ops?.address ?? '';
          const pages = await Promise.all(
            ['/readyz', '/healthz', '/metrics'].map(async (path) => (await fetch(`${address}${path}`)).text()),
          );
          const printed = [
            status === null ? '' : renderCardText(status.card, { width: 200 }),
            ...pages,
            ...lines.map((line) => JSON.stringify(line)),
          ].join('\n');
          expect(printed).toContain('ready');
          expect(leakedFragments(password, printed), password).toEqual([]);
        } finally {
          await app.stop();
        }
      }
    }, 120_000);
  });
});
