/**
 * The reconciliation job against the simulator's REST service with the real market client: how
 * many requests one run makes, runs that never overlap, and what it hands the watcher.
 */
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileOnce, startReconcileJob, tradesByWallet } from '../../src/jobs/reconcile';
import { MarketClient } from '../../src/market/client';
import type { Token, Trade } from '../../src/market/schemas';
import { startSimulator, type RunningSimulator } from 'tmds-simulator';
import type { Watcher } from '../../src/watch/watcher';
import { makeTrade, W1, W2 } from '../watch/support/fixtures';

const KEY = 'reconcile-test-key-91ab';
let sim: RunningSimulator;
let market: MarketClient;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, seed: 42, port: 0 });
  market = new MarketClient({ baseUrl: sim.baseUrl, apiKey: KEY, cacheTtlMs: { 'token-data': 0, 'wallet-tracker': 0 } });
});

afterAll(async () => {
  await market.close();
  await sim.close();
});

/** Valid addresses the simulator does not know: left out of its answers, but each still asked for. */
function unknownTokens(count: number): string[] {
  return Array.from({ length: count }, (_, index) => {
    const bytes = new Uint8Array(32);
    bytes[0] = 9;
    new DataView(bytes.buffer).setUint32(28, index + 1);
    return bs58.encode(bytes);
  });
}

/** A watcher as the job sees it, recording what it is handed. */
function recordingWatcher(targets: { tokens: string[]; wallets: string[] }) {
  const tokens: Token[] = [];
  const trades = new Map<string, readonly Trade[]>();
  const listeners: Array<() => void> = [];
  const watcher: Pick<Watcher, 'targets' | 'applyTokens' | 'applyWalletTrades' | 'onReconnect' | 'mark'> = {
    targets: () => targets,
    mark: () => 0,
    applyTokens: async (found) => {
      tokens.push(...found);
      return 0;
    },
    applyWalletTrades: async (wallet, list) => {
      trades.set(wallet, list);
      return 0;
    },
    onReconnect: (listener) => {
      listeners.push(listener);
      return () => undefined;
    },
  };
  return { watcher, tokens, trades, reconnect: () => listeners.forEach((listener) => listener()) };
}

describe('reconcileOnce', () => {
  it('reads 250 tokens in 3 token-data requests and 60 wallets in 2 wallet-tracker requests', async () => {
    const known = sim.market.tokenAddresses();
    const wallets = sim.market.wallets().slice(0, 60);
    const tokens = [...known, ...unknownTokens(250 - known.length)];
    const { watcher, tokens: handed, trades } = recordingWatcher({ tokens, wallets });
    sim.stats.reset();
    const result = await reconcileOnce({ watcher, market });
    expect(sim.stats.count('token-data')).toBe(3);
    expect(sim.stats.count('wallet-tracker')).toBe(Math.ceil(wallets.length / 50));
    expect(result).toMatchObject({ tokens: 250, requests: 3 + Math.ceil(wallets.length / 50), failures: 0 });
    for (const request of sim.stats.requests('token-data'))
      expect(String(request.query.addresses).split(',').length).toBeLessThanOrEqual(100);
    expect(handed.map((token) => token.address).sort()).toEqual([...known].sort());
    expect([...trades.keys()].sort()).toEqual([...wallets].sort());
  });

  it('a failed request is counted and the rest go on', async () => {
    const { watcher, tokens: handed } = recordingWatcher({ tokens: sim.market.tokenAddresses(), wallets: [] });
    sim.faults.set({ 'token-data': { script: ['500', '500', '500', '500'] } });
    const noRetry = new MarketClient({ baseUrl: sim.baseUrl, apiKey: KEY, maxRetries: 0, cacheTtlMs: { 'token-data': 0 } });
    try {
      const result = await reconcileOnce({ watcher, market: noRetry });
      expect(result.failures).toBe(1);
      expect(handed).toEqual([]);
    } finally {
      sim.faults.clear();
      await noRetry.close();
    }
  });
});

describe('tradesByWallet', () => {
  it('places trades by their maker; with one wallet asked, every trade is its own', () => {
    const a = makeTrade({ hash: 'a', maker: W1 });
    const b = makeTrade({ hash: 'b', maker: W2 });
    expect(tradesByWallet([W1, W2], [a, b]).get(W2)).toEqual([b]);
    expect(tradesByWallet([W1], [a, b]).get(W1)).toEqual([a, b]);
  });
});

describe('startReconcileJob', () => {
  it('runs at start and after a reconnection, never two at once: asks during a run fold into one more', async () => {
    const { watcher, reconnect } = recordingWatcher({ tokens: sim.market.tokenAddresses(), wallets: [] });
    sim.stats.reset();
    const job = startReconcileJob({ watcher, market, cron: '0 0 1 1 *' });
    try {
      // The run at start is under way; three more asks while it runs make one more run.
      reconnect();
      const second = job.runNow();
      const third = job.runNow();
      expect(third).toBe(second);
      await second;
      expect(sim.stats.count('token-data')).toBe(2);
    } finally {
      await job.stop();
    }
  });

  it('refuses an expression that is not cron', () => {
    const { watcher } = recordingWatcher({ tokens: [], wallets: [] });
    expect(() => startReconcileJob({ watcher, market, cron: 'every minute', runAtStart: false })).toThrow(/RECONCILE_CRON/);
  });
});
