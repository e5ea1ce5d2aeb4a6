/**
 * The live streams under load, over real sockets against the built-in simulator: how long a
 * thousand subscriptions take to open and receive their snapshot, how fast a control's change
 * reaches every subscriber, how long recovery after `drop` takes, and the memory they hold; how
 * long a wallet subscription's snapshot takes, first and once the wallet is followed; and what a
 * push into a full delivery queue costs while its consumer is stalled.
 */
import { performance } from 'node:perf_hooks';
import { STREAMS } from '../src/market/endpoints';
import { StreamClient } from '../src/market/stream';
import { DeliveryQueue } from '../src/market/stream/queue';
import { silentLogger } from '../src/log';
import { startSimulator } from 'tmds-simulator';

const API_KEY = 'bench-key';
const SUBSCRIPTIONS = 1_000;

export interface BenchRow {
  what: string;
  figure: string;
}

async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Collects garbage (with --expose-gc) after pending closes settle, and reads the heap. */
async function settledHeap(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 200));
  global.gc?.();
  global.gc?.();
  return process.memoryUsage().heapUsed;
}

async function benchOne(perSocket: number): Promise<BenchRow[]> {
  // A still market: only the bench's own controls make changes, so every count below is exact.
  const sim = await startSimulator({ apiKey: API_KEY, port: 0, seed: 42, tradesPerSecond: 0 });
  const tokens = sim.market.tokenAddresses();
  // Histories are generated on first use: make them now, so the heap figure is the subscriptions'.
  sim.market.listing();
  const client = new StreamClient({
    wsUrl: sim.wsUrl,
    apiKey: API_KEY,
    logger: silentLogger,
    subscriptionsPerSocket: perSocket,
    reconnectBaseMs: 50,
    reconnectMaxMs: 500,
  });
  const label = perSocket === 1 ? 'one per socket' : `${perSocket} per socket`;
  try {
    const heapBefore = await settledHeap();
    let snapshots = 0;
    let changes = 0;
    const started = performance.now();
    for (let n = 0; n < SUBSCRIPTIONS; n++) {
      const stream = STREAMS[n % STREAMS.length] ?? 'token-feed';
      const tokenAddress = tokens[Math.floor(n / STREAMS.length) % tokens.length] ?? '';
      // holders-live and trades-live send several snapshot messages: each subscription counts once.
      let seenSnapshot = false;
      let seenChange = false;
      client.subscribe(stream, { tokenAddress }, (event) => {
        if (event.snapshot && !seenSnapshot) {
          seenSnapshot = true;
          snapshots += 1;
        } else if (!event.snapshot && !seenChange) {
          seenChange = true;
          changes += 1;
        }
      });
    }
    await until(() => snapshots === SUBSCRIPTIONS, 'every snapshot');
    const openMs = performance.now() - started;
    const heapAfter = await settledHeap();
    const sockets = client.status().sockets.length;

    // One price move per token reaches every subscription of that token on all four streams.
    const moved = performance.now();
    for (const tokenAddress of tokens) sim.controls.price({ tokenAddress, changePct: 1 });
    await until(() => changes === SUBSCRIPTIONS, 'a change on every subscription');
    const fanOutMs = performance.now() - moved;

    const dropped = performance.now();
    const before = client.status().counters.reconnects;
    sim.controls.drop();
    await until(
      () => client.status().counters.reconnects >= before + sockets && sim.streams.subscriptionCount() === SUBSCRIPTIONS,
      'every subscription back on the server',
    );
    const recoverMs = performance.now() - dropped;

    return [
      {
        what: `streams, ${label}: ${SUBSCRIPTIONS} subscriptions open with snapshot`,
        figure: `${openMs.toFixed(0)} ms over ${sockets} sockets`,
      },
      {
        what: `streams, ${label}: heap per subscription (client and simulator)`,
        figure: `${((heapAfter - heapBefore) / SUBSCRIPTIONS / 1024).toFixed(1)} KB`,
      },
      { what: `streams, ${label}: ${tokens.length} price moves to ${SUBSCRIPTIONS} subscribers`, figure: `${fanOutMs.toFixed(0)} ms` },
      { what: `streams, ${label}: back after drop`, figure: `${recoverMs.toFixed(0)} ms` },
    ];
  } finally {
    await client.close();
    await sim.close();
  }
}

/** Subscribes every shared wallet on its own, twice: the first reads each wallet's history, the second only what the server keeps. */
async function benchWalletSnapshots(): Promise<BenchRow[]> {
  const sim = await startSimulator({ apiKey: API_KEY, port: 0, seed: 42, tradesPerSecond: 0 });
  sim.market.listing();
  const wallets = sim.market.wallets();
  const client = new StreamClient({ wsUrl: sim.wsUrl, apiKey: API_KEY, logger: silentLogger });
  const round = async (): Promise<number> => {
    let snapshots = 0;
    const started = performance.now();
    const stops = wallets.map((wallet) => {
      let seen = false;
      return client.subscribe('trades-live', { wallets: [wallet] }, (event) => {
        if (event.snapshot && !seen) {
          seen = true;
          snapshots += 1;
        }
      });
    });
    await until(() => snapshots === wallets.length, 'every wallet snapshot');
    const elapsed = performance.now() - started;
    for (const stop of stops) stop();
    return elapsed;
  };
  try {
    const firstMs = await round();
    // Trades by other wallets change none of these snapshots.
    const tokenAddress = sim.market.tokenAddresses()[0] ?? '';
    for (let n = 0; n < 100; n++)
      sim.market.executeTrade({
        wallet: `Bench${String(n).padStart(3, '0')}Wa11etBench000Wa11etBench000Wa1`,
        tokenAddress,
        side: 'buy',
        amountUSD: 10,
      });
    const againMs = await round();
    return [
      { what: `streams: ${wallets.length} wallet subscriptions, first snapshot of each wallet`, figure: `${firstMs.toFixed(0)} ms` },
      { what: `streams: the same again after 100 trades by other wallets`, figure: `${againMs.toFixed(0)} ms` },
    ];
  } finally {
    await client.close();
    await sim.close();
  }
}

/** Pushes into a full queue whose consumer never returns: each push drops the oldest item. */
function benchStalledQueue(): BenchRow[] {
  const PUSHES = 1_000_000;
  const LIMIT = 1_000;
  let dropped = 0;
  const queue = new DeliveryQueue<{ n: number }>(
    { events: LIMIT, bytes: Number.POSITIVE_INFINITY },
    {
      deliver: () => new Promise<void>(() => {}),
      delivered: () => {},
      dropped: () => {
        dropped += 1;
      },
      failed: () => {},
    },
  );
  const started = performance.now();
  for (let n = 0; n < PUSHES; n++) queue.push({ n });
  const elapsed = performance.now() - started;
  queue.stop();
  if (dropped !== PUSHES - LIMIT - 1) throw new Error(`expected ${PUSHES - LIMIT - 1} drops, counted ${dropped}`);
  return [
    {
      what: `stream delivery queue: push past a full queue of ${LIMIT}, consumer stalled`,
      figure: `${((elapsed * 1e6) / PUSHES).toFixed(0)} ns a push`,
    },
  ];
}

export async function benchStreams(): Promise<BenchRow[]> {
  return [...(await benchOne(1)), ...(await benchOne(50)), ...(await benchWalletSnapshots()), ...benchStalledQueue()];
}
