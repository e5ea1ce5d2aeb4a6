/**
 * The watcher end to end over real sockets: the built-in simulator's streams and REST, the real
 * stream and market clients, and the real SQLite store on a temporary file. Scenario controls make
 * the market change; the outbox shows who is told.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatRef } from '../../src/model/chat';
import { reconcileOnce } from '../../src/jobs/reconcile';
import { MarketClient } from '../../src/market/client';
import { StreamClient } from '../../src/market/stream';
import { startSimulator, type RunningSimulator } from 'tmds-simulator';
import { SNAPSHOT_HOLDERS } from 'tmds-simulator';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import type { FollowOptions, OutboxEntry } from '../../src/model/follow';
import { createWatcher, type Watcher } from '../../src/watch/watcher';
import { waitFor } from '../market/stream/support/wait';
import { chat, tempDir } from '../store/helpers';
import { startGate, type Gate } from './support/gate';

const KEY = 'watch-test-key-5e2c';
const FAST = { heartbeatMs: 1_000, reconnectBaseMs: 50, reconnectMaxMs: 200 } as const;
const ALL: FollowOptions = { events: [], minUsd: 0, thresholdPct: 10, side: 'both' };
const FAR = new Date(Date.UTC(2100, 0, 1));

let sim: RunningSimulator;
let tokens: string[];
let wallets: string[];
let gate: Gate;
let dir: ReturnType<typeof tempDir>;
let store: SqliteStore;
let streams: StreamClient;
let market: MarketClient;
let watcher: Watcher;

const A = chat('100');
const B = chat('200');
const C = chat('300');

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, seed: 42, port: 0, control: true });
  tokens = sim.market.tokenAddresses();
  wallets = sim.market.wallets();
  gate = await startGate(Number(new URL(sim.wsUrl).port));
});

afterAll(async () => {
  await gate.close();
  await sim.close();
});

beforeEach(() => {
  dir = tempDir();
  store = openSqliteStore(dir.path);
  streams = new StreamClient({ wsUrl: gate.wsUrl, apiKey: KEY, ...FAST });
  market = new MarketClient({ baseUrl: sim.baseUrl, apiKey: KEY, cacheTtlMs: { 'wallet-tracker': 0, 'token-data': 0 } });
  watcher = createWatcher({ store, streams, describeToken: (address) => market.token(address) });
});

afterEach(async () => {
  gate.release();
  await watcher.close();
  await streams.close();
  await market.close();
  await store.close();
  dir.cleanup();
});

async function follow(
  to: ChatRef,
  address: string,
  kind: 'token' | 'wallet' = 'token',
  options: Partial<FollowOptions> = {},
  label: string | null = null,
): Promise<void> {
  await store.follows.upsert({ chat: to, kind, address, label, options: { ...ALL, ...options }, addedBy: 'tester', now: new Date() });
}

async function outbox(): Promise<OutboxEntry[]> {
  return store.outbox.due('telegram', FAR, 1_000);
}

async function alertsFor(to: ChatRef, kind?: string): Promise<OutboxEntry[]> {
  return (await outbox()).filter((entry) => entry.chat.chatId === to.chatId && (kind === undefined || entry.event.kind === kind));
}

/**
 * Waits until the outbox holds an alert of this kind for this chat: looked at now, and again after
 * every commit that writes rows (the watcher tells of each), with a deadline that only bounds it.
 */
