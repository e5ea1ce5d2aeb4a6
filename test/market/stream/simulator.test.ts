/**
 * The stream client end to end against the built-in simulator over real sockets: snapshots and
 * changes made by scenario controls on every stream, recovery after every socket is dropped, a
 * wrong key, a refused token, and a thousand concurrent subscriptions.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STREAMS, type StreamName } from '../../../src/market/endpoints';
import { StreamClient, type AuthFailureInfo, type StreamEvent, type SubscriptionRejection } from '../../../src/market/stream';
import { startSimulator, type RunningSimulator } from 'tmds-simulator';
import { SNAPSHOT_HOLDERS, SNAPSHOT_TRADES } from 'tmds-simulator';
import { collect, type Collected } from './support/collect';
import { memoryLogger } from './support/logs';
import { token as fixtureToken } from './support/samples';
import { waitFor } from './support/wait';
import { ManualClock } from '../support/manualClock';

const KEY = 'sim-stream-key-7c1e42';
const FAST = { heartbeatMs: 1_000, reconnectBaseMs: 50, reconnectMaxMs: 500 } as const;

let sim: RunningSimulator;
let tokens: string[];
let wallets: string[];
const clients: StreamClient[] = [];

function newClient(options: Partial<ConstructorParameters<typeof StreamClient>[0]> = {}): StreamClient {
  const client = new StreamClient({ wsUrl: sim.wsUrl, apiKey: KEY, ...FAST, ...options });
  clients.push(client);
  return client;
}

const changes = (collected: Collected): StreamEvent[] => collected.events.filter((event) => !event.snapshot);
const snapshots = (collected: Collected): StreamEvent[] => collected.events.filter((event) => event.snapshot);

/** How many snapshot messages the simulator sends for one subscription (docs/streams.md), from its market. */
function snapshotSize(stream: StreamName, T: string): number {
  switch (stream) {
    case 'token-feed':
      return 1;
    case 'chart-live':
      return sim.market.currentCandle(T, 60) ? 1 : 0;
    case 'holders-live':
      return Math.min(SNAPSHOT_HOLDERS, (sim.market.holders(T) ?? []).filter((holder) => holder.currentlyHoldingAmount !== '0').length);
    case 'trades-live':
      return sim.market.tokenTrades(T, undefined, SNAPSHOT_TRADES)?.tradeHistory.length ?? 0;
  }
}

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, seed: 42, port: 0, control: true });
  tokens = sim.market.tokenAddresses();
  wallets = sim.market.wallets();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await waitFor(() => sim.streams.socketCount() === 0, 'the simulator to see every socket closed');
});

afterAll(async () => {
  await sim.close();
});

