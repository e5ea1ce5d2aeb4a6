/**
 * The six REST endpoints over real HTTP on 127.0.0.1: field types as the spec's tables give them,
 * orders, defaults, every error path with its status and body, authentication, and live changes
 * showing in every endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../src/server';
import type { WireCandle, WireHolder, WireTechnicals, WireToken, WireTokenEnvelope, WireTradeResponse } from '../src/wireTypes';
import { REST_ENDPOINTS } from '../src/endpoints';
import { KEY, UNKNOWN_ADDRESS, get, start } from './helpers';

let sim: RunningSimulator;
let tokens: string[];
let wallets: string[];

beforeAll(async () => {
  sim = await start();
  const listing = sim.market.listing();
  tokens = listing.tokens.map((token) => token.address);
  wallets = listing.wallets;
});

afterAll(async () => {
  await sim.close();
});

const INTEGER_TEXT = /^\d+$/;
const DECIMAL_TEXT = /^\d+(\.\d+)?$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

function token(i: number): string {
  const address = tokens[i];
  if (!address) throw new Error(`no token ${i}`);
  return address;
}

function expectTokenTypes(t: WireToken): void {
  expect(t).toEqual({
    id: expect.any(String),
    chainId: 1399811149,
    address: expect.any(String),
    decimals: 6,
    name: expect.any(String),
    symbol: expect.any(String),
    syncedAt: expect.stringMatching(ISO),
    description: t.description === null ? null : expect.any(String),
    isVerifiedSourceCode: t.isVerifiedSourceCode === null ? null : expect.any(Boolean),
    partnerStats: t.partnerStats === null ? null : expect.any(Object),
    ownerAddress: t.ownerAddress === null ? null : expect.any(String),
    totalSupply: expect.stringMatching(INTEGER_TEXT),
    logo: expect.any(String),
    website: t.website === null ? null : expect.any(String),
    deployerAddress: expect.any(String),
    creationBlockNumber: expect.any(Number),
    creationBlockTimestamp: expect.any(Number),
    holdersCount: expect.stringMatching(INTEGER_TEXT),
    version: expect.any(String),
    liquidityPools: expect.any(Object),
    riskAnalysis: {
      isMutable: expect.any(Boolean),
      ownerBalance: expect.stringMatching(INTEGER_TEXT),
      mintAuthority: t.riskAnalysis.mintAuthority === null ? null : expect.any(String),
      freezeAuthority: t.riskAnalysis.freezeAuthority === null ? null : expect.any(String),
      updateAuthority: expect.any(String),
    },
    riskStatus: expect.stringMatching(/^(SAFE|WARNING|DANGER)$/),
    links: expect.any(Object),
    top10HoldersSupply: t.top10HoldersSupply === null ? null : expect.stringMatching(INTEGER_TEXT),
    origin: expect.any(String),
    image: expect.any(String),
  });
  expect(Number.isInteger(t.creationBlockTimestamp)).toBe(true);
  for (const [address, pool] of Object.entries(t.liquidityPools)) {
    expect(pool).toEqual({
      chainId: 1399811149,
      pairId: expect.any(String),
      poolAddress: address,
      token0Address: t.address,
      token1Address: 'So11111111111111111111111111111111111111112',
      token0Decimals: 6,
      token1Decimals: 9,
      protocol: expect.stringMatching(/^(raydium-amm|raydium-clmm|orca-whirlpool|meteora-dlmm|pumpswap)$/),
      syncedAt: expect.stringMatching(ISO),
      creationBlockNumber: expect.any(Number),
      creationBlockTimestamp: expect.any(Number),
      suspectedBaseTokenPrice: expect.stringMatching(DECIMAL_TEXT),
      suspectedQuoteTokenPrice: expect.stringMatching(DECIMAL_TEXT),
      suspectedBaseTokenReserves: expect.stringMatching(INTEGER_TEXT),
      suspectedQuoteTokenReserves: expect.stringMatching(INTEGER_TEXT),
    });
  }
  for (const link of Object.values(t.links)) expect(typeof link).toBe('string');
}

describe('token-data', () => {
  it('answers the envelope with every field typed as the spec says', async () => {
    const answer = await get<WireTokenEnvelope>(sim, `/api/token-data?address=${token(0)}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(answer.body.statusCode).toBe(200);
    expect(answer.body.message).toBeNull();
    expect(Object.keys(answer.body.data)).toEqual([token(0)]);
    for (const t of Object.values(answer.body.data)) expectTokenTypes(t);
  });

  it('every token, hostile ones included, has the spec types', async () => {
    const answer = await get<WireTokenEnvelope>(sim, `/api/token-data?addresses=${tokens.join(',')}`);
    expect(Object.keys(answer.body.data)).toEqual(tokens);
    for (const t of Object.values(answer.body.data)) expectTokenTypes(t);
  });

  it('takes the union of address and addresses and omits unknown tokens', async () => {
    const answer = await get<WireTokenEnvelope>(
      sim,
      `/api/token-data?address=${token(0)}&addresses=${token(1)},${UNKNOWN_ADDRESS},${token(0)}`,
    );
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body.data).sort()).toEqual([token(0), token(1)].sort());
  });

  it('400 for a missing parameter, a malformed address, too many addresses', async () => {
    for (const path of [
      '/api/token-data',
      '/api/token-data?address=',
      '/api/token-data?address=not-an-address',
      `/api/token-data?addresses=${token(0)},0xZZ`,
      `/api/token-data?addresses=${Array.from({ length: 101 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`).join(',')}`,
    ]) {
      const answer = await get(sim, path);
      expect(answer.status, path).toBe(400);
      expect(answer.body).toEqual({ error: expect.any(String), message: expect.any(String) });
    }
    const missing = await get<{ error: string; message: string }>(sim, '/api/token-data');
    expect(missing.body.message).toMatch(/address/);
  });

  it('accepts EVM-style addresses (unknown here, so omitted)', async () => {
    const answer = await get<WireTokenEnvelope>(sim, `/api/token-data?address=0x${'ab'.repeat(20)}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({});
  });
});

describe('token-technicals', () => {
  it('answers the four members with the chosen shapes', async () => {
    const answer = await get<{ statusCode: number; message: string; data: WireTechnicals }>(
      sim,
      `/api/token-technicals?address=${token(2)}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.statusCode).toBe(200);
    expect(answer.body.message).toBe('OK');
    const { overtimeTechnicals, tokenStats, devMakerData, initialBuyerStats } = answer.body.data;
    expect(overtimeTechnicals.length).toBeGreaterThan(0);
    for (const point of overtimeTechnicals) {
      expect(point).toEqual({
        id: expect.any(String),
        contractAddress: token(2),
        chainId: 1399811149,
        syncedAt: expect.stringMatching(ISO),
        holdersCount: expect.any(Number),
        tagsCount: expect.any(Number),
        topHoldersSupply: {
          '10': expect.stringMatching(INTEGER_TEXT),
          '20': expect.any(String),
          '50': expect.any(String),
          '100': expect.any(String),
        },
        topHoldersSupplyPerc: { '10': expect.any(Number), '20': expect.any(Number), '50': expect.any(Number), '100': expect.any(Number) },
      });
    }
    expect(tokenStats).toEqual([
      {
        devDeployedTokens: expect.any(Array),
        devDeployedTokensCount: expect.any(Number),
        isDevRug: expect.any(Boolean),
        isDevNew: expect.any(Boolean),
        devSoldSupply: expect.stringMatching(INTEGER_TEXT),
        devSoldSupplyPerc: expect.any(Number),
        initialTotalBoughtSupply: expect.stringMatching(INTEGER_TEXT),
        priceNative: expect.any(Number),
        liquidityNative: expect.any(Number),
      },
    ]);
    expect(devMakerData).toEqual({
      totalBoughtAmount: expect.stringMatching(INTEGER_TEXT),
      totalSoldAmount: expect.stringMatching(INTEGER_TEXT),
      totalBoughtETH: expect.stringMatching(DECIMAL_TEXT),
      totalSoldETH: expect.stringMatching(DECIMAL_TEXT),
      totalSoldUSD: expect.stringMatching(DECIMAL_TEXT),
      totalBuyTransactions: expect.any(Number),
      totalSellTransactions: expect.any(Number),
    });
    expect(initialBuyerStats.length).toBeGreaterThan(0);
    for (const buyer of initialBuyerStats) {
      expect(buyer).toEqual({
        walletAddress: expect.any(String),
        initialBuyerType: expect.stringMatching(/^(HOLD|SELL_ALL|SELL_PARTIAL)$/),
        sniper: expect.any(Boolean),
        buyAmount: expect.stringMatching(INTEGER_TEXT),
        sellAmount: buyer.sellAmount === null ? null : expect.stringMatching(INTEGER_TEXT),
      });
    }
  });

  it('400 missing or invalid address, 404 unknown token, all with {error, message}', async () => {
    const cases: Array<[string, number]> = [
      ['/api/token-technicals', 400],
      ['/api/token-technicals?address=abc', 400],
      [`/api/token-technicals?address=${UNKNOWN_ADDRESS}`, 404],
    ];
    for (const [path, status] of cases) {
      const answer = await get(sim, path);
      expect(answer.status, path).toBe(status);
      expect(answer.body).toEqual({ error: expect.any(String), message: expect.any(String) });
      expect(answer.headers.get('x-ratelimit-limit')).toBe('100');
    }
  });
});

describe('holders-history', () => {
  it('a bare array of holder records, typed, sorted by balance by default', async () => {
    const answer = await get<WireHolder[]>(sim, `/api/holders-history?address=${token(4)}`);
    expect(answer.status).toBe(200);
    expect(Array.isArray(answer.body)).toBe(true);
    const first = answer.body[0];
    expect(first).toEqual({
      chainId: 1399811149,
      tokenAddress: token(4),
      address: expect.any(String),
      currentlyHoldingAmount: expect.stringMatching(INTEGER_TEXT),
      holderSince: expect.any(Number),
      totalBoughtAmount: expect.any(Number),
      totalBoughtETH: expect.any(Number),
      totalBuyTransactions: expect.any(Number),
      totalSellTransactions: expect.any(Number),
      totalSoldAmount: expect.any(Number),
      totalBoughtUSD: expect.any(Number),
      totalSoldUSD: expect.any(Number),
      totalSoldETH: expect.any(Number),
      sent: expect.stringMatching(INTEGER_TEXT),
      received: expect.any(Number),
      tags: expect.any(Array),
      syncedAt: expect.stringMatching(ISO),
      nativeBalance: expect.stringMatching(INTEGER_TEXT),
    });
    const balances = answer.body.map((h) => BigInt(h.currentlyHoldingAmount));
    for (let i = 1; i < balances.length; i++) expect((balances[i - 1] ?? 0n) >= (balances[i] ?? 0n)).toBe(true);
  });

  it('sortBy holderSince (oldest first), totalBoughtUSD and totalSoldUSD (largest first)', async () => {
    const since = await get<WireHolder[]>(sim, `/api/holders-history?address=${token(4)}&sortBy=holderSince`);
    const times = since.body.map((h) => h.holderSince);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    for (const key of ['totalBoughtUSD', 'totalSoldUSD'] as const) {
      const sorted = await get<WireHolder[]>(sim, `/api/holders-history?address=${token(4)}&sortBy=${key}`);
      const values = sorted.body.map((h) => h[key]);
      expect(values).toEqual([...values].sort((a, b) => b - a));
    }
  });

  it('errors are {error} only: missing, invalid address, bad sortBy (400), unknown token (404)', async () => {
    const missing = await get(sim, '/api/holders-history');
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: expect.stringMatching(/Token address is required/) });
    const cases: Array<[string, number]> = [
      ['/api/holders-history?address=%3Cscript%3E', 400],
      [`/api/holders-history?address=${token(4)}&sortBy=nope`, 400],
      [`/api/holders-history?address=${UNKNOWN_ADDRESS}`, 404],
    ];
    for (const [path, status] of cases) {
      const answer = await get(sim, path);
      expect(answer.status, path).toBe(status);
      expect(answer.body).toEqual({ error: expect.any(String) });
    }
  });
});

describe('trades-history', () => {
  it('the wallets’ trades in the token, newest first, typed, with tokensMetadata', async () => {
    const holders = (await get<WireHolder[]>(sim, `/api/holders-history?address=${token(5)}`)).body;
    const chosen = holders.slice(0, 10).map((h) => h.address);
    const answer = await get<WireTradeResponse>(sim, `/api/trades-history?baseToken=${token(5)}&wallets=${chosen.join(',')}`);
    expect(answer.status).toBe(200);
    const trades = answer.body.tradeHistory;
    expect(trades.length).toBeGreaterThan(0);
    const times = trades.map((t) => t.timestamp);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const trade of trades) {
      expect(chosen).toContain(trade.makerData.address);
      expect([trade.tokenIn, trade.tokenOut]).toContain(token(5));
      expect(trade).toEqual({
        chainId: 1399811149,
        blockTimestamp: trade.timestamp,
        timestamp: expect.any(Number),
        blockNumber: expect.any(Number),
        transactionHash: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/),
        logIndex: expect.any(Number),
        transactionIndex: expect.any(Number),
        tokenIn: expect.any(String),
        tokenOut: expect.any(String),
        amountIn: expect.stringMatching(INTEGER_TEXT),
        amountOut: expect.stringMatching(INTEGER_TEXT),
        amountUSD: expect.stringMatching(DECIMAL_TEXT),
        suspectedBaseTokenPrice: expect.stringMatching(DECIMAL_TEXT),
        suspectedBaseTokenPriceUSD: expect.stringMatching(DECIMAL_TEXT),
        poolAddress: expect.any(String),
        makerData: {
          chainId: 1399811149,
          address: expect.any(String),
          tokenAddress: token(5),
          currentlyHoldingAmount: expect.stringMatching(INTEGER_TEXT),
          holderSince: expect.any(Number),
          totalBoughtAmount: expect.stringMatching(INTEGER_TEXT),
          totalBoughtUSD: expect.stringMatching(DECIMAL_TEXT),
          totalBoughtETH: expect.stringMatching(DECIMAL_TEXT),
          totalBuyTransactions: expect.any(Number),
          totalSellTransactions: expect.any(Number),
          totalSoldAmount: expect.stringMatching(INTEGER_TEXT),
          totalSoldUSD: expect.stringMatching(DECIMAL_TEXT),
          totalSoldETH: expect.stringMatching(DECIMAL_TEXT),
          sent: expect.stringMatching(INTEGER_TEXT),
          received: expect.stringMatching(INTEGER_TEXT),
          tags: expect.any(Array),
        },
        nativeBalance: expect.stringMatching(INTEGER_TEXT),
      });
      const amountToken = Number(trade.tokenIn === token(5) ? trade.amountIn : trade.amountOut) / 1e6;
      const amountSol = Number(trade.tokenIn === token(5) ? trade.amountOut : trade.amountIn) / 1e9;
      expect(Number(trade.suspectedBaseTokenPrice)).toBeCloseTo(amountSol / amountToken, 12);
    }
    expect(answer.body.tokensMetadata).toEqual({
      [token(5)]: { address: token(5), name: expect.any(String), symbol: expect.any(String), decimals: 6, logo: expect.any(String) },
    });
  });

  it('400 for missing or invalid parameters and too many wallets, 404 for an unknown token', async () => {
    const wallet = wallets[0] ?? '';
    const tooMany = Array.from({ length: 51 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`).join(',');
    const cases: Array<[string, number]> = [
      ['/api/trades-history', 400],
      [`/api/trades-history?baseToken=${token(0)}`, 400],
      [`/api/trades-history?wallets=${wallet}`, 400],
      [`/api/trades-history?baseToken=bad&wallets=${wallet}`, 400],
      [`/api/trades-history?baseToken=${token(0)}&wallets=bad`, 400],
      [`/api/trades-history?baseToken=${token(0)}&wallets=${tooMany}`, 400],
      [`/api/trades-history?baseToken=${UNKNOWN_ADDRESS}&wallets=${wallet}`, 404],
    ];
    for (const [path, status] of cases) {
      const answer = await get(sim, path);
      expect(answer.status, path).toBe(status);
      expect(answer.body).toEqual({ error: expect.any(String), message: expect.any(String) });
    }
  });
});

describe('chart-history', () => {
  it('defaults: the last 24 hours at 60 s, oldest first, typed', async () => {
    const answer = await get<{ candles: WireCandle[] }>(sim, `/api/chart-history?base=${token(6)}`);
    expect(answer.status).toBe(200);
    const candles = answer.body.candles;
    expect(candles.length).toBeGreaterThan(0);
    const now = sim.market.now();
    for (const candle of candles) {
      expect(candle).toEqual({
        time: expect.stringMatching(ISO),
        timestamp: expect.any(Number),
        open: expect.any(Number),
        high: expect.any(Number),
        low: expect.any(Number),
        close: expect.any(Number),
        volume: expect.any(Number),
      });
      expect(candle.timestamp % 60_000).toBe(0);
      expect(candle.timestamp).toBeGreaterThanOrEqual((now - 86400 - 60) * 1000);
    }
    const stamps = candles.map((c) => c.timestamp);
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    const explicit = await get<{ candles: WireCandle[] }>(
      sim,
      `/api/chart-history?base=${token(6)}&from=${now - 86400}&to=${now}&intervalSecs=60`,
    );
    expect(explicit.body.candles).toEqual(candles);
  });

  it('countBack keeps the newest N up to `to`', async () => {
    const now = sim.market.now();
    const all = await get<{ candles: WireCandle[] }>(
      sim,
      `/api/chart-history?base=${token(6)}&from=${now - 7 * 86400}&to=${now - 3600}&intervalSecs=300`,
    );
    const some = await get<{ candles: WireCandle[] }>(
      sim,
      `/api/chart-history?base=${token(6)}&from=${now - 7 * 86400}&to=${now - 3600}&intervalSecs=300&countBack=5`,
    );
    expect(some.body.candles).toEqual(all.body.candles.slice(-5));
    expect(all.body.candles.at(-1)?.timestamp ?? 0).toBeLessThanOrEqual((now - 3600) * 1000);
  });

  it('400 for missing base, bad timestamps, interval and countBack; 404 for an unknown token', async () => {
    const base = token(6);
    const cases: Array<[string, number, RegExp]> = [
      ['/api/chart-history', 400, /Missing/],
      ['/api/chart-history?base=xyz', 400, /address/i],
      [`/api/chart-history?base=${base}&from=yesterday`, 400, /timestamp/i],
      [`/api/chart-history?base=${base}&to=1.5`, 400, /timestamp/i],
      [`/api/chart-history?base=${base}&from=200&to=100`, 400, /timestamp/i],
      [`/api/chart-history?base=${base}&intervalSecs=0`, 400, /interval/i],
      [`/api/chart-history?base=${base}&intervalSecs=2.5`, 400, /interval/i],
      [`/api/chart-history?base=${base}&intervalSecs=abc`, 400, /interval/i],
      [`/api/chart-history?base=${base}&countBack=0`, 400, /countBack/],
      [`/api/chart-history?base=${base}&countBack=x`, 400, /countBack/],
      [`/api/chart-history?base=${UNKNOWN_ADDRESS}`, 404, /not found/i],
    ];
    for (const [path, status, title] of cases) {
      const answer = await get<{ error: string; message: string }>(sim, path);
      expect(answer.status, path).toBe(status);
      expect(answer.body).toEqual({ error: expect.any(String), message: expect.any(String) });
      expect(answer.body.error, path).toMatch(title);
    }
  });
});

describe('wallet-tracker', () => {
  it('trades of shared wallets across tokens, newest first, metadata for every token in it', async () => {
    const chosen = wallets.slice(0, 3);
    const answer = await get<WireTradeResponse>(sim, `/api/wallet-tracker?wallets=${chosen.join(',')}`);
    expect(answer.status).toBe(200);
    const trades = answer.body.tradeHistory;
    expect(trades.length).toBeGreaterThan(0);
    expect(new Set(trades.map((t) => t.makerData.tokenAddress)).size).toBeGreaterThan(1);
    const times = trades.map((t) => t.timestamp);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const trade of trades) {
      expect(chosen).toContain(trade.makerData.address);
      expect(answer.body.tokensMetadata[trade.makerData.tokenAddress]?.decimals).toBe(6);
    }
    expect(trades.length).toBeLessThanOrEqual(1000);
  });

  it('unknown wallets: 200 with an empty tradeHistory; missing, invalid, too many: 400', async () => {
    const empty = await get<WireTradeResponse>(sim, `/api/wallet-tracker?wallets=${UNKNOWN_ADDRESS}`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ tradeHistory: [], tokensMetadata: {} });
    const tooMany = Array.from({ length: 51 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`).join(',');
    for (const path of [
      '/api/wallet-tracker',
      '/api/wallet-tracker?wallets=',
      '/api/wallet-tracker?wallets=nope',
      `/api/wallet-tracker?wallets=${tooMany}`,
    ]) {
      const answer = await get(sim, path);
      expect(answer.status, path).toBe(400);
      expect(answer.body).toEqual({ error: expect.any(String), message: expect.any(String) });
    }
  });
});

describe('authentication, methods, paths, internal errors', () => {
  it('401 {error, message} on every endpoint without the key or with a wrong one, never echoing it', async () => {
    for (const endpoint of REST_ENDPOINTS) {
      for (const key of [null, 'wrong-key-123', `${KEY}x`, '']) {
        const answer = await get(sim, `/api/${endpoint}?address=${token(0)}`, key);
        expect(answer.status, `${endpoint} ${key}`).toBe(401);
        expect(answer.body).toEqual({ error: 'Unauthorized', message: expect.any(String) });
        expect(answer.text).not.toContain(KEY);
        if (key) expect(answer.text).not.toContain(key);
      }
    }
  });

  it('405 for other methods, 404 JSON for other paths', async () => {
    const post = await fetch(`${sim.baseUrl}/api/token-data?address=${token(0)}`, { method: 'POST', headers: { 'x-api-key': KEY } });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(await post.json()).toEqual({ error: expect.any(String), message: expect.any(String) });
    for (const path of ['/', '/api', '/api/nope', '/api/token-data/extra', '/token-data']) {
      const answer = await get(sim, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ error: 'Not Found', message: expect.any(String) });
    }
  });

  it('500 with the endpoint’s error body when the market fails', async () => {
    const other = await start();
    try {
      other.market.token = () => {
        throw new Error('boom');
      };
      other.market.holders = () => {
        throw new Error('boom');
      };
      const data = await get(other, `/api/token-data?address=${token(0)}`);
      expect(data.status).toBe(500);
      expect(data.body).toEqual({ error: expect.any(String), message: expect.any(String) });
      expect(data.text).not.toContain('boom');
      const holders = await get(other, `/api/holders-history?address=${token(0)}`);
      expect(holders.status).toBe(500);
      expect(holders.body).toEqual({ error: expect.any(String) });
      expect((await get(other, `/api/token-technicals?address=${token(0)}`)).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('stats count every /api/ request, failures included', async () => {
    sim.stats.reset();
    await get(sim, `/api/token-data?address=${token(0)}`);
    await get(sim, `/api/token-data?address=${token(1)}`, null);
    await get(sim, '/api/chart-history');
    await get(sim, '/api/nope');
    expect(sim.stats.count()).toBe(3);
    expect(sim.stats.count('token-data')).toBe(2);
    expect(sim.stats.requests('token-data')).toEqual([
      { endpoint: 'token-data', query: { address: token(0) }, status: 200 },
      { endpoint: 'token-data', query: { address: token(1) }, status: 401 },
    ]);
    expect(sim.stats.requests().map((r) => r.status)).toEqual([200, 401, 400]);
    sim.stats.reset();
    expect(sim.stats.count()).toBe(0);
  });
});

describe('live changes reach every endpoint', () => {
  it('a trade made in process shows in token-data, holders, trades, wallet-tracker and candles', async () => {
    const other = await start();
    try {
      const address = token(8);
      const wallet = 'LiveWa11etLiveWa11etLiveWa11etLiveWa11etLive';
      const before = (await get<WireTokenEnvelope>(other, `/api/token-data?address=${address}`)).body.data[address];
      const trade = other.market.executeTrade({ wallet, tokenAddress: address, side: 'buy', amountUSD: 2500 });
      const after = (await get<WireTokenEnvelope>(other, `/api/token-data?address=${address}`)).body.data[address];
      expect(Number(after?.holdersCount)).toBe(Number(before?.holdersCount) + 1);
      expect(after?.liquidityPools[trade.poolAddress]?.suspectedQuoteTokenReserves).toBe(
        String(BigInt(before?.liquidityPools[trade.poolAddress]?.suspectedQuoteTokenReserves ?? 0) + BigInt(trade.amountIn)),
      );
      const holders = (await get<WireHolder[]>(other, `/api/holders-history?address=${address}&sortBy=holderSince`)).body;
      expect(holders.at(-1)).toMatchObject({ address: wallet, currentlyHoldingAmount: trade.amountOut, totalBuyTransactions: 1 });
      const trades = (await get<WireTradeResponse>(other, `/api/trades-history?baseToken=${address}&wallets=${wallet}`)).body;
      expect(trades.tradeHistory).toEqual([trade]);
      const tracked = (await get<WireTradeResponse>(other, `/api/wallet-tracker?wallets=${wallet}`)).body;
      expect(tracked.tradeHistory.map((t) => t.transactionHash)).toEqual([trade.transactionHash]);
      const candles = (await get<{ candles: WireCandle[] }>(other, `/api/chart-history?base=${address}&countBack=1`)).body.candles;
      expect(candles[0]?.close).toBeCloseTo(Number(trade.suspectedBaseTokenPrice), 15);
      expect(candles[0]?.timestamp).toBe(Math.floor(trade.timestamp / 60) * 60_000);
    } finally {
      await other.close();
    }
  });
});
