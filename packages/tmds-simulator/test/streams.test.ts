/**
 * The four WebSocket streams over real sockets with a plain `ws` client: acknowledgement,
 * snapshot, then the change a scenario control makes, matching what REST shows afterwards; the
 * refusals (4001, 4000, 4004, 404 on upgrade); unsubscribe; drop; heartbeats; the moving market.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { setImmediate as tick } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Market } from '../src/market';
import type { RunningSimulator } from '../src/server';
import {
  CLOSE_BAD_REQUEST,
  STREAM_CLOSE_UNAUTHORIZED,
  STREAM_CLOSE_UNKNOWN_TOKEN,
  SNAPSHOT_HOLDERS,
  SNAPSHOT_TRADES,
  StreamHub,
} from '../src/streams';
import type { WireCandle, WireHolder, WireToken, WireTrade } from '../src/wireTypes';
import { KEY, UNKNOWN_ADDRESS, get, start } from './helpers';
import { Probe, isType, until, type Frame } from './wsProbe';

let sim: RunningSimulator;
let tokens: string[];
let wallets: string[];

beforeAll(async () => {
  sim = await start();
  tokens = sim.market.tokenAddresses();
  wallets = sim.market.wallets();
});

afterAll(async () => {
  await sim.close();
});

/** A mint authority no simulated token has: marks the push of a test's own later mutation. */
const SENTINEL = 'SentinelMint11111111111111111111111111111111';

function token(n: number): string {
  const address = tokens[n];
  if (!address) throw new Error(`no token ${n}`);
  return address;
}

/** Views carry the time they were built; two reads a second apart differ only there. */
function withoutSync(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, field: unknown) => (key === 'syncedAt' ? undefined : field)));
}

async function subscribe(path: string, message: Frame): Promise<Probe> {
  const probe = await Probe.open(sim.wsUrl, path);
  probe.send(message);
  await probe.next(isType('subscribed'), 'the acknowledgement');
  return probe;
}

async function restToken(address: string): Promise<WireToken> {
  const answer = await get<{ data: Record<string, WireToken> }>(sim, `/api/token-data?address=${address}`);
  const found = answer.body.data[address];
  if (!found) throw new Error('token missing from token-data');
  return found;
}

describe('token-feed', () => {
  it('acknowledges, sends the Token, then the Token again after a risk change', async () => {
    const T = token(0);
    const probe = await subscribe('/ws/token-feed', { tokenAddress: T, apiKey: KEY });
    try {
      expect(probe.messages[0]).toEqual({ type: 'subscribed', stream: 'token-feed', tokenAddress: T });
      const snapshot = await probe.next(isType('token'), 'the snapshot');
      expect(snapshot).toMatchObject({ type: 'token', tokenAddress: T, snapshot: true });
      expect(withoutSync(snapshot.data)).toEqual(withoutSync(await restToken(T)));

      const before = probe.messages.length;
      sim.controls.risk({
        tokenAddress: T,
        riskStatus: 'DANGER',
        riskAnalysis: { mintAuthority: 'MintAuthority1111111111111111111111111111111' },
      });
      const change = await probe.next(isType('token'), 'the change', before);
      expect(change.snapshot).toBeUndefined();
      const pushed = change.data as WireToken;
      expect(pushed.riskStatus).toBe('DANGER');
      expect(pushed.riskAnalysis.mintAuthority).toBe('MintAuthority1111111111111111111111111111111');
      expect(withoutSync(pushed)).toEqual(withoutSync(await restToken(T)));
      expect(probe.garbage).toEqual([]);
    } finally {
      probe.close();
    }
  });

  it('follows price, reserves and holdersCount through a trade by a new wallet', async () => {
    const T = token(1);
    const probe = await subscribe('/ws/token-feed', { action: 'subscribe', tokenAddress: T, apiKey: KEY });
    try {
      const snapshot = (await probe.next(isType('token'), 'the snapshot')).data as WireToken;
      const before = probe.messages.length;
      const newcomer = 'NewWa11etNewWa11etNewWa11etNewWa11etNewWa11e';
      sim.controls.trade({ wallet: newcomer, tokenAddress: T, side: 'buy', amountUSD: 5_000 });
      const pushed = (await probe.next(isType('token'), 'the change', before)).data as WireToken;
      expect(Number(pushed.holdersCount)).toBe(Number(snapshot.holdersCount) + 1);
      const price = (t: WireToken) => Math.max(...Object.values(t.liquidityPools).map((pool) => Number(pool.suspectedBaseTokenPrice)));
      expect(price(pushed)).toBeGreaterThan(price(snapshot));
      expect(withoutSync(pushed)).toEqual(withoutSync(await restToken(T)));
      // One mutation, one push: the trade's token, holder and candle changes are coalesced. A later
      // mutation's push follows any second push of the trade on this socket, so the next Token is that one.
      sim.controls.risk({ tokenAddress: T, riskStatus: 'DANGER', riskAnalysis: { mintAuthority: SENTINEL } });
      await probe.next(
        isType('token', (f) => (f.data as WireToken).riskAnalysis.mintAuthority === SENTINEL),
        'the next mutation’s push',
        before,
      );
      const tokensPushed = probe.find(isType('token'), before);
      expect(tokensPushed).toHaveLength(2);
      expect((tokensPushed[1]?.data as WireToken).riskAnalysis.mintAuthority).toBe(SENTINEL);
    } finally {
      probe.close();
    }
  });
});