describe('each stream: snapshot, then a change made by a control', () => {
  it('token-feed: the token, then its new risk status', async () => {
    const T = tokens[0] ?? '';
    const feed = collect(newClient(), 'token-feed', { tokenAddress: T });
    await waitFor(() => snapshots(feed).length === 1, 'the snapshot');
    expect(feed.events[0]).toMatchObject({ stream: 'token-feed', kind: 'token', tokenAddress: T, snapshot: true, token: { address: T } });
    sim.controls.risk({ tokenAddress: T, riskStatus: 'DANGER', riskAnalysis: { mintAuthority: wallets[0] ?? '' } });
    await waitFor(() => changes(feed).some((event) => event.kind === 'token' && event.token.riskStatus === 'DANGER'), 'the DANGER status');
    const change = changes(feed).at(-1);
    if (change?.kind !== 'token') throw new Error('expected a token');
    expect(change.token.riskAnalysis?.mintAuthority).toBe(wallets[0]);
  });

  it('chart-live: the current candle, then the candle after a price move', async () => {
    const T = tokens[1] ?? '';
    const chart = collect(newClient(), 'chart-live', { tokenAddress: T, intervalSecs: 60 });
    await waitFor(() => snapshots(chart).length === 1, 'the snapshot');
    const before = chart.events[0];
    if (before?.kind !== 'candle') throw new Error('expected a candle');
    sim.controls.price({ tokenAddress: T, changePct: 50 });
    await waitFor(() => changes(chart).length >= 1, 'the new candle');
    const after = changes(chart).at(-1);
    if (after?.kind !== 'candle') throw new Error('expected a candle');
    expect(after.tokenAddress).toBe(T);
    expect(after.candle.close).toBeGreaterThan(before.candle.close);
  });

  it('holders-live: the top holders, then a wallet taking a share of supply', async () => {
    const T = tokens[2] ?? '';
    const W = wallets[3] ?? '';
    const size = snapshotSize('holders-live', T);
    const holders = collect(newClient(), 'holders-live', { tokenAddress: T });
    await waitFor(() => snapshots(holders).length >= size, 'the snapshot');
    expect(holders.events.every((event) => event.kind === 'holder' && event.tokenAddress === T)).toBe(true);
    sim.controls.holder({ tokenAddress: T, wallet: W, supplyPct: 7 });
    await waitFor(() => changes(holders).some((event) => event.kind === 'holder' && event.holder.address === W), 'the holder change');
    // The change came after the whole snapshot on the same socket: no snapshot holder is still on its way.
    expect(snapshots(holders)).toHaveLength(size);
    expect(snapshots(holders).length).toBeLessThanOrEqual(20);
  });

  it('trades-live: the latest trades, then a trade made by a control, by token and by wallet', async () => {
    const T = tokens[3] ?? '';
    const other = tokens[4] ?? '';
    const W = wallets[5] ?? '';
    const client = newClient();
    const byToken = collect(client, 'trades-live', { tokenAddress: T });
    const byWallet = collect(client, 'trades-live', { wallets: [W] });
    await waitFor(() => snapshots(byToken).length >= 1, 'the snapshot');
    sim.controls.trade({ wallet: W, tokenAddress: T, side: 'buy', amountUSD: 250 });
    sim.controls.trade({ wallet: W, tokenAddress: other, side: 'buy', amountUSD: 120 });
    await waitFor(() => changes(byToken).length >= 1 && changes(byWallet).length >= 2, 'the trades');
    expect(changes(byToken)[0]).toMatchObject({ kind: 'trade', tokenAddress: T, wallet: W });
    expect(changes(byWallet).map((event) => event.tokenAddress)).toEqual([T, other]);
    const trade = changes(byToken)[0];
    if (trade?.kind !== 'trade') throw new Error('expected a trade');
    expect(trade.trade.amountUSD).toBeCloseTo(250, 0);
    expect(client.status().counters.unreadable).toBe(0);
  });
});

describe('after drop', () => {
  it.each([1, 8])('every subscription is back and receiving, none twice on the server (%i per socket)', async (perSocket) => {
    const client = newClient({ subscriptionsPerSocket: perSocket });
    const chosen = tokens.slice(10, 18);
    const all = chosen.flatMap((T) =>
      STREAMS.map((stream) => ({ stream, T, size: snapshotSize(stream, T), collected: collect(client, stream, { tokenAddress: T }) })),
    );
    // The server's own count, stream by stream: each chosen token once on each of the four.
    const onServer = () => STREAMS.map((stream) => sim.streams.subscriptionCount(stream));
    const expected = STREAMS.map(() => chosen.length);
    await waitFor(() => onServer().every((count, n) => count === expected[n]), 'every subscription on the server');
    await waitFor(() => all.every(({ size, collected }) => snapshots(collected).length === size), 'the snapshots');
    expect(all.every(({ size }) => size > 0)).toBe(true);
    // Sockets counted once both sides agree: every one of the client's open, and as many on the server.
    await waitFor(
      () =>
        client.status().sockets.every((socket) => socket.state === 'open') && sim.streams.socketCount() === client.status().sockets.length,
      'the same sockets on both sides',
    );
    const socketsBefore = sim.streams.socketCount();
    expect(socketsBefore).toBe(client.status().sockets.length);

    const droppedAt = Date.now();
    expect(sim.controls.drop().dropped).toBe(socketsBefore);
    expect(onServer()).toEqual([0, 0, 0, 0]);
    await waitFor(
      () => client.status().counters.reconnects >= socketsBefore && onServer().every((count, n) => count === expected[n]),
      'every subscription back',
      10_000,
    );
    await waitFor(() => all.every(({ size, collected }) => snapshots(collected).length >= 2 * size), 'the snapshots again');
    // Every socket's heartbeat answered since the drop: the server read that ping after everything
    // the client sent before it on the socket, and answered after the snapshots it sent for them.
    await waitFor(
      () => client.status().sockets.every((socket) => socket.state === 'open' && (socket.lastPongAt ?? 0) > droppedAt),
      'every socket open, its heartbeat answered',
      10_000,
    );
    // Exactly the expected subscriptions, none twice: a subscription placed twice would count twice
    // here, and one sent twice on its socket (which the server keeps once) would bring its snapshot a third time.
    expect(onServer()).toEqual(expected);
    expect(sim.streams.socketCount()).toBe(socketsBefore);
    for (const { stream, T, size, collected } of all) expect(snapshots(collected).length, `${stream} ${T}`).toBe(2 * size);

    for (const T of chosen) sim.controls.price({ tokenAddress: T, changePct: 5 });
    await waitFor(() => all.every(({ collected }) => changes(collected).length >= 1), 'a change on every subscription', 10_000);
  });
});

