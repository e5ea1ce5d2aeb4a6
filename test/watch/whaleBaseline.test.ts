/**
 * The whale baseline across a stop: holders-live's first list of a token is a baseline, and it
 * counts as read (holdersSeenAt) only once it is whole. A stop in the middle of that list leaves a
 * part of it in the store; the next start must read the list again as a baseline, not tell every
 * holder the part lacked as a new whale. A list read whole, on the other hand, is compared after a
 * restart, so a whale that came while the bot was down is still told.
 *
 * Driven through a fake of the stream client's subscribe, with the real SQLite store and a clock
 * the test moves.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EventHandler, StreamEvent, StreamTarget } from '../../src/market/stream';
import { HolderSchema } from '../../src/market/schemas';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { FIRST_HOLDERS_LIST_MS } from '../../src/watch/holderBaselines';
import { createWatcher, type Watcher } from '../../src/watch/watcher';
import { address } from '../market/stream/support/samples';
import { chat, newFollow, tempDir } from '../store/helpers';
import { makeToken, T1 } from './support/fixtures';

const FAR = new Date(Date.UTC(2100, 0, 1));
/** makeToken's supply: 10^15 smallest units, so 5% is 5 * 10^13. */
const FIVE_PCT = '50000000000000';
const HOLDERS = Array.from({ length: 6 }, (_, index) => address('W', 100 + index));

let store: SqliteStore | null = null;
let watcher: Watcher | null = null;
let cleanup: () => void = () => undefined;

afterEach(async () => {
  await watcher?.close();
  await store?.close();
  watcher = null;
  store = null;
  cleanup();
});

/** A watcher over the store at `path`, with the handlers its subscriptions gave and a clock at `clock.now`. */
async function startWatcher(path: string, clock: { now: number }) {
  store = openSqliteStore(path);
  const handlers = new Map<string, EventHandler>();
  const streams = {
    subscribe: (stream: string, target: StreamTarget, onEvent: EventHandler) => {
      handlers.set(`${stream}|${'tokenAddress' in target ? target.tokenAddress : target.wallets.join(',')}`, onEvent);
      return () => undefined;
    },
  };
  watcher = createWatcher({ store, streams, now: () => clock.now });
  await watcher.start();
  const push = (key: string, event: StreamEvent) => {
    const handler = handlers.get(key);
    if (!handler) throw new Error(`no subscription ${key}`);
    void handler(event);
  };
  const running = watcher;
  return {
    token: (snapshot: boolean) =>
      push(`token-feed|${T1}`, { stream: 'token-feed', kind: 'token', tokenAddress: T1, snapshot, token: makeToken() }),
    /** `served`: the socket opening that carried the record, as the stream client numbers them. */
    holder: (wallet: string, amount: string, snapshot: boolean, served = 1) =>
      push(`holders-live|${T1}`, {
        stream: 'holders-live',
        kind: 'holder',
        tokenAddress: T1,
        snapshot,
        served,
        holder: HolderSchema.parse({ tokenAddress: T1, address: wallet, currentlyHoldingAmount: amount }),
      }),
    idle: () => running.idle(),
    stop: async () => {
      await running.close();
      await store?.close();
      watcher = null;
      store = null;
    },
  };
}

/** A fresh store where chat 1 follows T1 (every alert kind, so holders-live is opened), and a first watcher over it. */
async function followedT1() {
  const dir = tempDir();
  cleanup = dir.cleanup;
  const clock = { now: 1_800_000_000_000 };
  const first = await startWatcher(dir.path, clock);
  await store?.follows.upsert(newFollow(chat('1'), T1));
  await watcher?.resync();
  return { path: dir.path, clock, first };
}

/** Stops `running` once its inputs are committed, lets `downMs` pass, and starts again on the same store, where the token's snapshot frame comes first. */
async function restart(running: Awaited<ReturnType<typeof startWatcher>>, path: string, clock: { now: number }, downMs: number) {
  await running.idle();
  await running.stop();
  clock.now += downMs;
  const next = await startWatcher(path, clock);
  next.token(true);
  return next;
}

async function whaleAlerts(): Promise<string[]> {
  if (!store) throw new Error('no store open');
  const rows = await store.outbox.due('telegram', FAR, 1_000);
  return rows.flatMap((row) => (row.event.kind === 'whale' ? [`${row.event.wallet} ${row.event.direction}`] : []));
}

