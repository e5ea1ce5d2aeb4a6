/**
 * The market model in process: same seed, same market; a market that holds together (supply,
 * balances, pools, technicals, makerData, candles); hostile tokens present; live changes applied
 * consistently and announced.
 */
import { describe, expect, it } from 'vitest';
import { Market, MarketMutationError, type MarketChange } from '../src/market';
import { HOSTILE_METADATA } from '../src/hostile';
import type { WireToken, WireTrade } from '../src/wireTypes';
import { sum } from './helpers';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** Fields that follow the clock rather than the seed. */
function withoutTime(token: WireToken): unknown {
  const { syncedAt: _s, creationBlockNumber: _n, creationBlockTimestamp: _t, liquidityPools, ...rest } = token;
  const pools = Object.fromEntries(
    Object.entries(liquidityPools).map(([address, pool]) => {
      const { syncedAt: _ps, creationBlockNumber: _pn, creationBlockTimestamp: _pt, ...poolRest } = pool;
      return [address, poolRest];
    }),
  );
  return { ...rest, liquidityPools: pools };
}

describe('determinism', () => {
  it('the same seed gives the same listing and tokens, whatever the clock', () => {
    const a = new Market({ seed: 42, now: () => NOW });
    const b = new Market({ seed: 42, now: () => NOW + 98_765_000 });
    expect(a.listing()).toEqual(b.listing());
    for (const address of a.tokenAddresses()) {
      const ta = a.token(address);
      const tb = b.token(address);
      if (!ta || !tb) throw new Error('token missing');
      expect(withoutTime(ta)).toEqual(withoutTime(tb));
    }
    const c = new Market({ seed: 42, now: () => NOW });
    const first = a.tokenAddresses()[5] ?? '';
    expect(c.holders(first)).toEqual(a.holders(first));
    expect(c.technicals(first)).toEqual(a.technicals(first));
  });

  it('another seed gives another market', () => {
    const a = new Market({ seed: 42, now: () => NOW });
    const b = new Market({ seed: 43, now: () => NOW });
    expect(a.tokenAddresses()).not.toEqual(b.tokenAddresses());
  });

  it('generating tokens in a different order gives the same tokens', () => {
    const a = new Market({ seed: 42, now: () => NOW });
    const b = new Market({ seed: 42, now: () => NOW });
    const addresses = a.tokenAddresses().slice(0, 8);
    const forward = addresses.map((address) => a.token(address));
    const backward = [...addresses]
      .reverse()
      .map((address) => b.token(address))
      .reverse();
    expect(backward).toEqual(forward);
  });
});