describe('refusals', () => {
  it('a wrong key: one report, a slow retry, the key never shown', async () => {
    const logs = memoryLogger();
    const wrong = 'wrong-sim-key-93be10';
    // The client's waits run on a manual clock: each retry is fired by the test, none by the time it took.
    // Draws of 0 and then just under 1: the retries' ±20% spread at both ends.
    const clock = new ManualClock(Date.now(), [0, 0, 0.999, 0.999]);
    const client = newClient({ apiKey: wrong, authRetryMs: 1_000, logger: logs.logger, clock });
    const reports: AuthFailureInfo[] = [];
    client.onAuthFailure((info) => reports.push(info));
    const feed = collect(client, 'token-feed', { tokenAddress: tokens[0] ?? '' });
    const trades = collect(client, 'trades-live', { wallets: [wallets[0] ?? ''] });
    // Two sockets, each the first attempt then a retry after each slow wait (0.8 to 1.2 s), never the fast backoff.
    for (const [round, wait] of [
      [1, 800],
      [2, 1_199],
      [3, 1_199],
    ] as const) {
      await waitFor(
        () =>
          client.status().counters.authFailures === 2 * round &&
          client.status().sockets.every((socket) => socket.state === 'auth-failed') &&
          clock.pending().length === 2,
        `both sockets refused, round ${round}`,
      );
      expect(clock.pending()).toEqual([wait, wait]);
      if (round < 3) clock.advance(wait);
    }
    const { counters, sockets } = client.status();
    expect(counters.authFailures).toBe(2 * 3);
    expect(reports).toHaveLength(1);
    expect(reports[0]?.reason).toMatch(/4001.*Unauthorized/);
    expect(feed.events).toEqual([]);
    expect(trades.events).toEqual([]);
    expect(sim.streams.subscriptionCount()).toBe(0);
    expect(JSON.stringify(sockets) + JSON.stringify(reports) + logs.text()).not.toContain(wrong);
    // One error line for the outage; the retries' refusals are debug lines.
    expect(logs.lines().filter((line) => Number(line.level) >= 40)).toHaveLength(1);
  });

  it('an unknown token is refused (4004) and reported once, while a known one on the same socket carries on', async () => {
    const logs = memoryLogger();
    const client = newClient({ subscriptionsPerSocket: 4, logger: logs.logger, rejectedRetryMs: 300 });
    const known = collect(client, 'token-feed', { tokenAddress: tokens[20] ?? '' });
    const unknownToken = fixtureToken(4242);
    const rejections: SubscriptionRejection[] = [];
    const unknownEvents: StreamEvent[] = [];
    client.subscribe('token-feed', { tokenAddress: unknownToken }, (event) => void unknownEvents.push(event), {
      onRejected: (rejection) => rejections.push(rejection),
    });
    await waitFor(() => rejections.length === 1, 'the report');
    expect(rejections[0]).toEqual({
      stream: 'token-feed',
      target: { tokenAddress: unknownToken },
      code: 4004,
      reason: 'Not Found: Token not found',
    });
    await waitFor(() => sim.streams.subscriptionCount() === 1, 'the known token subscribed');
    sim.controls.risk({ tokenAddress: tokens[20] ?? '', riskStatus: 'WARNING' });
    await waitFor(() => changes(known).length >= 1, 'a change on the known token');
    expect(unknownEvents).toEqual([]);
    // The refused one retries alone and slowly; neither the report nor the warning repeats at each retry.
    await waitFor(
      () => client.status().sockets.some((socket) => socket.state === 'rejected' && socket.reconnects >= 2),
      'two slow retries',
      10_000,
    );
    expect(rejections).toHaveLength(1);
    const warnings = logs.lines().filter((line) => Number(line.level) >= 40);
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings.length).toBeLessThanOrEqual(4);
  });

  it('unsubscribe stops delivery and ends the server subscription', async () => {
    const client = newClient({ subscriptionsPerSocket: 4 });
    const T = tokens[21] ?? '';
    const kept = collect(client, 'token-feed', { tokenAddress: tokens[22] ?? '' });
    const ended = collect(client, 'token-feed', { tokenAddress: T });
    await waitFor(() => sim.streams.subscriptionCount() === 2 && snapshots(ended).length === 1, 'both subscriptions');
    ended.unsubscribe();
    await waitFor(() => sim.streams.subscriptionCount() === 1, 'the server to end one');
    sim.controls.risk({ tokenAddress: T, riskStatus: 'DANGER' });
    sim.controls.risk({ tokenAddress: tokens[22] ?? '', riskStatus: 'DANGER' });
    await waitFor(() => changes(kept).length >= 1, 'the change on the kept one');
    // Both changes went out in one push, the ended token's first, on the one socket both shared:
    // had the ended one's come, it would be here already.
    expect(client.status().sockets).toHaveLength(1);
    expect(ended.events).toHaveLength(1);
    kept.unsubscribe();
    await waitFor(() => sim.streams.socketCount() === 0, 'the socket to close with its last subscription');
  });
});

