/**
 * The vendor protocol's REST polls with the real market client against the replay of the vendor's
 * service: how many requests a poll makes, what it hands the watcher, and a poll that slows down
 * by itself while the service answers 429 or 5xx, says so once, and comes back when it answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PollLoop, SLOWEST } from '../../src/jobs/pollLoop';
import { pollTokens, pollWallets } from '../../src/jobs/restPolls';
import { MarketClient } from '../../src/market/client';
import type { Token, Trade } from '../../src/market/schemas';
import type { Watcher } from '../../src/watch/watcher';
import { capturedLogger } from '../delivery/helpers';
import { addressFor, loadRecording, makeToken, makeWalletTrade, startVendorService, type VendorService } from '../support/vendorService';

const KEY = 'polls-test-key-3c1d';
let service: VendorService;
let market: MarketClient;
const KNOWN = addressFor('polls:known');
const WALLETS = Array.from({ length: 60 }, (_, index) => addressFor(`polls:wallet:${index}`));

beforeAll(async () => {
  service = await startVendorService({ apiKey: KEY });
  service.addToken(makeToken({ address: KNOWN, symbol: 'KNOWN', priceSol: 0.001 }));
  service.addWalletTrade(
    WALLETS[59] as string,
    makeWalletTrade({
      wallet: WALLETS[59] as string,
      token: KNOWN,
      type: 'SELL',
      tokenAmount: 10n ** 9n,
      quoteAmount: 10n ** 6n,
      priceSol: 0.001,
      priceUsd: 0.15,
      usd: 0.15,
    }),
  );
  // No retries: a 429 or a 503 reaches the poll as it came.
  market = new MarketClient({ baseUrl: service.baseUrl, apiKey: KEY, maxRetries: 0 });
});

afterAll(async () => {
  await market.close();
  await service.close();
});

function recordingWatcher(targets: { tokens: string[]; wallets: string[] }) {
  const tokens: Token[] = [];
  const trades = new Map<string, readonly Trade[]>();
  const watcher: Pick<Watcher, 'targets' | 'applyTokens' | 'applyWalletTrades' | 'mark'> = {
    targets: () => targets,
    mark: () => 0,
    applyTokens: async (read) => {
      tokens.push(...read);
      return 0;
    },
    applyWalletTrades: async (wallet, read) => {
      trades.set(wallet, read);
      return 0;
    },
  };
  return { watcher, tokens, trades };
}

const queried = (path: string, since: number) => service.requests.slice(since).filter((request) => request.path === path);

describe('the REST polls', () => {
  it('read 250 tokens in three token-data requests of at most 100 addresses, and 60 wallets in two', async () => {
    const tokens = [KNOWN, ...Array.from({ length: 249 }, (_, index) => addressFor(`polls:unknown:${index}`))];
    const { watcher, tokens: applied, trades } = recordingWatcher({ tokens, wallets: WALLETS });
    const since = service.requests.length;
    const tokenRun = await pollTokens({ watcher, market });
    const walletRun = await pollWallets({ watcher, market });
    expect(tokenRun).toMatchObject({ requests: 3, errors: [] });
    expect(walletRun).toMatchObject({ requests: 2, errors: [] });
    const sizes = queried('/api/token-data', since).map((request) => (request.query.addresses ?? '').split(',').length);
    expect(sizes.sort((a, b) => b - a)).toEqual([100, 100, 50]);
    expect(queried('/api/wallet-tracker', since).map((request) => (request.query.wallets ?? '').split(',').length)).toEqual([50, 10]);
    // Every request carried the key.
    for (const request of service.requests.slice(since)) expect(request.apiKeyHeader).toBe(KEY);
    expect(applied.map((token) => token.address)).toEqual([KNOWN]);
    expect(trades.get(WALLETS[59] as string)).toHaveLength(1);
    expect(trades.get(WALLETS[0] as string)).toEqual([]);
  });

  it('slows down on 429 and 503, says so once, and comes back at the first good run', async () => {
    const { watcher } = recordingWatcher({ tokens: [KNOWN], wallets: [] });
    const { logger, lines } = capturedLogger();
    const loop = new PollLoop('token-data', 1_000, () => pollTokens({ watcher, market }), logger);
    service.failNext(1, { status: 429, retryAfterSec: 1, path: '/api/token-data' });
    await loop.runNow();
    expect(loop.status()).toMatchObject({ slowed: true, pauseMs: 2_000, failures: 1 });
    for (let run = 0; run < 4; run++) {
      service.failNext(1, { status: 503, path: '/api/token-data' });
      await loop.runNow();
    }
    expect(loop.status()).toMatchObject({ slowed: true, pauseMs: 1_000 * SLOWEST, failures: 5 });
    const warned = lines.filter((line) => String(line.msg).includes('slows down'));
    expect(warned).toHaveLength(1);
    await loop.runNow();
    expect(loop.status()).toMatchObject({ slowed: false, pauseMs: 1_000, runs: 6 });
    expect(lines.filter((line) => String(line.msg).includes('back at its pace'))).toHaveLength(1);
    await loop.stop();
  });

  it('asks a batch too large to read again in halves, so one big token keeps no other unpolled', async () => {
    const big = loadRecording('token-data-46-pools-usdc.json');
    service.addToken(big);
    const small = [KNOWN, ...Array.from({ length: 5 }, (_, index) => addressFor(`polls:small:${index}`))];
    for (const address of small.slice(1)) service.addToken(makeToken({ address, symbol: 'SMALL', priceSol: 0.002 }));
    // A limit the 46-pool token alone passes (it is some 475 KB), and the small ones never.
    const tight = new MarketClient({ baseUrl: service.baseUrl, apiKey: KEY, maxRetries: 0, maxBodyBytes: { 'token-data': 64 * 1024 } });
    try {
      const { watcher, tokens: applied } = recordingWatcher({ tokens: [big.address, ...small], wallets: [] });
      const run = await pollTokens({ watcher, market: tight });
      expect(applied.map((token) => token.address).sort()).toEqual([...small].sort());
      expect(run.errors).toHaveLength(1);
      // 7 → 4 + 3 → (2 + 2) + ... : a handful of requests, not one a token.
      expect(run.requests).toBeLessThanOrEqual(7);
    } finally {
      await tight.close();
    }
  });

  it('does not slow down for a refusal that is not the service’s load', async () => {
    const { watcher } = recordingWatcher({ tokens: ['not-an-address'], wallets: [] });
    const { logger } = capturedLogger();
    const loop = new PollLoop('token-data', 1_000, () => pollTokens({ watcher, market }), logger);
    await loop.runNow();
    expect(loop.status()).toMatchObject({ slowed: false, failures: 1 });
    await loop.stop();
  });
});