describe('chart-live', () => {
  it('sends the current candle at the interval, then the updated candle after a price move', async () => {
    const T = token(2);
    const probe = await subscribe('/ws/chart-live', { tokenAddress: T, intervalSecs: 300, apiKey: KEY });
    const feed = await subscribe('/ws/token-feed', { tokenAddress: T, apiKey: KEY });
    try {
      expect(probe.messages[0]).toEqual({ type: 'subscribed', stream: 'chart-live', tokenAddress: T, intervalSecs: 300 });
      const snapshot = await probe.next(isType('candle'), 'the snapshot');
      expect(snapshot).toMatchObject({ tokenAddress: T, snapshot: true });
      expect(snapshot.data).toEqual(sim.market.currentCandle(T, 300));
      const feedBefore = feed.messages.length;

      const before = probe.messages.length;
      const { trade, token: summary } = sim.controls.price({ tokenAddress: T, changePct: 25 });
      const pushed = (await probe.next(isType('candle'), 'the updated candle', before)).data as WireCandle;
      expect(pushed.close).toBeCloseTo(Number(trade.suspectedBaseTokenPrice), 9);
      expect(pushed.timestamp % 300_000).toBe(0);
      const rest = await get<{ candles: WireCandle[] }>(sim, `/api/chart-history?base=${T}&intervalSecs=300&countBack=1`);
      expect(rest.body.candles).toEqual([pushed]);

      const token = (await feed.next(isType('token'), 'the token change', feedBefore)).data as WireToken;
      const pool = Object.values(token.liquidityPools).find((p) => p.suspectedBaseTokenPrice === summary.priceSol);
      expect(pool).toBeDefined();
    } finally {
      probe.close();
      feed.close();
    }
  });

  it('defaults to 60-second candles', async () => {
    const T = token(3);
    const probe = await subscribe('/ws/chart-live', { tokenAddress: T, apiKey: KEY });
    try {
      expect(probe.messages[0]).toMatchObject({ intervalSecs: 60 });
      expect((await probe.next(isType('candle'), 'the snapshot')).data).toEqual(sim.market.currentCandle(T, 60));
    } finally {
      probe.close();
    }
  });
});

describe('holders-live', () => {
  it('sends the top holders largest first, then each changed holder record', async () => {
    const T = token(4);
    const probe = await subscribe('/ws/holders-live', { tokenAddress: T, apiKey: KEY });
    try {
      const snapshot = await probe.count(
        isType('holder', (f) => f.snapshot === true),
        SNAPSHOT_HOLDERS,
        'snapshot holders',
      );
      const rest = await get<WireHolder[]>(sim, `/api/holders-history?address=${T}`);
      const top = rest.body.filter((holder) => holder.currentlyHoldingAmount !== '0').slice(0, SNAPSHOT_HOLDERS);
      expect(snapshot.map((frame) => frame.wallet)).toEqual(top.map((holder) => holder.address));
      expect(snapshot.map((frame) => withoutSync(frame.data))).toEqual(top.map(withoutSync));

      const W = wallets[5] ?? '';
      const before = probe.messages.length;
      const { holder } = sim.controls.holder({ tokenAddress: T, wallet: W, supplyPct: 3 });
      const pushed = await probe.next(
        isType('holder', (f) => f.wallet === W),
        'the holder change',
        before,
      );
      expect(pushed).toMatchObject({ tokenAddress: T, wallet: W });
      expect(pushed.snapshot).toBeUndefined();
      expect(withoutSync(pushed.data)).toEqual(withoutSync(holder));
      const after = await get<WireHolder[]>(sim, `/api/holders-history?address=${T}`);
      expect(withoutSync(after.body.find((h) => h.address === W))).toEqual(withoutSync(pushed.data));
    } finally {
      probe.close();
    }
  });
});