// One socket per subscription is the costly case, so the test keeps it to 250 sockets; the
// streams benchmark (`npm run bench -- streams`) opens 1,000 that way and measures them.
describe('many concurrent subscriptions', () => {
  it.each([
    [1, 250],
    [50, 1_000],
  ])(
    'open and receive (%i per socket, %i subscriptions)',
    async (perSocket, COUNT) => {
      const client = newClient({ subscriptionsPerSocket: perSocket, heartbeatMs: 5_000 });
      const all: Array<{ stream: StreamName; T: string; collected: Collected }> = [];
      for (let n = 0; n < COUNT; n++) {
        const stream = STREAMS[n % STREAMS.length] ?? 'token-feed';
        const T = tokens[Math.floor(n / STREAMS.length) % tokens.length] ?? '';
        all.push({ stream, T, collected: collect(client, stream, { tokenAddress: T }) });
      }
      await waitFor(() => sim.streams.subscriptionCount() === COUNT, 'every subscription on the server', 30_000);
      await waitFor(() => all.every(({ collected }) => snapshots(collected).length >= 1), 'every snapshot', 30_000);
      await waitFor(
        () =>
          client.status().sockets.every((socket) => socket.state === 'open') &&
          sim.streams.socketCount() === client.status().sockets.length,
        'the same sockets on both sides',
      );
      const sockets = client.status().sockets;
      expect(sim.streams.socketCount()).toBe(sockets.length);
      expect(sockets.every((socket) => socket.subscriptions <= perSocket)).toBe(true);
      // Packing is bounded by the simulator's 44 tokens: a socket never carries one token twice.
      if (perSocket === 1) expect(sockets).toHaveLength(COUNT);
      else expect(sockets.length).toBeLessThanOrEqual(Math.ceil(COUNT / Math.min(perSocket, tokens.length)) + STREAMS.length);

      for (const T of tokens) sim.controls.price({ tokenAddress: T, changePct: 2 });
      await waitFor(() => all.every(({ collected }) => changes(collected).length >= 1), 'a change on every subscription', 30_000);
      expect(client.status().counters).toMatchObject({ unreadable: 0, dropped: 0 });
    },
    90_000,
  );
});
