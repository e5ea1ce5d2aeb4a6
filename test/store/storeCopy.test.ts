/**
 * `npm run store:copy -- --from FILE --to postgres://…` as an operator runs it, a process of its
 * own: a stopped SQLite store's follows, chat settings, last-seen state, pending alerts and
 * unexpired action keys land in an empty PostgreSQL database, in one transaction, with the counts
 * printed and the password never shown; a database that is not empty, a running bot's file and
 * wrong arguments are refused in one line, and the target is left as it was.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqliteStore';
import { openPostgresStore } from '../../src/store/postgres/postgresStore';
import { runToEnd, tsNode, type Run } from '../support/processes';
import { chat, newFollow, priceEvent, tempDir, tokenSnapshot, walletSnapshot } from './helpers';
import { issueOne } from '../support/issueOne';
import { STORE_KINDS, postgresRunning, type StoreHome } from './support/stores';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
});

const T0 = new Date(1_700_000_000_000);
const FAR = new Date(Date.now() + 3_600_000);

function storeCopy(args: string[]): Promise<Run> {
  const [command, commandArgs] = tsNode('src/store/postgres/copyCli.ts', ...args);
  return runToEnd(command, commandArgs, { input: '' });
}

async function postgresDatabase(): Promise<StoreHome & { url: string }> {
  const make = STORE_KINDS.find(([kind]) => kind === 'postgres')?.[1];
  if (make === undefined) throw new Error('no PostgreSQL');
  const home = await make();
  cleanups.push(home.remove);
  return { ...home, url: home.env.DATABASE_URL ?? '' };
}

/** A stopped SQLite store holding some of everything; returns its path and the keys issued. */
async function sqliteWithData(): Promise<{ path: string; live: string; expired: string }> {
  const { path, cleanup } = tempDir();
  cleanups.push(cleanup);
  const store = openSqliteStore(path);
  await store.follows.upsert(newFollow(chat('1'), 'TokenA', { label: 'first' }));
  await store.follows.upsert(newFollow(chat('1', 'telegram', '7'), 'WalletA', { kind: 'wallet', options: { events: ['wallet-trade'], minUsd: 500, thresholdPct: 0, side: 'buy' } }));
  await store.follows.upsert(newFollow(chat('2', 'discord'), 'TokenA', { options: { events: ['price'], minUsd: 0, thresholdPct: 25, side: 'both', direction: 'up' } }));
  await store.follows.setMutedUntil(chat('1'), 'TokenA', FAR);
  await store.chats.updateSettings(chat('1'), { detectAddresses: true });
  await store.chats.pause(chat('3'), 'Forbidden: bot was kicked', T0);
  await store.state.commitToken(tokenSnapshot('TokenA'), [{ event: priceEvent('TokenA', 'sent'), to: [{ chat: chat('1'), label: null }] }], T0);
  await store.state.commitWallet(walletSnapshot('WalletA'), [], T0);
  const [delivered] = await store.outbox.due('telegram', T0, 10);
  await store.outbox.markDelivered([delivered!.id], T0);
  await store.state.commitToken(tokenSnapshot('TokenA', 2), [{ event: priceEvent('TokenA', 'waiting'), to: [{ chat: chat('1'), label: 'mine' }, { chat: chat('2'), label: null }] }], T0);
  const live = await issueOne(store.actionKeys, { command: 'token', args: ['TokenA'], refresh: true }, chat('1'), FAR);
  const expired = await issueOne(store.actionKeys, { command: 'token', args: ['TokenB'] }, chat('1'), new Date(Date.now() - 1000));
  await store.close();
  return { path, live, expired };
}