describe('trades-live', () => {
  it('sends the latest trades oldest first, then each new trade of the token', async () => {
    const T = token(5);
    const probe = await subscribe('/ws/trades-live', { tokenAddress: T, apiKey: KEY });
    try {
      const snapshot = await probe.count(
        isType('trade', (f) => f.snapshot === true),
        SNAPSHOT_TRADES,
        'snapshot trades',
      );
      const latest = sim.market.tokenTrades(T, undefined, SNAPSHOT_TRADES)?.tradeHistory ?? [];
      expect(snapshot.map((frame) => frame.data)).toEqual([...latest].reverse());
      expect(snapshot.every((frame) => frame.wallet === (frame.data as WireTrade).makerData.address)).toBe(true);

      const W = wallets[0] ?? '';
      const before = probe.messages.length;
      const { trade } = sim.controls.trade({ wallet: W, tokenAddress: T, side: 'buy', amountUSD: 250 });
      const pushed = await probe.next(isType('trade'), 'the new trade', before);
      expect(pushed).toEqual({ type: 'trade', tokenAddress: T, wallet: W, data: trade });
      const rest = await get<{ tradeHistory: WireTrade[] }>(sim, `/api/trades-history?baseToken=${T}&wallets=${W}`);
      expect(rest.body.tradeHistory[0]).toEqual(trade);
    } finally {
      probe.close();
    }
  });

  it('follows wallets across tokens (list or comma-separated), with the wallet set', async () => {
    const [W1 = '', W2 = ''] = [wallets[1], wallets[2]];
    const probe = await subscribe('/ws/trades-live', { wallets: `${W1}, ${W2}`, apiKey: KEY });
    try {
      expect(probe.messages[0]).toEqual({ type: 'subscribed', stream: 'trades-live', wallets: [W1, W2] });
      const snapshot = await probe.count(
        isType('trade', (f) => f.snapshot === true),
        SNAPSHOT_TRADES,
        'snapshot trades',
      );
      const times = snapshot.map((frame) => (frame.data as WireTrade).timestamp);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(snapshot.every((frame) => [W1, W2].includes(String(frame.wallet)))).toBe(true);

      const before = probe.messages.length;
      const first = sim.controls.trade({ wallet: W1, tokenAddress: token(6), side: 'buy', amountUSD: 100 }).trade;
      sim.controls.trade({ wallet: wallets[3] ?? '', tokenAddress: token(6), side: 'buy', amountUSD: 100 });
      const second = sim.controls.trade({ wallet: W2, tokenAddress: token(7), side: 'buy', amountUSD: 100 }).trade;
      const pushed = await probe.count(
        isType('trade', (f) => f.snapshot !== true),
        2,
        'two wallet trades',
      );
      expect(pushed).toEqual([
        { type: 'trade', tokenAddress: token(6), wallet: W1, data: first },
        { type: 'trade', tokenAddress: token(7), wallet: W2, data: second },
      ]);
      expect(probe.messages.length - before).toBe(2);
    } finally {
      probe.close();
    }
  });

  it('a socket following both a token and a wallet gets each trade once', async () => {
    const T = token(8);
    const W = wallets[4] ?? '';
    const probe = await subscribe('/ws/trades-live', { tokenAddress: T, apiKey: KEY });
    probe.send({ wallets: [W], apiKey: KEY });
    await probe.count(isType('subscribed'), 2, 'both acknowledgements');
    try {
      const { trade } = sim.controls.trade({ wallet: W, tokenAddress: T, side: 'buy', amountUSD: 100 });
      await probe.next(
        isType('trade', (f) => (f.data as WireTrade).transactionHash === trade.transactionHash),
        'the trade',
      );
      // Another wallet's trade in the token, pushed after: once it is here, a second copy of the first would be too.
      const later = sim.controls.trade({ wallet: wallets[6] ?? '', tokenAddress: T, side: 'buy', amountUSD: 100 }).trade;
      await probe.next(
        isType('trade', (f) => (f.data as WireTrade).transactionHash === later.transactionHash),
        'the later trade',
      );
      expect(probe.find(isType('trade', (f) => (f.data as WireTrade).transactionHash === trade.transactionHash))).toHaveLength(1);
    } finally {
      probe.close();
    }
  });
});