function waitForAlerts(to: ChatRef, kind: string, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const look = () =>
      void alertsFor(to, kind).then((found) => {
        if (found.length === 0) return;
        clearTimeout(timer);
        off();
        resolve();
      }, reject);
    // Listening first: a commit between the first look and the listener is still seen.
    const off = watcher.onAlerts(look);
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for ${what}`));
    }, 8_000);
    look();
  });
}

/** Waits until the watcher has a baseline for every token (the stream snapshots arrived). */
async function baseline(addresses: string[]): Promise<void> {
  for (const address of addresses) {
    let seen = false;
    await waitFor(() => {
      void store.state.token(address).then((snapshot) => {
        seen = snapshot !== null;
      });
      return seen;
    }, `the baseline of ${address}`);
  }
}

function otherStatus(address: string): 'SAFE' | 'WARNING' | 'DANGER' {
  const current = sim.market.token(address)?.riskStatus;
  return current === 'DANGER' ? 'SAFE' : 'DANGER';
}

describe('the watcher over the simulator', () => {
  it('a forced risk change reaches each following chat once and no other; one subscription per target per stream', async () => {
    const [T, T2] = [tokens[0] ?? '', tokens[1] ?? ''];
    await follow(A, T);
    await follow(B, T);
    await follow(C, T2, 'token', { events: ['price'] });
    await watcher.start();
    await baseline([T, T2]);
    // Read once settled (holders-live is a socket of its own, which may still be subscribing when
    // token-feed's snapshots set the baselines). Whale alerts are wanted for T (every kind), not
    // for T2 (price only).
    await waitFor(
      () => sim.streams.subscriptionCount('token-feed') === 2 && sim.streams.subscriptionCount('holders-live') === 1,
      'two token-feed subscriptions and one holders-live',
    );
    expect(watcher.status().subscriptions).toMatchObject({ 'token-feed': 2, 'holders-live': 1 });
    expect(await outbox()).toEqual([]);

    const from = sim.market.token(T)?.riskStatus;
    const to = otherStatus(T);
    sim.controls.risk({ tokenAddress: T, riskStatus: to });
    await waitFor(() => watcher.status().rows >= 2, 'the alert rows');
    // A reconciliation reading the same change adds nothing.
    await reconcileOnce({ watcher, market });
    await watcher.idle();

    const rows = (await outbox()).filter((entry) => entry.event.kind === 'risk-status');
    expect(rows.map((entry) => entry.chat.chatId).sort()).toEqual(['100', '200']);
    for (const row of rows) expect(row.event).toMatchObject({ kind: 'risk-status', from, to, token: { address: T } });
    expect(await alertsFor(C)).toEqual([]);
  });

  it('follows added and removed take effect without a restart', async () => {
    const [T, T3] = [tokens[2] ?? '', tokens[3] ?? ''];
    await follow(A, T);
    await watcher.start();
    await baseline([T]);
    expect(sim.streams.subscriptionCount('token-feed')).toBe(1);

    await follow(B, T3);
    await watcher.resync(T3);
    await waitFor(() => sim.streams.subscriptionCount('token-feed') === 2, 'the new subscription');
    await baseline([T3]);
    sim.controls.risk({ tokenAddress: T3, riskStatus: otherStatus(T3) });
    await waitFor(() => watcher.status().rows >= 1, 'the alert for the new follow');
    expect((await alertsFor(B, 'risk-status')).length).toBe(1);

    // A follow's options changed: a one-address resync reads them again (only risk flags now: no holders-live).
    const holdersBefore = sim.streams.subscriptionCount('holders-live');
    await follow(B, T3, 'token', { events: ['risk-flag'] });
    await watcher.resync(T3);
    await waitFor(() => sim.streams.subscriptionCount('holders-live') === holdersBefore - 1, 'the holders subscription closed');

    await store.follows.remove(B, T3);
    await watcher.resync(T3);
    await waitFor(() => sim.streams.subscriptionCount('token-feed') === 1, 'the subscription closed');
    expect(watcher.targets().tokens).toEqual([T]);
  });

  it('a drop during a risk change ends in exactly one alert, through reconciliation', async () => {
    const T = tokens[4] ?? '';
    await follow(A, T, 'token', { events: ['risk-status'] });
    await watcher.start();
    await baseline([T]);
    let reconnects = 0;
    watcher.onReconnect(() => {
      reconnects += 1;
    });

    // The streams go down (and stay down) while the status changes.
    gate.hold();
    sim.controls.drop();
    const to = otherStatus(T);
    sim.controls.risk({ tokenAddress: T, riskStatus: to });
    // Nothing can reach the watcher once its sockets are cut: wait until the client has seen them
    // go and the watcher has handled what it had, then check.
    await waitFor(() => streams.status().sockets.every((socket) => socket.state !== 'open'), 'the streams to see the cut');
    await watcher.idle();
    expect(await alertsFor(A)).toEqual([]);

    const result = await reconcileOnce({ watcher, market });
    expect(result).toMatchObject({ tokens: 1, requests: 1, failures: 0, rows: 1 });
    expect((await alertsFor(A)).map((entry) => entry.event)).toMatchObject([{ kind: 'risk-status', to }]);

    // The stream comes back with the same state as its snapshot, and another reconciliation runs: still one.
    const processed = watcher.status().processed;
    gate.release();
    await waitFor(() => watcher.status().processed > processed, 'the snapshot after reconnecting', 10_000);
    await waitFor(() => reconnects > 0, 'the reconnection to be reported', 5_000);
    await reconcileOnce({ watcher, market });
    await watcher.idle();
    expect(await alertsFor(A)).toHaveLength(1);
  });

  it('a wallet trade above the minimum alerts, one below it does not; the label travels with it', async () => {
    const W = wallets[0] ?? '';
    const T = tokens[5] ?? '';
    await follow(A, W, 'wallet', { minUsd: 100 }, 'whale one');
    await watcher.start();
    await waitFor(() => sim.streams.subscriptionCount('trades-live') === 1, 'the wallet subscription');
    // The wallet's baseline is set by its snapshot or, with no trades yet, by a reconciliation.
    await reconcileOnce({ watcher, market });
    sim.controls.trade({ wallet: W, tokenAddress: T, side: 'buy', amountUSD: 50 });
    sim.controls.trade({ wallet: W, tokenAddress: T, side: 'buy', amountUSD: 500 });
    await waitFor(() => watcher.status().rows >= 1, 'the trade alert');
    await reconcileOnce({ watcher, market });
    await watcher.idle();
    const rows = await alertsFor(A, 'wallet-trade');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.label).toBe('whale one');
    expect(rows[0]?.event).toMatchObject({ kind: 'wallet-trade', wallet: W, side: 'buy', token: { address: T } });
    if (rows[0]?.event.kind !== 'wallet-trade') throw new Error('expected a trade');
    expect(rows[0].event.amountUsd).toBeGreaterThanOrEqual(100);
  });

  it('liquidity pulled, a price move and a whale each alert once', async () => {
    const T = tokens[6] ?? '';
    // A wallet holding none of T yet, so 5% is a whale coming in.
    const holding = new Set(
      (sim.market.holders(T) ?? []).filter((holder) => holder.currentlyHoldingAmount !== '0').map((holder) => holder.address),
    );
    const W = wallets.find((wallet) => !holding.has(wallet)) ?? '';
    await follow(A, T, 'token', { thresholdPct: 20 });
    await watcher.start();
    await baseline([T]);
    await waitFor(() => sim.streams.subscriptionCount('holders-live') === 1, 'the holders subscription');
    // The whale baseline is set by holders-live's snapshot: the token's own snapshot, then one
    // input per holder it sends (the simulator moves nothing by itself here).
    const snapshotHolders = Math.min(SNAPSHOT_HOLDERS, holding.size);
    await waitFor(() => watcher.status().processed >= 1 + snapshotHolders, 'the holders snapshot');
    await watcher.idle();

    // Each step waits for its own alert, not for a count of rows: the holder control also moves the
    // token's owner balance and top-10 share (a flag alert, over token-feed), and holders-live is
    // another socket, so the whale's record may come after that alert.
    sim.controls.price({ tokenAddress: T, changePct: 50 });
    await waitForAlerts(A, 'price', 'the price alert');
    sim.controls.holder({ tokenAddress: T, wallet: W, supplyPct: 5 });
    await waitForAlerts(A, 'whale', 'the whale alert');
    sim.controls.liquidity({ tokenAddress: T, pull: true });
    await waitForAlerts(A, 'liquidity', 'the liquidity alert');
    await reconcileOnce({ watcher, market });
    await watcher.idle();

    const kinds = (await alertsFor(A)).map((entry) => entry.event.kind);
    expect(kinds.filter((kind) => kind === 'price')).toHaveLength(1);
    expect(kinds.filter((kind) => kind === 'whale')).toHaveLength(1);
    expect(kinds.filter((kind) => kind === 'liquidity')).toHaveLength(1);
    const whale = (await alertsFor(A, 'whale'))[0]?.event;
    expect(whale).toMatchObject({ kind: 'whale', wallet: W, direction: 'in' });
  });

  it('a restart neither repeats an alert nor misses a change made while it was down', async () => {
    const T = tokens[7] ?? '';
    await follow(A, T, 'token', { events: ['risk-status'] });
    await watcher.start();
    await baseline([T]);
    await watcher.close();

    const to = otherStatus(T);
    sim.controls.risk({ tokenAddress: T, riskStatus: to });
    watcher = createWatcher({ store, streams });
    await watcher.start();
    await waitFor(() => watcher.status().rows >= 1, 'the alert for the change made while down');
    await reconcileOnce({ watcher, market });
    await watcher.idle();
    expect((await alertsFor(A)).map((entry) => entry.event)).toMatchObject([{ kind: 'risk-status', to }]);
  });
});