describe.runIf(postgresRunning())('npm run store:copy', () => {
  it('copies a stopped SQLite store into an empty PostgreSQL one and prints the counts', async () => {
    const source = await sqliteWithData();
    const target = await postgresDatabase();
    const withPassword = target.url.replace('postgres://postgres@', 'postgres://postgres:not-needed-pw@');
    const run = await storeCopy(['--from', source.path, '--to', withPassword]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `Copied ${source.path} to ${withPassword.replace(':not-needed-pw@', ':***@')}: 3 follows, 2 chat settings, 1 token states, 1 wallet states, 2 pending alerts (1 events), 1 action keys\n`,
    );

    const store = await openPostgresStore(target.url);
    try {
      const [follow] = (await store.follows.list(chat('1'), { offset: 0, limit: 10 })).follows;
      expect(follow).toMatchObject({ address: 'TokenA', label: 'first', mutedUntil: FAR, addedBy: 'user-1' });
      expect((await store.follows.get(chat('1', 'telegram', '7'), 'WalletA'))?.options).toEqual({ events: ['wallet-trade'], minUsd: 500, thresholdPct: 0, side: 'buy' });
      expect(await store.follows.totals()).toEqual({ follows: 3, chats: 2 });
      // Columns later migrations added to both schemas come along too.
      expect((await store.follows.get(chat('2', 'discord'), 'TokenA'))?.options).toMatchObject({ events: ['price'], thresholdPct: 25, direction: 'up' });
      expect(await store.chats.settings(chat('1'))).toMatchObject({ detectAddresses: true });
      expect(await store.chats.pausedReason(chat('3'))).toBe('Forbidden: bot was kicked');
      expect((await store.state.token('TokenA'))?.seenAt).toBe(2);
      expect(await store.state.wallet('WalletA')).toEqual(walletSnapshot('WalletA'));
      // Only the alert not yet delivered; the delivered one stays behind.
      const due = await store.outbox.due('telegram', T0, 10);
      expect(due.map((row) => [row.chat.chatId, row.event.key, row.label])).toEqual([
        ['1', 'waiting', 'mine'],
        ['2', 'waiting', null],
      ]);
      expect((await store.outbox.pending()).count).toBe(2);
      expect(await store.actionKeys.resolve(source.live, chat('1'), new Date())).toEqual({ status: 'ok', action: { command: 'token', args: ['TokenA'], refresh: true } });
      expect(await store.actionKeys.resolve(source.expired, chat('1'), new Date(0))).toEqual({ status: 'unknown' });
      // New rows get ids past the copied ones.
      expect((await store.follows.upsert(newFollow(chat('4'), 'TokenZ'))).follow.id).toBeGreaterThan(follow!.id);
    } finally {
      await store.close();
    }
  });

  it('refuses a database that is not empty, and leaves it as it was', async () => {
    const source = await sqliteWithData();
    const target = await postgresDatabase();
    const other = await target.open();
    await other.follows.upsert(newFollow(chat('9'), 'Elsewhere'));
    await other.close();
    const run = await storeCopy(['--from', source.path, '--to', target.url]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^Cannot copy into postgres:\/\/.*: it is not empty \(1 rows of TokenWatch's tables\); copy into an empty database\n$/);
    const store = await target.open();
    expect(await store.follows.totals()).toEqual({ follows: 1, chats: 1 });
    await store.close();
  });

  it('refuses the file of a bot that runs, and wrong arguments, in one line each', async () => {
    const source = await sqliteWithData();
    const target = await postgresDatabase();
    const running = openSqliteStore(source.path);
    cleanups.unshift(() => running.close());
    const locked = await storeCopy(['--from', source.path, '--to', target.url]);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toMatch(/^Cannot open the database .*: it is locked by another process \(is TokenWatch already running on it\?\)\n$/);
    const usage = await storeCopy(['--from', source.path]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^Usage: npm run store:copy -- --from SQLITE_FILE --to postgres:\/\//);
    const notPostgres = await storeCopy(['--from', source.path, '--to', 'mysql://u:hunter22@db/tw']);
    expect(notPostgres.code).toBe(2);
    expect(notPostgres.stderr).not.toContain('hunter22');
    const store = await target.open();
    expect(await store.follows.totals()).toEqual({ follows: 0, chats: 0 });
    await store.close();
  });
});