describe('wallet snapshots', () => {
  /** The definition: the wallets' latest trades over every token, as each token's history gives them, oldest first. */
  function expectedSnapshot(market: Market, followed: string[]): WireTrade[] {
    return market
      .tokenAddresses()
      .flatMap((address) => market.tokenTrades(address, followed, SNAPSHOT_TRADES)?.tradeHistory ?? [])
      .sort(
        (a, b) =>
          b.timestamp - a.timestamp ||
          (a.makerData.tokenAddress < b.makerData.tokenAddress ? -1 : a.makerData.tokenAddress > b.makerData.tokenAddress ? 1 : 0) ||
          b.transactionIndex - a.transactionIndex ||
          (a.transactionHash < b.transactionHash ? -1 : 1),
      )
      .slice(0, SNAPSHOT_TRADES)
      .reverse();
  }

  async function walletSnapshot(followed: string[]): Promise<WireTrade[]> {
    const probe = await subscribe('/ws/trades-live', { wallets: followed, apiKey: KEY });
    try {
      const expected = Math.min(SNAPSHOT_TRADES, sim.market.walletTrades(followed).tradeHistory.length);
      const frames = await probe.count(
        isType('trade', (f) => f.snapshot === true),
        expected,
        'snapshot trades',
      );
      return frames.map((frame) => frame.data as WireTrade);
    } finally {
      probe.close();
    }
  }

  it('read the market once per wallet, then follow only the trades of that wallet, and stay exact', async () => {
    const [W1 = '', W2 = '', other = ''] = [wallets[20], wallets[21], wallets[22]];
    expect(await walletSnapshot([W1, W2])).toEqual(expectedSnapshot(sim.market, [W1, W2]));

    const reads = vi.spyOn(sim.market, 'latestWalletTrades');
    try {
      // Another wallet's trade changes neither snapshot: nothing is read again.
      sim.controls.trade({ wallet: other, tokenAddress: token(14), side: 'buy', amountUSD: 100 });
      expect(await walletSnapshot([W1, W2])).toHaveLength(SNAPSHOT_TRADES);
      // The wallet's own trade is added to what the server keeps, still without reading the market.
      const { trade } = sim.controls.trade({ wallet: W1, tokenAddress: token(15), side: 'buy', amountUSD: 100 });
      const again = await walletSnapshot([W1, W2]);
      expect(again.at(-1)).toEqual(trade);
      expect(await walletSnapshot([W2])).toHaveLength(SNAPSHOT_TRADES);
      expect(reads).not.toHaveBeenCalled();
      reads.mockRestore();
      expect(again).toEqual(expectedSnapshot(sim.market, [W1, W2]));
    } finally {
      reads.mockRestore();
    }
  });

  it('a wallet that never traded gets an empty snapshot, then its first trade', async () => {
    const fresh = 'FreshWa11etFreshWa11etFreshWa11etFreshWa11e';
    const probe = await subscribe('/ws/trades-live', { wallets: [fresh], apiKey: KEY });
    const { trade } = sim.controls.trade({ wallet: fresh, tokenAddress: token(16), side: 'buy', amountUSD: 50 });
    try {
      expect((await probe.next(isType('trade'), 'the first trade')).data).toEqual(trade);
      expect(probe.find(isType('trade', (f) => f.snapshot === true))).toEqual([]);
    } finally {
      probe.close();
    }
    expect(await walletSnapshot([fresh])).toEqual([trade]);
  });
});

