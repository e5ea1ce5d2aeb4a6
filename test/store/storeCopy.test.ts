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
import { DEFAULT_OPTIONS, chat, newFollow, priceEvent, tempDir, tokenSnapshot, walletSnapshot } from './helpers';
import type { DailyDigestEvent } from '../../src/alerts/kinds/dailyDigest';
import type { TargetEvent } from '../../src/alerts/kinds/target';
import { targetEventKey } from '../../src/model/follow';
import { createDailyDigests, digestKey } from '../../src/jobs/dailyDigest';
import { MarketClient } from '../../src/market/client';
import { openStore } from '../../src/store/openStore';
import { silentLogger } from '../../src/log';
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
  const [command, commandArgs] = tsNode('src/cli/storeCopy.ts', ...args);
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
  await store.follows.upsert(
    newFollow(chat('1', 'telegram', '7'), 'WalletA', {
      kind: 'wallet',
      options: { events: ['wallet-trade'], minUsd: 500, thresholdPct: 0, side: 'buy' },
    }),
  );
  await store.follows.upsert(
    newFollow(chat('2', 'discord'), 'TokenA', {
      options: { events: ['price'], minUsd: 0, thresholdPct: 25, side: 'both', direction: 'up' },
    }),
  );
  await store.follows.setMutedUntil(chat('1'), 'TokenA', FAR);
  await store.chats.updateSettings(chat('1'), {
    detectAddresses: true,
    quiet: { from: '22:00', to: '07:00', zone: 'Europe/Paris', strict: true },
    budget: 30,
  });
  await store.chats.pause(chat('3'), 'Forbidden: bot was kicked', T0);
  await store.state.commitToken(
    tokenSnapshot('TokenA'),
    [{ event: priceEvent('TokenA', 'sent'), to: [{ chat: chat('1'), label: null }] }],
    T0,
  );
  await store.state.commitWallet(walletSnapshot('WalletA'), [], T0);
  const [delivered] = await store.outbox.due('telegram', T0, 10);
  // Held for quiet hours, then sent in their digest: /history says so after the copy too.
  await store.outbox.hold([delivered!.id], T0, 'quiet');
  await store.outbox.markDelivered([delivered!.id], T0);
  await store.state.commitToken(
    tokenSnapshot('TokenA', 2),
    [
      {
        event: priceEvent('TokenA', 'waiting'),
        to: [
          { chat: chat('1'), label: 'mine' },
          { chat: chat('2'), label: null },
        ],
      },
    ],
    T0,
  );
  const live = await issueOne(store.actionKeys, { command: 'token', args: ['TokenA'], refresh: true }, chat('1'), FAR);
  const expired = await issueOne(store.actionKeys, { command: 'token', args: ['TokenB'] }, chat('1'), new Date(Date.now() - 1000));
  await store.calls.setEnabled(chat('1'), true, T0);
  await store.calls.record({
    chat: chat('1'),
    address: 'TokenA',
    symbol: 'TOK',
    name: 'Token',
    userId: 'alice',
    userName: 'Alice',
    messageId: '42',
    calledAt: T0,
    priceSol: 0.001,
    priceUsd: null,
    solUsd: null,
    mcapSol: 1_000,
    mcapUsd: null,
  });
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
      `Copied ${source.path} to ${withPassword.replace(':not-needed-pw@', ':***@')}: 3 follows, 2 chat settings, 1 token states, 1 wallet states, 2 pending alerts and 1 sent (2 events), 1 action keys\n`,
    );

    const store = await openPostgresStore(target.url);
    try {
      const [follow] = (await store.follows.list(chat('1'), { offset: 0, limit: 10 })).follows;
      expect(follow).toMatchObject({ address: 'TokenA', label: 'first', mutedUntil: FAR, addedBy: 'user-1' });
      expect((await store.follows.get(chat('1', 'telegram', '7'), 'WalletA'))?.options).toEqual({
        events: ['wallet-trade'],
        minUsd: 500,
        thresholdPct: 0,
        side: 'buy',
      });
      expect(await store.follows.totals()).toEqual({ follows: 3, chats: 2 });
      // Columns later migrations added to both schemas come along too.
      expect((await store.follows.get(chat('2', 'discord'), 'TokenA'))?.options).toMatchObject({
        events: ['price'],
        thresholdPct: 25,
        direction: 'up',
      });
      expect(await store.chats.settings(chat('1'))).toMatchObject({
        detectAddresses: true,
        quiet: { from: '22:00', to: '07:00', zone: 'Europe/Paris', strict: true },
        budget: 30,
      });
      expect((await store.outbox.history(chat('1'), 5)).map((alert) => [alert.event.key, alert.held])).toEqual([['sent', 'quiet']]);
      expect(await store.chats.pausedReason(chat('3'))).toBe('Forbidden: bot was kicked');
      // Calls and their setting come along, and a new call after the copy takes the next id.
      expect(await store.calls.enabled(chat('1'))).toBe(true);
      expect(await store.calls.get(chat('1'), 'TokenA')).toMatchObject({
        id: 1,
        userName: 'Alice',
        messageId: '42',
        priceSol: 0.001,
        mcapUsd: null,
      });
      expect(
        (
          await store.calls.record({
            chat: chat('1'),
            address: 'TokenB',
            symbol: 'B',
            name: 'B',
            userId: 'bob',
            userName: 'Bob',
            messageId: null,
            calledAt: T0,
            priceSol: 1,
            priceUsd: null,
            solUsd: null,
            mcapSol: null,
            mcapUsd: null,
          })
        ).call.id,
      ).toBe(2);
      expect((await store.state.token('TokenA'))?.seenAt).toBe(2);
      expect(await store.state.wallet('WalletA')).toEqual(walletSnapshot('WalletA'));
      // The alert not yet delivered is due; the delivered one comes as the record of what was sent.
      const due = await store.outbox.due('telegram', T0, 10);
      expect(due.map((row) => [row.chat.chatId, row.event.key, row.label])).toEqual([
        ['1', 'waiting', 'mine'],
        ['2', 'waiting', null],
      ]);
      expect((await store.outbox.pending()).count).toBe(2);
      expect(await store.outbox.known(['sent', 'waiting'])).toEqual(new Set(['sent', 'waiting']));
      expect(await store.actionKeys.resolve(source.live, chat('1'), new Date())).toEqual({
        status: 'ok',
        action: { command: 'token', args: ['TokenA'], refresh: true },
      });
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
    expect(run.stderr).toMatch(
      /^Cannot copy into postgres:\/\/.*: it is not empty \(1 rows of TokenWatch's tables\); copy into an empty database\n$/,
    );
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
    expect(locked.stderr).toMatch(
      /^Cannot open the database .*: it is locked by another process \(is TokenWatch already running on it\?\)\n$/,
    );
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
  it("carries what was already sent, so the first start on PostgreSQL repeats nothing: the day's watchlist, a target told, the market", async () => {
    const { path, cleanup } = tempDir();
    cleanups.push(cleanup);
    const now = new Date('2023-11-14T10:00:00Z');
    const group = chat('5');
    const sqlite = await openStore(
      { databasePath: path, databaseUrl: null, market: null, simulatorSeed: 42, storeMarketReset: false },
      { logger: silentLogger },
    );
    // The day's watchlist, set yesterday for 09:00 UTC, was sent at 09:00.
    await sqlite.chats.updateSettings(group, {
      digest: { time: '09:00', zone: 'UTC', threadId: null, scopeId: null, since: Date.parse('2023-11-13T00:00:00Z') },
    });
    const sentWatchlist: DailyDigestEvent = {
      kind: 'daily-digest',
      key: digestKey(group, '2023-11-14'),
      at: now.getTime(),
      token: { address: '', symbol: '', name: '' },
      day: '2023-11-14',
      time: '09:00',
      zone: 'UTC',
      tokens: [],
      tokensUnread: 0,
      wallets: [],
      walletsUnread: 0,
    };
    await sqlite.outbox.add([{ event: sentWatchlist, to: [{ chat: group, label: null }] }], now);
    // A target crossed and told; the bot stopped before it removed the target.
    const { follow } = await sqlite.follows.upsert(
      newFollow(group, 'TokenT', { options: { ...DEFAULT_OPTIONS, target: { metric: 'price', side: 'above', value: 0.0012 } } }),
    );
    const told: TargetEvent = {
      kind: 'target',
      key: targetEventKey('TokenT', follow.id),
      at: now.getTime(),
      token: { address: 'TokenT', symbol: 'TT', name: 'Token T' },
      followId: follow.id,
      target: { metric: 'price', side: 'above', value: 0.0012 },
      from: 0.001,
      to: 0.0013,
    };
    await sqlite.state.commitToken(tokenSnapshot('TokenT'), [{ event: told, to: [{ chat: group, label: null }] }], now);
    await sqlite.outbox.markDelivered(
      (await sqlite.outbox.due('telegram', now, 10)).map((row) => row.id),
      now,
    );
    await sqlite.close();

    const target = await postgresDatabase();
    const run = await storeCopy(['--from', path, '--to', target.url]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('0 pending alerts and 2 sent (2 events)');

    // The first start on PostgreSQL, on the same market: the store opens, the watchlist is not written again, the target goes as told.
    const store = await openStore(
      { databasePath: '', databaseUrl: target.url, market: null, simulatorSeed: 42, storeMarketReset: false },
      { logger: silentLogger },
    );
    try {
      const market = new MarketClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused', maxRetries: 0 });
      cleanups.push(() => market.close());
      const digests = createDailyDigests({ store, market, now: () => now });
      expect(await digests.runDue()).toBe(0);
      await digests.stop();
      expect(await store.follows.removeReachedTargets()).toEqual(['TokenT']);
      expect((await store.outbox.pending()).count).toBe(0);
    } finally {
      await store.close();
    }
    // And the market came along: another one is refused on PostgreSQL as it was on the file.
    await expect(
      openStore(
        { databasePath: '', databaseUrl: target.url, market: null, simulatorSeed: 7, storeMarketReset: false },
        { logger: silentLogger },
      ),
    ).rejects.toThrow(/belongs to the market simulator seed 42, not simulator seed 7/);
  });
});