describe('the whale baseline across a stop', () => {
  it('reads a first list cut short by a stop again as a baseline: no whale is told for the holders it lacked', async () => {
    const { path, clock, first } = await followedT1();
    first.token(true);
    // The first two records of the list are read and committed; then the bot stops.
    first.holder(HOLDERS[0] ?? '', FIVE_PCT, true);
    first.holder(HOLDERS[1] ?? '', FIVE_PCT, true);
    const second = await restart(first, path, clock, 60_000);
    for (const wallet of HOLDERS.slice(0, 5)) second.holder(wallet, FIVE_PCT, true);
    await second.idle();
    expect(await whaleAlerts()).toEqual([]);

    // The list is whole once a live record comes; that record is compared like any other.
    second.holder(HOLDERS[5] ?? '', FIVE_PCT, false);
    await second.idle();
    expect(await whaleAlerts()).toEqual([`${HOLDERS[5]} in`]);
  });

  it('compares the list sent after a restart with a first list read whole, and tells the whale that came meanwhile', async () => {
    const { path, clock, first } = await followedT1();
    first.token(true);
    for (const wallet of HOLDERS.slice(0, 4)) first.holder(wallet, FIVE_PCT, true);
    await first.idle();
    // No live record comes, but the token's next push, after the list had time to arrive whole,
    // marks it read.
    clock.now += FIRST_HOLDERS_LIST_MS;
    first.token(false);
    const second = await restart(first, path, clock, 60_000);
    // While the bot was down the fourth holder sold out and a fifth wallet bought 5%.
    for (const wallet of HOLDERS.slice(0, 3)) second.holder(wallet, FIVE_PCT, true);
    second.holder(HOLDERS[3] ?? '', '0', true);
    second.holder(HOLDERS[4] ?? '', FIVE_PCT, true);
    await second.idle();
    expect((await whaleAlerts()).sort()).toEqual([`${HOLDERS[3]} out`, `${HOLDERS[4]} in`].sort());
  });

  it('keeps a first list that is still arriving a baseline, whatever the token pushes meanwhile', async () => {
    const { path, clock, first } = await followedT1();
    first.token(true);
    first.holder(HOLDERS[0] ?? '', FIVE_PCT, true);
    await first.idle();
    // A push of the token within the list's time does not end the list.
    clock.now += 10;
    first.token(false);
    first.holder(HOLDERS[1] ?? '', FIVE_PCT, true);
    const second = await restart(first, path, clock, 0);
    for (const wallet of HOLDERS.slice(0, 3)) second.holder(wallet, FIVE_PCT, true);
    await second.idle();
    expect(await whaleAlerts()).toEqual([]);
  });
});

describe('holder records that come before the token', () => {
  it('reads the list as a baseline and tells a whale that came while it was read, once', async () => {
    const { clock, first } = await followedT1();
    // holders-live answered before token-feed (two sockets): its list, then a live buy of 5%.
    for (const wallet of HOLDERS.slice(0, 3)) first.holder(wallet, FIVE_PCT, true);
    first.holder(HOLDERS[4] ?? '', FIVE_PCT, false);
    await first.idle();
    expect(await whaleAlerts()).toEqual([]);
    clock.now += 10;
    first.token(true);
    await first.idle();
    expect(await whaleAlerts()).toEqual([`${HOLDERS[4]} in`]);
    // Told once: the token's next push tells nothing more.
    first.token(false);
    await first.idle();
    expect(await whaleAlerts()).toEqual([`${HOLDERS[4]} in`]);
  });
});

describe('a list sent again when holders-live comes back', () => {
  it('is compared with the first list, read whole, and tells the whale that came while the socket was down', async () => {
    const { clock, first } = await followedT1();
    first.token(true);
    for (const wallet of HOLDERS.slice(0, 3)) first.holder(wallet, FIVE_PCT, true);
    clock.now += FIRST_HOLDERS_LIST_MS;
    first.token(false);
    await first.idle();
    // No live record came; the socket drops, and the next opening sends the list again, with a new whale.
    for (const wallet of HOLDERS.slice(0, 3)) first.holder(wallet, FIVE_PCT, true, 2);
    first.holder(HOLDERS[4] ?? '', FIVE_PCT, true, 2);
    await first.idle();
    expect(await whaleAlerts()).toEqual([`${HOLDERS[4]} in`]);
  });
});