describe('the snapshot cache', () => {
  it('stays within snapshotCacheBytes however many targets are subscribed', async () => {
    const market = new Market({ seed: 42 });
    const LIMIT = 32 * 1024;
    const hub = new StreamHub(market, KEY, { snapshotCacheBytes: LIMIT });
    const server = createServer();
    server.on('upgrade', (req, socket, head) => hub.handleUpgrade(req, socket, head));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const wsUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // Every token's top holders: about 15 KB of frames each, over 600 KB in all.
      for (const address of market.tokenAddresses()) {
        const probe = await Probe.open(wsUrl, '/ws/holders-live');
        probe.send({ tokenAddress: address, apiKey: KEY });
        await probe.count(
          isType('holder', (f) => f.snapshot === true),
          1,
          'a snapshot holder',
        );
        probe.close();
        expect(hub.cachedSnapshotBytes()).toBeLessThanOrEqual(LIMIT);
      }
      expect(hub.cachedSnapshotBytes()).toBeGreaterThan(LIMIT / 2);
    } finally {
      hub.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('several subscriptions on one socket', () => {
  it('adds each, ignores a repeat, and unsubscribe ends one', async () => {
    const [A, B] = [token(9), token(10)];
    const probe = await subscribe('/ws/token-feed', { tokenAddress: A, apiKey: KEY });
    try {
      probe.send({ tokenAddress: B, apiKey: KEY });
      probe.send({ tokenAddress: B, apiKey: KEY });
      await probe.count(isType('subscribed'), 3, 'three acknowledgements');
      expect(sim.streams.subscriptionCount('token-feed')).toBe(2);

      probe.send({ action: 'unsubscribe', tokenAddress: A });
      expect(await probe.next(isType('unsubscribed'), 'the unsubscribe acknowledgement')).toEqual({
        type: 'unsubscribed',
        stream: 'token-feed',
        tokenAddress: A,
      });
      expect(sim.streams.subscriptionCount('token-feed')).toBe(1);

      const before = probe.messages.length;
      sim.controls.risk({ tokenAddress: A, riskStatus: 'WARNING' });
      sim.controls.risk({ tokenAddress: B, riskStatus: 'WARNING' });
      await probe.next(
        isType('token', (f) => f.tokenAddress === B),
        'the change of B',
        before,
      );
      // A mutation of B after A's: its push follows anything A's could have sent on this socket.
      sim.controls.risk({ tokenAddress: B, riskStatus: 'DANGER' });
      await probe.next(
        isType('token', (f) => f.tokenAddress === B && (f.data as WireToken).riskStatus === 'DANGER'),
        'the second change of B',
        before,
      );
      expect(
        probe.find(
          isType('token', (f) => f.tokenAddress === A),
          before,
        ),
      ).toEqual([]);
    } finally {
      probe.close();
    }
    await until(() => sim.streams.subscriptionCount() === 0, 'the subscriptions to end with the socket');
  });

  it('a strict simulator (one a socket) serves the first and answers a second with an error and close 4000', async () => {
    const strict = await start({ streams: { maxSubscriptionsPerSocket: 1 } });
    try {
      const [A, B] = [token(11), token(12)];
      const probe = await Probe.open(strict.wsUrl, '/ws/token-feed');
      probe.send({ tokenAddress: A, apiKey: KEY });
      await probe.next(
        isType('token', (f) => f.tokenAddress === A),
        'the first snapshot',
      );
      // A repeat of the same subscription is no second one.
      probe.send({ tokenAddress: A, apiKey: KEY });
      await probe.count(isType('subscribed'), 2, 'the repeat acknowledged');
      probe.send({ tokenAddress: B, apiKey: KEY });
      expect(await probe.closed).toEqual({ code: CLOSE_BAD_REQUEST, reason: 'Bad Request: At most 1 subscription per socket' });
      expect(probe.find(isType('error'))).toEqual([{ type: 'error', error: 'Bad Request', message: 'At most 1 subscription per socket' }]);
      expect(probe.find(isType('subscribed', (f) => f.tokenAddress === B))).toEqual([]);
      await until(() => strict.streams.subscriptionCount() === 0, 'the socket to end its subscription');
    } finally {
      await strict.close();
    }
  });

  it('unsubscribing wallets stops following just those wallets', async () => {
    const [W1 = '', W2 = ''] = [wallets[10], wallets[11]];
    const probe = await subscribe('/ws/trades-live', { wallets: [W1, W2], apiKey: KEY });
    try {
      probe.send({ action: 'unsubscribe', wallets: [W1] });
      await probe.next(isType('unsubscribed'), 'the acknowledgement');
      expect(sim.streams.subscriptionCount('trades-live')).toBe(1);
      const before = probe.messages.length;
      sim.controls.trade({ wallet: W1, tokenAddress: token(11), side: 'buy', amountUSD: 100 });
      const kept = sim.controls.trade({ wallet: W2, tokenAddress: token(11), side: 'buy', amountUSD: 100 }).trade;
      const pushed = await probe.next(isType('trade'), 'the trade of the wallet still followed', before);
      expect(pushed.data).toEqual(kept);
      // The server acknowledges the next message after every frame it pushed before reading it.
      probe.send({ action: 'unsubscribe', wallets: W2 });
      await probe.count(isType('unsubscribed'), 2, 'the second acknowledgement');
      expect(probe.find(isType('trade'), before)).toHaveLength(1);
      expect(sim.streams.subscriptionCount('trades-live')).toBe(0);
      expect(probe.isOpen).toBe(true);
    } finally {
      probe.close();
    }
  });
});

describe('refusals', () => {
  it('a wrong or missing key closes with 4001 and never echoes the key', async () => {
    for (const message of [
      { tokenAddress: token(0), apiKey: 'wrong-key-123' },
      { tokenAddress: token(0) },
      { wallets: [wallets[0]], apiKey: 42 },
      { tokenAddress: 'not an address', apiKey: 'wrong-key-123' },
    ]) {
      const probe = await Probe.open(sim.wsUrl, '/ws/trades-live');
      probe.send(message);
      const closed = await probe.closed;
      expect(closed, JSON.stringify(message)).toEqual({ code: STREAM_CLOSE_UNAUTHORIZED, reason: 'Unauthorized: invalid API key' });
      expect(probe.find(isType('token'))).toEqual([]);
      expect(JSON.stringify(probe.messages)).not.toContain('wrong-key-123');
    }
  });

  it('a malformed subscription gets an error message and close 4000, and the server serves others', async () => {
    const healthy = await subscribe('/ws/token-feed', { tokenAddress: token(12), apiKey: KEY });
    const cases: Array<{ path: string; frame: string | Buffer; binary?: boolean; message: RegExp }> = [
      { path: '/ws/token-feed', frame: 'not json', message: /not JSON/ },
      { path: '/ws/token-feed', frame: '[1,2]', message: /JSON object/ },
      { path: '/ws/token-feed', frame: '"text"', message: /JSON object/ },
      { path: '/ws/token-feed', frame: JSON.stringify({ apiKey: KEY }), message: /tokenAddress is required/ },
      { path: '/ws/token-feed', frame: JSON.stringify({ tokenAddress: 42, apiKey: KEY }), message: /tokenAddress must be a string/ },
      { path: '/ws/token-feed', frame: JSON.stringify({ tokenAddress: 'abc', apiKey: KEY }), message: /not a valid address/ },
      {
        path: '/ws/token-feed',
        frame: JSON.stringify({ tokenAddress: token(0), intervalSecs: 60, apiKey: KEY }),
        message: /chart-live only/,
      },
      { path: '/ws/chart-live', frame: JSON.stringify({ tokenAddress: token(0), intervalSecs: 0, apiKey: KEY }), message: /intervalSecs/ },
      {
        path: '/ws/chart-live',
        frame: JSON.stringify({ tokenAddress: token(0), intervalSecs: 1.5, apiKey: KEY }),
        message: /intervalSecs/,
      },
      {
        path: '/ws/chart-live',
        frame: JSON.stringify({ tokenAddress: token(0), intervalSecs: 'soon', apiKey: KEY }),
        message: /intervalSecs/,
      },
      { path: '/ws/holders-live', frame: JSON.stringify({ wallets: [wallets[0]], apiKey: KEY }), message: /Only trades-live/ },
      { path: '/ws/trades-live', frame: JSON.stringify({ wallets: [], apiKey: KEY }), message: /at least one/ },
      { path: '/ws/trades-live', frame: JSON.stringify({ wallets: ['x'], apiKey: KEY }), message: /not a valid address/ },
      { path: '/ws/trades-live', frame: JSON.stringify({ wallets: {}, apiKey: KEY }), message: /wallets must be/ },
      {
        path: '/ws/trades-live',
        frame: JSON.stringify({ tokenAddress: token(0), wallets: [wallets[0]], apiKey: KEY }),
        message: /not both/,
      },
      { path: '/ws/trades-live', frame: JSON.stringify({ action: 'follow', tokenAddress: token(0), apiKey: KEY }), message: /action/ },
      { path: '/ws/trades-live', frame: JSON.stringify({ action: 'unsubscribe' }), message: /required to unsubscribe/ },
      {
        path: '/ws/token-feed',
        frame: Buffer.from(JSON.stringify({ tokenAddress: token(0), apiKey: KEY })),
        binary: true,
        message: /Binary/,
      },
    ];
    try {
      for (const { path, frame, binary, message } of cases) {
        const probe = await Probe.open(sim.wsUrl, path);
        probe.ws.send(frame, { binary: binary ?? false });
        const closed = await probe.closed;
        expect(closed.code, `${path} ${String(frame)}`).toBe(CLOSE_BAD_REQUEST);
        expect(probe.messages, `${path} ${String(frame)}`).toEqual([
          { type: 'error', error: 'Bad Request', message: expect.stringMatching(message) },
        ]);
      }
      const before = healthy.messages.length;
      sim.controls.risk({ tokenAddress: token(12), riskStatus: 'WARNING' });
      await healthy.next(isType('token'), 'a change on the healthy socket', before);
      expect(healthy.isOpen).toBe(true);
    } finally {
      healthy.close();
    }
  });

  it('whatever a client sends, it gets an acknowledgement or a documented refusal, and the server goes on', async () => {
    // Mostly plausible values, so that every outcome is reached, with arbitrary JSON mixed in.
    const field = (...plausible: unknown[]) =>
      fc.oneof({ arbitrary: fc.constantFrom(...plausible), weight: 4 }, { arbitrary: fc.jsonValue(), weight: 1 });
    const action = field('subscribe', 'unsubscribe');
    const apiKey = field(KEY, 'nope');
    const byToken = fc.record(
      { action, tokenAddress: field(token(0), UNKNOWN_ADDRESS), intervalSecs: field(60, 300), apiKey },
      { requiredKeys: ['tokenAddress', 'apiKey'] },
    );
    const byWallets = fc.record(
      { action, wallets: field([wallets[0]], `${wallets[0]},${wallets[1]}`), apiKey },
      { requiredKeys: ['wallets', 'apiKey'] },
    );
    const anything = fc.record(
      { action, tokenAddress: fc.jsonValue(), wallets: fc.jsonValue(), intervalSecs: fc.jsonValue(), apiKey },
      { requiredKeys: [] },
    );
    const message = fc.oneof(
      { arbitrary: byToken, weight: 4 },
      { arbitrary: byWallets, weight: 2 },
      { arbitrary: anything, weight: 1 },
      { arbitrary: fc.jsonValue(), weight: 1 },
    );
    const streams = fc.constantFrom('token-feed', 'chart-live', 'holders-live', 'trades-live');
    const samples = fc.sample(fc.tuple(streams, message), { numRuns: 120, seed: 7 });
    const outcomes = await Promise.all(
      samples.map(async ([stream, sample]) => {
        const probe = await Probe.open(sim.wsUrl, `/ws/${stream}`);
        probe.send(JSON.stringify(sample) ?? 'null');
        const outcome = await Promise.race([
          probe.closed.then((closed) => `close ${closed.code}`),
          probe.next((f) => f.type === 'subscribed' || f.type === 'unsubscribed', 'an acknowledgement').then((f) => String(f.type)),
        ]);
        probe.close();
        return outcome;
      }),
    );
    for (const outcome of outcomes) expect(['subscribed', 'unsubscribed', 'close 4000', 'close 4001', 'close 4004']).toContain(outcome);
    expect(new Set(outcomes)).toEqual(new Set(['subscribed', 'unsubscribed', 'close 4000', 'close 4001', 'close 4004']));
    const healthy = await subscribe('/ws/token-feed', { tokenAddress: token(0), apiKey: KEY });
    healthy.close();
  });

  it('an unknown token gets an error message and close 4004', async () => {
    const probe = await Probe.open(sim.wsUrl, '/ws/holders-live');
    probe.send({ tokenAddress: UNKNOWN_ADDRESS, apiKey: KEY });
    expect(await probe.closed).toMatchObject({ code: STREAM_CLOSE_UNKNOWN_TOKEN });
    expect(probe.messages).toEqual([{ type: 'error', error: 'Not Found', message: 'Token not found' }]);
  });

  it('an unknown path is refused with 404 at the upgrade', async () => {
    await expect(Probe.open(sim.wsUrl, '/ws/nothing')).rejects.toThrow(/404/);
    await expect(Probe.open(sim.wsUrl, '/api/token-data')).rejects.toThrow(/404/);
  });

  it('an oversize frame closes that socket (1009) and nothing else', async () => {
    const probe = await Probe.open(sim.wsUrl, '/ws/token-feed');
    probe.send(JSON.stringify({ tokenAddress: token(0), apiKey: KEY, padding: 'x'.repeat(100_000) }));
    expect((await probe.closed).code).toBe(1009);
    const other = await subscribe('/ws/token-feed', { tokenAddress: token(0), apiKey: KEY });
    other.close();
  });
});

describe('connections', () => {
  it('drop cuts every socket without a close frame and ends every subscription', async () => {
    const probes = await Promise.all(
      ['/ws/token-feed', '/ws/chart-live', '/ws/holders-live', '/ws/trades-live'].map((path, n) =>
        subscribe(path, { tokenAddress: token(13 + n), apiKey: KEY }),
      ),
    );
    expect(sim.streams.subscriptionCount()).toBe(4);
    expect(sim.streams.socketCount()).toBe(4);
    sim.streams.drop();
    expect(sim.streams.subscriptionCount()).toBe(0);
    const closes = await Promise.all(probes.map((probe) => probe.closed));
    // 1006: the connection ended without a close frame.
    expect(closes.map((closed) => closed.code)).toEqual([1006, 1006, 1006, 1006]);
    await until(() => sim.streams.socketCount() === 0, 'every socket to be gone');
  });

  it('terminates a socket that stops answering pings', async () => {
    // The lively socket's pong must be read before the next beat: a beat far longer than a pause of
    // a loaded machine, or the server would cut the lively socket too.
    const quick = await start({ streams: { heartbeatMs: 1_000 } });
    try {
      const silent = await Probe.open(quick.wsUrl, '/ws/token-feed', { autoPong: false });
      const lively = await Probe.open(quick.wsUrl, '/ws/token-feed');
      let pings = 0;
      lively.ws.on('ping', () => {
        pings += 1;
      });
      silent.send({ tokenAddress: quick.market.tokenAddresses()[0], apiKey: KEY });
      await silent.next(isType('subscribed'), 'the acknowledgement');
      expect((await silent.closed).code).toBe(1006);
      // Three more pings: the server found the lively socket's answers to the two before in time.
      const seen = pings;
      await until(() => pings >= seen + 3 || !lively.isOpen, 'three more heartbeats on the lively socket', 15_000);
      expect(lively.isOpen).toBe(true);
      expect(quick.streams.socketCount()).toBe(1);
      expect(quick.streams.subscriptionCount()).toBe(0);
      lively.close();
    } finally {
      await quick.close();
    }
  }, 30_000);

  it('cuts a reader that stops reading instead of buffering for it without limit', async () => {
    const small = await start({ streams: { maxBufferedBytes: 64 * 1024 } });
    const { hostname, port } = new URL(small.baseUrl);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined);
    try {
      const T = small.market.tokenAddresses()[0] ?? '';
      // A hand-made client, so that it can stop reading: the handshake, then one text frame masked
      // with a zero key (which leaves the payload as it is).
      socket.write(
        `GET /ws/trades-live HTTP/1.1\r\nHost: ${hostname}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
      await new Promise<void>((resolve) => socket.once('data', () => resolve()));
      const payload = Buffer.from(JSON.stringify({ tokenAddress: T, apiKey: KEY }));
      socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff, 0, 0, 0, 0]), payload]));
      await until(() => small.streams.subscriptionCount() === 1, 'the subscription');
      socket.pause();
      const wallet = small.market.wallets()[0] ?? '';
      for (let batch = 0; batch < 100 && small.streams.socketCount() > 0; batch++) {
        for (let n = 0; n < 200; n++) small.market.executeTrade({ wallet, tokenAddress: T, side: 'buy', amountUSD: 1 });
        await tick();
      }
      expect(small.streams.socketCount()).toBe(0);
      expect(small.streams.subscriptionCount()).toBe(0);
    } finally {
      socket.destroy();
      await small.close();
    }
  });

  it('pushes the market moving by itself, and closing the simulator closes the sockets', async () => {
    const moving = await start({ tradesPerSecond: 200 });
    try {
      const probe = await Probe.open(moving.wsUrl, '/ws/trades-live');
      // The driver trades with the shared wallets, so following them all sees every simulated trade.
      probe.send({ wallets: moving.market.wallets(), apiKey: KEY });
      const address = moving.market.tokenAddresses()[0] ?? '';
      const others = await Promise.all(
        (['token-feed', 'chart-live', 'holders-live'] as const).map(async (stream) => {
          const other = await Probe.open(moving.wsUrl, `/ws/${stream}`);
          other.send({ tokenAddress: address, apiKey: KEY });
          return other;
        }),
      );
      await probe.count(
        isType('trade', (f) => f.snapshot !== true),
        5,
        'live trades from the driver',
      );
      for (const other of others) {
        await other.next((f) => f.type !== 'subscribed' && f.snapshot !== true, 'a live change of the token', 0, 10_000);
        other.close();
      }
      const live = probe.find(isType('trade', (f) => f.snapshot !== true)).map((f) => f.data as WireTrade);
      const hashes = live.map((trade) => trade.transactionHash);
      expect(new Set(hashes).size).toBe(hashes.length);
      await moving.close();
      expect((await probe.closed).code).toBe(1006);
    } finally {
      await moving.close();
    }
  });
});