describe('a market that holds together (seed 42)', () => {
  const market = new Market({ seed: 42, now: () => NOW });
  const listing = market.listing();

  it('has 40+ Solana-like tokens, 10+ shared wallets and all three risk statuses', () => {
    expect(listing.tokens.length).toBeGreaterThanOrEqual(40);
    expect(listing.wallets.length).toBeGreaterThanOrEqual(10);
    for (const token of listing.tokens) expect(token.address).toMatch(BASE58);
    for (const wallet of listing.wallets) expect(wallet).toMatch(BASE58);
    expect(new Set(listing.tokens.map((token) => token.riskStatus))).toEqual(new Set(['SAFE', 'WARNING', 'DANGER']));
  });

  it('every token: balances within supply, top10 = sum of the 10 largest, pools agree with their prices', () => {
    for (const { address } of listing.tokens) {
      const token = market.token(address);
      const holders = market.holders(address);
      if (!token || !holders) throw new Error('token missing');
      expect(token.id).toBe(`${address}_1399811149`);
      expect(token.decimals).toBe(6);
      const supply = BigInt(token.totalSupply);
      const balances = holders.map((holder) => BigInt(holder.currentlyHoldingAmount));
      const pools = Object.values(token.liquidityPools);
      expect(pools.length).toBeGreaterThanOrEqual(1);
      expect(pools.length).toBeLessThanOrEqual(3);
      const inPools = sum(pools.map((pool) => BigInt(pool.suspectedBaseTokenReserves)));
      expect(sum(balances) + inPools).toBeLessThanOrEqual(supply);
      expect(holders.length).toBeGreaterThanOrEqual(150);
      expect(Number(token.holdersCount)).toBe(balances.filter((b) => b > 0n).length);
      const sorted = [...balances].sort((x, y) => (y > x ? 1 : y < x ? -1 : 0));
      expect(balances).toEqual(sorted);
      if (token.top10HoldersSupply !== null) expect(BigInt(token.top10HoldersSupply)).toBe(sum(sorted.slice(0, 10)));
      for (const pool of pools) {
        expect(pool.token1Address).toBe('So11111111111111111111111111111111111111112');
        const price = Number(pool.suspectedQuoteTokenReserves) / 1e9 / (Number(pool.suspectedBaseTokenReserves) / 1e6);
        expect(Number(pool.suspectedBaseTokenPrice)).toBeCloseTo(price, 12);
        expect(Number(pool.suspectedBaseTokenPrice) * Number(pool.suspectedQuoteTokenPrice)).toBeCloseTo(1, 6);
        expect(pool.suspectedBaseTokenPrice).not.toMatch(/e/i);
      }
    }
  });

  it('has former holders and days of trades', () => {
    let longHistories = 0;
    for (const [i, { address }] of listing.tokens.entries()) {
      const holders = market.holders(address) ?? [];
      expect(holders.some((holder) => holder.currentlyHoldingAmount === '0')).toBe(true);
      const token = market.token(address);
      if (i < 4) {
        const trades = market.tokenTrades(address)?.tradeHistory ?? [];
        expect(trades.length).toBeGreaterThanOrEqual(150);
        expect(trades.at(-1)?.timestamp).toBe(token?.creationBlockTimestamp);
      }
      if (market.now() - (token?.creationBlockTimestamp ?? 0) >= 3 * 86400) longHistories++;
    }
    expect(longHistories).toBeGreaterThanOrEqual(listing.tokens.length * 0.8);
  });

  it('makerData of a wallet’s latest trade equals its holder record; trades are newest first', () => {
    const address = listing.tokens[3]?.address ?? '';
    const holders = market.holders(address) ?? [];
    for (const holder of holders.slice(0, 25)) {
      const trades = market.tokenTrades(address, [holder.address])?.tradeHistory ?? [];
      const latest = trades[0];
      if (!latest) continue;
      for (let i = 1; i < trades.length; i++) {
        expect((trades[i - 1] as WireTrade).timestamp).toBeGreaterThanOrEqual((trades[i] as WireTrade).timestamp);
      }
      const maker = latest.makerData;
      expect(maker.currentlyHoldingAmount).toBe(holder.currentlyHoldingAmount);
      expect(Number(maker.totalBoughtAmount)).toBe(holder.totalBoughtAmount);
      expect(Number(maker.totalSoldAmount)).toBe(holder.totalSoldAmount);
      expect(maker.totalBuyTransactions).toBe(holder.totalBuyTransactions);
      expect(maker.totalSellTransactions).toBe(holder.totalSellTransactions);
      expect(maker.totalBuyTransactions + maker.totalSellTransactions).toBe(trades.length);
      expect(maker.holderSince).toBe(holder.holderSince);
      const bought = trades.filter((t) => t.tokenOut === address).reduce((s, t) => s + BigInt(t.amountOut), 0n);
      expect(BigInt(maker.totalBoughtAmount)).toBe(bought);
    }
  });

  it('technicals agree with the token and its holders', () => {
    for (const { address } of listing.tokens.slice(0, 8)) {
      const token = market.token(address);
      const technicals = market.technicals(address);
      const holders = market.holders(address) ?? [];
      if (!token || !technicals) throw new Error('token missing');
      const latest = technicals.overtimeTechnicals[0];
      expect(latest?.holdersCount).toBe(Number(token.holdersCount));
      if (token.top10HoldersSupply !== null) expect(latest?.topHoldersSupply['10']).toBe(token.top10HoldersSupply);
      const times = technicals.overtimeTechnicals.map((point) => Date.parse(point.syncedAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(technicals.overtimeTechnicals.length).toBeLessThanOrEqual(24);
      for (const point of technicals.overtimeTechnicals) {
        expect(Object.keys(point.topHoldersSupply)).toEqual(['10', '20', '50', '100']);
        for (const perc of Object.values(point.topHoldersSupplyPerc)) expect(perc).toBeGreaterThanOrEqual(0);
        for (const perc of Object.values(point.topHoldersSupplyPerc)) expect(perc).toBeLessThanOrEqual(100);
      }
      const stats = technicals.tokenStats[0];
      if (!stats) throw new Error('tokenStats missing');
      const main = Object.values(token.liquidityPools).sort(
        (a, b) => Number(b.suspectedQuoteTokenReserves) - Number(a.suspectedQuoteTokenReserves),
      )[0];
      expect(stats.priceNative).toBeCloseTo(Number(main?.suspectedBaseTokenPrice), 15);
      expect(stats.devDeployedTokensCount).toBe(stats.devDeployedTokens.length);
      const dev = holders.find((holder) => holder.address === token.deployerAddress);
      expect(technicals.devMakerData.totalBoughtAmount).toBe(String(dev?.totalBoughtAmount ?? 0));
      expect(technicals.devMakerData.totalSoldAmount).toBe(stats.devSoldSupply);
      const buyers = technicals.initialBuyerStats;
      expect(buyers.length).toBeGreaterThan(0);
      expect(sum(buyers.map((b) => BigInt(b.buyAmount)))).toBe(BigInt(stats.initialTotalBoughtSupply));
      for (const buyer of buyers) {
        const holder = holders.find((h) => h.address === buyer.walletAddress);
        expect(buyer.sellAmount === null).toBe(buyer.initialBuyerType === 'HOLD');
        if (buyer.initialBuyerType === 'SELL_ALL') expect(holder?.currentlyHoldingAmount).toBe('0');
      }
    }
  });

  it('candles aggregate the trades: volume sums, OHLC bounds, order, countBack', () => {
    const address = listing.tokens[1]?.address ?? '';
    const trades = market.tokenTrades(address)?.tradeHistory ?? [];
    const to = market.now();
    const from = to - 3 * 86400;
    for (const intervalSecs of [1, 60, 3600, 86400]) {
      const candles = market.candles(address, { from, to, intervalSecs }) ?? [];
      const inRange = trades.filter((t) => t.timestamp >= from && t.timestamp <= to);
      const volume = inRange.reduce((s, t) => s + Number(t.tokenIn === address ? t.amountIn : t.amountOut) / 1e6, 0);
      expect(candles.reduce((s, c) => s + c.volume, 0)).toBeCloseTo(volume, 3);
      for (let i = 1; i < candles.length; i++) expect((candles[i]?.timestamp ?? 0) > (candles[i - 1]?.timestamp ?? 0)).toBe(true);
      const buckets = new Map<number, WireTrade[]>();
      for (const trade of inRange) {
        const start = Math.floor(trade.timestamp / intervalSecs) * intervalSecs * 1000;
        buckets.set(start, [...(buckets.get(start) ?? []), trade]);
      }
      expect(candles.length).toBe(buckets.size);
      for (const candle of candles) {
        expect(candle.timestamp % (intervalSecs * 1000)).toBe(0);
        expect(candle.time).toBe(new Date(candle.timestamp).toISOString());
        expect(candle.high).toBeGreaterThanOrEqual(Math.max(candle.open, candle.close));
        expect(candle.low).toBeLessThanOrEqual(Math.min(candle.open, candle.close));
        const bucket = buckets.get(candle.timestamp) ?? [];
        expect(bucket.length).toBeGreaterThan(0);
        const prices = bucket.map((t) => Number(t.suspectedBaseTokenPrice));
        expect(candle.high).toBeCloseTo(Math.max(...prices), 15);
        expect(candle.low).toBeCloseTo(Math.min(...prices), 15);
      }
      const last3 = market.candles(address, { from, to, intervalSecs, countBack: 3 }) ?? [];
      expect(last3).toEqual(candles.slice(-3));
    }
  });

  it('hostile tokens are there, marked, and carry each kind of hostile metadata', () => {
    const hostile = market.hostileTokens();
    expect(hostile.length).toBeGreaterThanOrEqual(8);
    expect(hostile.length).toBe(HOSTILE_METADATA.length);
    const tokens = hostile.map((address) => market.token(address)).filter((t): t is WireToken => t !== null);
    const text = tokens.map((t) => `${t.name} ${t.symbol}`).join(' ');
    for (const needle of [
      '@everyone',
      '@here',
      '<@&123456789012345678>',
      '<b>',
      '</a>',
      '<script>',
      '**',
      '__',
      '||',
      '`',
      '[x](javascript:alert(1))',
      '\u200B',
      '\uFEFF',
      '\u202E',
    ]) {
      expect(text).toContain(needle);
    }
    expect(tokens.some((t) => t.name.length === 300)).toBe(true);
    expect(tokens.some((t) => t.name === '' && t.symbol === '')).toBe(true);
    expect(tokens.some((t) => t.website?.startsWith('javascript:'))).toBe(true);
    expect(tokens.some((t) => t.logo.startsWith('data:'))).toBe(true);
    expect(tokens.some((t) => Object.values(t.links).some((link) => link.startsWith('data:')))).toBe(true);
    const empty = tokens.find((t) => t.name === '');
    expect(empty).toMatchObject({ description: null, website: null, ownerAddress: null, top10HoldersSupply: null });
    expect(empty?.riskAnalysis.mintAuthority).toBeNull();
    const listed = new Set(listing.tokens.map((t) => t.address));
    for (const address of hostile) expect(listed.has(address)).toBe(true);
  });
});

describe('live changes', () => {
  it('executeTrade updates pools, price, holders, makerData, candles and announces each change', () => {
    const market = new Market({ seed: 42, now: () => NOW + 60_000 });
    const address = market.tokenAddresses()[7] ?? '';
    const wallet = 'NewWa11etNewWa11etNewWa11etNewWa11etNewWa11e';
    const changes: MarketChange[] = [];
    const stop = market.onChange((change) => changes.push(change));
    const before = market.token(address);
    if (!before) throw new Error('token missing');
    const buy = market.executeTrade({ wallet, tokenAddress: address, side: 'buy', amountUSD: 5000 });
    const after = market.token(address);
    if (!after) throw new Error('token missing');
    expect(buy.tokenIn).toBe('So11111111111111111111111111111111111111112');
    expect(buy.tokenOut).toBe(address);
    expect(Number(buy.amountUSD)).toBeCloseTo(5000, 0);
    expect(buy.timestamp).toBe(Math.floor((NOW + 60_000) / 1000));
    expect(Number(after.holdersCount)).toBe(Number(before.holdersCount) + 1);
    const pool = after.liquidityPools[buy.poolAddress];
    const poolBefore = before.liquidityPools[buy.poolAddress];
    expect(BigInt(pool?.suspectedQuoteTokenReserves ?? 0) - BigInt(poolBefore?.suspectedQuoteTokenReserves ?? 0)).toBe(
      BigInt(buy.amountIn),
    );
    expect(BigInt(poolBefore?.suspectedBaseTokenReserves ?? 0) - BigInt(pool?.suspectedBaseTokenReserves ?? 0)).toBe(BigInt(buy.amountOut));
    expect(Number(pool?.suspectedBaseTokenPrice)).toBeGreaterThan(Number(poolBefore?.suspectedBaseTokenPrice));
    const holder = market.holder(address, wallet);
    expect(holder?.currentlyHoldingAmount).toBe(buy.amountOut);
    expect(buy.makerData.currentlyHoldingAmount).toBe(buy.amountOut);
    expect(market.tokenTrades(address, [wallet])?.tradeHistory).toEqual([buy]);
    const candle = market.currentCandle(address, 60);
    expect(candle?.close).toBeCloseTo(Number(buy.suspectedBaseTokenPrice), 15);

    const sell = market.executeTrade({ wallet, tokenAddress: address, side: 'sell', amountUSD: 1e9 });
    expect(sell.amountIn).toBe(buy.amountOut);
    expect(market.holder(address, wallet)?.currentlyHoldingAmount).toBe('0');
    expect(market.token(address)?.holdersCount).toBe(before.holdersCount);
    expect(sell.makerData.totalSellTransactions).toBe(1);
    expect(market.tokenTrades(address, [wallet])?.tradeHistory.map((t) => t.transactionHash)).toEqual([
      sell.transactionHash,
      buy.transactionHash,
    ]);

    expect(changes.map((c) => c.kind)).toEqual(['trade', 'candle', 'holder', 'token', 'trade', 'candle', 'holder', 'token']);
    const tokenChange = changes[3];
    expect(tokenChange?.kind === 'token' && tokenChange.fields).toEqual(expect.arrayContaining(['price', 'liquidity', 'holdersCount']));
    stop();
    market.executeTrade({ wallet, tokenAddress: address, side: 'buy', amountUSD: 10 });
    expect(changes.length).toBe(8);
  });

  it('rejects impossible trades with a MarketMutationError', () => {
    const market = new Market({ seed: 42, now: () => NOW });
    const address = market.tokenAddresses()[0] ?? '';
    const wallet = 'NobodyNobodyNobodyNobodyNobodyNobodyNobody1';
    expect(() => market.executeTrade({ wallet, tokenAddress: address, side: 'sell', amountUSD: 10 })).toThrow(MarketMutationError);
    expect(() => market.executeTrade({ wallet, tokenAddress: 'nope', side: 'buy', amountUSD: 10 })).toThrow(/unknown token/);
    expect(() => market.executeTrade({ wallet, tokenAddress: address, side: 'buy', amountUSD: -1 })).toThrow(/amountUSD/);
  });

  it('risk, liquidity, price and holder-share changes show in the token', () => {
    const market = new Market({ seed: 42, now: () => NOW });
    const address = market.tokenAddresses()[10] ?? '';
    expect(market.setRisk(address, { riskStatus: 'DANGER' }).riskStatus).toBe('DANGER');
    const flagged = market.setRisk(address, { riskStatus: null, riskAnalysis: { mintAuthority: market.wallets()[0] ?? null } });
    expect(flagged.riskStatus).toBe('DANGER');
    expect(flagged.riskAnalysis.mintAuthority).toBe(market.wallets()[0]);

    const before = market.token(address);
    const pulled = market.changeLiquidity(address, { factor: 0 });
    const mainBefore = Object.values(before?.liquidityPools ?? {}).sort(
      (a, b) => Number(b.suspectedQuoteTokenReserves) - Number(a.suspectedQuoteTokenReserves),
    )[0];
    const mainAfter = pulled.liquidityPools[mainBefore?.poolAddress ?? ''];
    expect(Number(mainAfter?.suspectedQuoteTokenReserves)).toBeLessThan(Number(mainBefore?.suspectedQuoteTokenReserves) / 100);
    expect(Number(mainAfter?.suspectedBaseTokenPrice)).toBeCloseTo(Number(mainBefore?.suspectedBaseTokenPrice), 8);

    const other = market.tokenAddresses()[11] ?? '';
    const priceBefore = market.technicals(other)?.tokenStats[0]?.priceNative ?? 0;
    market.movePrice(other, 50);
    expect((market.technicals(other)?.tokenStats[0]?.priceNative ?? 0) / priceBefore).toBeCloseTo(1.5, 2);
    market.movePrice(other, -40);
    expect((market.technicals(other)?.tokenStats[0]?.priceNative ?? 0) / priceBefore).toBeCloseTo(0.9, 2);

    const whale = 'Wha1eWha1eWha1eWha1eWha1eWha1eWha1eWha1eWha1';
    const holder = market.setHolderShare(other, whale, 12.5);
    const supply = BigInt(market.token(other)?.totalSupply ?? '0');
    expect(BigInt(holder.currentlyHoldingAmount)).toBe((supply * 125n) / 1000n);
    expect(holder.tags).toContain('whale');
    const token = market.token(other);
    const holders = market.holders(other) ?? [];
    const inPools = sum(Object.values(token?.liquidityPools ?? {}).map((p) => BigInt(p.suspectedBaseTokenReserves)));
    expect(sum(holders.map((h) => BigInt(h.currentlyHoldingAmount))) + inPools).toBeLessThanOrEqual(supply);
    expect(market.setHolderShare(other, whale, 0).currentlyHoldingAmount).toBe('0');
  });
});

describe('latestWalletTrades', () => {
  /**
   * The derivation it replaces (trades-live wallet snapshots): every token's trades of the wallet,
   * each built in full, newest first in trades-history's order, cut to `limit`.
   */
  function fromEveryToken(market: Market, wallet: string, limit: number): WireTrade[] {
    return market
      .tokenAddresses()
      .flatMap((address) => market.tokenTrades(address, [wallet], limit)?.tradeHistory ?? [])
      .sort(
        (a, b) =>
          b.timestamp - a.timestamp ||
          (a.makerData.tokenAddress < b.makerData.tokenAddress ? -1 : a.makerData.tokenAddress > b.makerData.tokenAddress ? 1 : 0) ||
          b.transactionIndex - a.transactionIndex ||
          (a.transactionHash < b.transactionHash ? -1 : a.transactionHash > b.transactionHash ? 1 : 0),
      )
      .slice(0, limit);
  }

  /** Shared wallets, and per token its deployer (transfers to insiders in its ledger), an insider and a one-token wallet. */
  function sampleWallets(market: Market): string[] {
    const sample = new Set(market.wallets());
    const shared = new Set(sample);
    for (const address of market.tokenAddresses().slice(0, 12)) {
      const token = market.token(address);
      if (token) sample.add(token.deployerAddress);
      const holders = market.holders(address) ?? [];
      const insider = holders.find((h) => h.tags.includes('insider'));
      if (insider) sample.add(insider.address);
      const plain = holders.find((h) => !shared.has(h.address) && h.totalSellTransactions > 0);
      if (plain) sample.add(plain.address);
    }
    return [...sample];
  }

  function expectSame(market: Market, wallets: readonly string[]): void {
    for (const wallet of wallets) {
      for (const limit of [20, 1, 7, Infinity]) {
        expect(market.latestWalletTrades(wallet, limit), `${wallet}, limit ${limit}`).toEqual(fromEveryToken(market, wallet, limit));
      }
    }
  }

  it('gives the trades the per-token derivation gives, from the generated history', () => {
    const market = new Market({ seed: 42, now: () => NOW });
    const wallets = sampleWallets(market);
    expect(wallets.length).toBeGreaterThan(60);
    expectSame(market, wallets);
    expect(market.latestWalletTrades(market.wallets()[0] ?? '', 20)).toHaveLength(20);
    expect(market.latestWalletTrades('NobodyNobodyNobodyNobodyNobodyNobodyNobody1', 20)).toEqual([]);
  });

  it('and after live trades, transfers and price moves, several in the same second', () => {
    let now = NOW + 60_000;
    const market = new Market({ seed: 7, now: () => now });
    const tokens = market.tokenAddresses();
    const [W1 = '', W2 = ''] = market.wallets();
    const fresh = 'FreshWa11etFreshWa11etFreshWa11etFreshWa11e';
    const token = (n: number): string => tokens[n] ?? '';
    // Same second: several trades of one wallet in one token and across tokens.
    for (const n of [0, 0, 3, 5, 3]) market.executeTrade({ wallet: W1, tokenAddress: token(n), side: 'buy', amountUSD: 40 + n });
    market.executeTrade({ wallet: W1, tokenAddress: token(3), side: 'sell', amountUSD: 20 });
    market.executeTrade({ wallet: fresh, tokenAddress: token(5), side: 'buy', amountUSD: 300 });
    now += 1_000;
    market.setHolderShare(token(5), fresh, 2);
    market.executeTrade({ wallet: fresh, tokenAddress: token(5), side: 'sell', amountUSD: 50 });
    market.executeTrade({ wallet: fresh, tokenAddress: token(9), side: 'buy', amountUSD: 80 });
    market.movePrice(token(9), 10, W2);
    market.movePrice(token(9), -5, W2);
    now += 5_000;
    market.executeTrade({ wallet: W2, tokenAddress: token(1), side: 'buy', amountUSD: 25 });
    market.executeTrade({ wallet: W1, tokenAddress: token(0), side: 'sell', amountUSD: 1e9 });
    expect(market.latestWalletTrades(fresh, 20)).toHaveLength(3);
    expectSame(market, [W1, W2, fresh, ...sampleWallets(market).slice(0, 20)]);
  });
});
