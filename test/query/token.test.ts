import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answered, commandContext } from '../support/commandContext';
import tokenCommand from '../../commands/token';
import { type Card, plainText } from '../../src/cards/card';
import { percent, price, sol, usd } from '../../src/text/format';
import { NAME_MAX, SYMBOL_MAX } from '../../src/cards/tokenFacts';
import type { CommandContext } from '../../src/dispatch/command';
import { UsageError, parseCommandLine } from '../../src/dispatch/parseArgs';
import { checkCommand } from '../../src/dispatch/registry';
import { isMarketError } from '../../src/market/errors';
import { TradeSchema } from '../../src/market/schemas';
import { tokenCard } from '../../src/query/tokenQuery';
import { forgetUsdRate, rateFromTrades, solUsdRate } from '../../src/query/usdRate';
import type { WireHolder, WireTokenEnvelope, WireTradeResponse } from 'tmds-simulator';
import { expectSafeCard } from '../support/cardSafety';
import { TEST_API_KEY, type TestMarket, startTestMarket } from '../support/market';
import { MarketClient } from '../../src/market/client';
import { silentLogger } from '../../src/log';

const NOW = new Date('2025-01-15T12:00:00Z');
const UNKNOWN_ADDRESS = 'UnknownAddressUnknownAddressUnknownAddress1';
const WSOL = 'So11111111111111111111111111111111111111112';

let market: TestMarket;

beforeAll(async () => {
  market = await startTestMarket({ simulator: { now: () => NOW.getTime() }, now: () => NOW });
});

afterAll(async () => {
  await market.close();
});

function fieldText(card: Card, name: string): string {
  const found = card.fields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name} in ${card.fields.map((f) => f.name).join(', ')}`);
  return plainText(found.value);
}

/** The SOL→USD rate read straight from the REST data: newest trade among the ten largest holders. */
async function rawRate(address: string): Promise<number> {
  const holders = await market.raw<WireHolder[]>(`/api/holders-history?address=${address}`);
  const wallets = holders.slice(0, 10).map((h) => h.address);
  const trades = await market.raw<WireTradeResponse>(`/api/trades-history?baseToken=${address}&wallets=${wallets.join(',')}`);
  const newest = [...trades.tradeHistory].sort((a, b) => b.timestamp - a.timestamp)[0];
  if (!newest) throw new Error('no trades');
  return Number(newest.suspectedBaseTokenPriceUSD) / Number(newest.suspectedBaseTokenPrice);
}

describe('/token against the simulator', () => {
  it('derives the SOL→USD rate from the newest trade of the top holders, and keeps it briefly', async () => {
    const address = market.listing.tokens[0]?.address ?? '';
    forgetUsdRate(market.client);
    const expected = await rawRate(address);
    expect(expected).toBeCloseTo(market.sim.market.solUsd, 6);
    expect(await solUsdRate(market.client, address)).toBeCloseTo(expected, 9);
    const before = market.client.stats();
    expect(await solUsdRate(market.client, market.listing.tokens[1]?.address ?? '')).toBeCloseTo(expected, 9);
    const after = market.client.stats();
    expect(after['holders-history'].requests).toBe(before['holders-history'].requests);
    expect(after['trades-history'].requests).toBe(before['trades-history'].requests);
  });

  it('gives no rate, and no error, when none can be derived', async () => {
    forgetUsdRate(market.client);
    expect(await solUsdRate(market.client, UNKNOWN_ADDRESS)).toBeNull();
  });

  it('agrees with token-data for every listed token: price, market cap, liquidity, holders, top-10 share', async () => {
    forgetUsdRate(market.client);
    const rate = await rawRate(market.listing.tokens[0]?.address ?? '');
    for (const { address } of market.listing.tokens) {
      const envelope = await market.raw<WireTokenEnvelope>(`/api/token-data?address=${address}`);
      const raw = envelope.data[address];
      if (!raw) throw new Error(`no token ${address}`);
      const card = await tokenCard(market.client, address, NOW);

      const pools = Object.values(raw.liquidityPools).filter((p) => p.token1Address === WSOL);
      const liquidity = pools.reduce((sum, p) => sum + Number(p.suspectedQuoteTokenReserves) / 1e9, 0);
      const deepest = [...pools].sort((a, b) => Number(b.suspectedQuoteTokenReserves) - Number(a.suspectedQuoteTokenReserves))[0];
      const supply = Number(raw.totalSupply) / 10 ** raw.decimals;

      expect(fieldText(card, 'Holders')).toBe(Number(raw.holdersCount).toLocaleString('en-US'));
      expect(fieldText(card, 'Top 10 Holders')).toBe(
        raw.top10HoldersSupply === null ? '—' : percent((Number(raw.top10HoldersSupply) / Number(raw.totalSupply)) * 100),
      );
      if (deepest === undefined) {
        expect(fieldText(card, 'Price')).toBe('—');
        continue;
      }
      const p = Number(deepest.suspectedBaseTokenPrice);
      expect(fieldText(card, 'Liquidity')).toBe(`${usd(liquidity * rate)} · ${sol(liquidity)}`);
      expect(fieldText(card, 'Price')).toBe(`${usd(p * rate)} · ${price(p)} SOL`);
      expect(fieldText(card, 'Market Cap')).toBe(`${usd(p * supply * rate)} · ${sol(p * supply)}`);
      expect(card.color).toBe(raw.riskStatus.toLowerCase());
    }
  });

  it('agrees with the technicals’ own price and liquidity (tokenStats.priceNative, liquidityNative)', async () => {
    for (const { address } of market.listing.tokens.slice(0, 5)) {
      const raw = await market.raw<{ data: { tokenStats: Array<{ priceNative: number; liquidityNative: number }> } }>(
        `/api/token-technicals?address=${address}`,
      );
      const stats = raw.data.tokenStats[0];
      if (!stats) throw new Error('no tokenStats');
      const card = await tokenCard(market.client, address, NOW);
      expect(fieldText(card, 'Liquidity')).toContain(sol(stats.liquidityNative));
      expect(fieldText(card, 'Price')).toContain(`${price(stats.priceNative)} SOL`);
    }
  });

  it('builds a safe card for every hostile token', async () => {
    const hostile = market.sim.market.hostileTokens();
    expect(hostile.length).toBeGreaterThan(0);
    for (const address of hostile) {
      const card = await tokenCard(market.client, address, NOW);
      expectSafeCard(card, { titleMax: NAME_MAX + SYMBOL_MAX + 3 });
      expect(card.fields.length).toBeGreaterThan(0);
    }
  });

  it('fails as not-found for an unknown well-formed address, which the service turns into a card', async () => {
    const error = await tokenCard(market.client, UNKNOWN_ADDRESS, NOW).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isMarketError(error) && error.kind).toBe('not-found');
    const card = await answered(market.query.token(UNKNOWN_ADDRESS));
    expect(card.color).toBe('error');
  });
});

describe('/token price changes and volume from the day’s candles', () => {
  interface RawCandle {
    timestamp: number;
    open: number;
    close: number;
    volume: number;
  }
  const FIVE_MIN = 300_000;

  /** The day's 5-minute candles as the service sends them, from the boundary the card asks from. */
  async function rawCandles(address: string): Promise<RawCandle[]> {
    const from = Math.floor((NOW.getTime() / 1000 - 86_400) / 300) * 300 - 300;
    const body = await market.raw<{ candles: Array<Record<string, string | number>> }>(
      `/api/chart-history?base=${address}&from=${from}&intervalSecs=300`,
    );
    return body.candles.map((c) => ({
      timestamp: Number(c.timestamp),
      open: Number(c.open),
      close: Number(c.close),
      volume: Number(c.volume),
    }));
  }

  it('shows the change over each window against the close of the last candle before it, and the day’s volume', async () => {
    forgetUsdRate(market.client);
    const rate = await rawRate(market.listing.tokens[0]?.address ?? '');
    let compared = 0;
    for (const { address } of market.listing.tokens.slice(0, 12)) {
      const envelope = await market.raw<WireTokenEnvelope>(`/api/token-data?address=${address}`);
      const created = envelope.data[address]?.creationBlockTimestamp ?? null;
      const candles = await rawCandles(address);
      const card = await tokenCard(market.client, address, NOW);
      const shown = fieldText(card, 'Price change').split(' · ');
      const newest = candles[candles.length - 1];
      const windows: Array<[string, number]> = [
        ['5m', 300],
        ['1h', 3600],
        ['6h', 21_600],
        ['24h', 86_400],
      ];
      windows.forEach(([label, secs], index) => {
        const start = NOW.getTime() - secs * 1000;
        if (created !== null && Number(created) * 1000 > start) {
          expect(shown[index]).toMatch(new RegExp(`^${label}: token is .+ old$`));
          return;
        }
        const before = candles.filter((c) => c.timestamp + FIVE_MIN <= start).at(-1);
        const reference = before?.close ?? candles.find((c) => c.timestamp >= start)?.open;
        if (newest === undefined || reference === undefined) return;
        expect(shown[index]).toBe(`${label} ${percent(((newest.close - reference) / reference) * 100, { signed: true })}`);
        compared += 1;
      });
      const day = candles.filter((c) => c.timestamp >= NOW.getTime() - 86_400_000);
      const volumeSol = day.reduce((sum, c) => sum + c.volume * c.close, 0);
      expect(fieldText(card, 'Volume 24h')).toBe(`${usd(volumeSol * rate)} · ${sol(volumeSol)}`);
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('says how old a token younger than a window is', async () => {
    let young = 0;
    for (const { address } of market.listing.tokens) {
      const envelope = await market.raw<WireTokenEnvelope>(`/api/token-data?address=${address}`);
      const created = Number(envelope.data[address]?.creationBlockTimestamp);
      if (!(created * 1000 > NOW.getTime() - 86_400_000)) continue;
      const card = await tokenCard(market.client, address, NOW);
      expect(fieldText(card, 'Price change')).toMatch(/ · 24h: token is \d+h( \d+m)? old$/);
      young += 1;
    }
    expect(young).toBeGreaterThan(0);
  });

  it('costs one chart-history request, cached with the token, and answers without it when it fails', async () => {
    const client = new MarketClient({ baseUrl: market.sim.baseUrl, apiKey: TEST_API_KEY, logger: silentLogger });
    try {
      const address = market.listing.tokens[3]?.address ?? '';
      await tokenCard(client, address, NOW);
      expect(client.stats()['chart-history'].requests).toBe(1);
      await tokenCard(client, address, NOW);
      expect(client.stats()['chart-history'].requests).toBe(1);

      market.sim.faults.set({ 'chart-history': { error500Rate: 1 } });
      const card = await tokenCard(client, market.listing.tokens[5]?.address ?? '', NOW);
      expect(fieldText(card, 'Price change')).toBe('unavailable (the chart data could not be read)');
      expect(fieldText(card, 'Price')).toContain('SOL');
    } finally {
      market.sim.faults.clear();
      await client.close();
    }
  });
});

describe('the token command', () => {
  it('is a valid definition that parses an address and rejects anything else', () => {
    checkCommand(tokenCommand, 'token.ts');
    const address = market.listing.tokens[0]?.address ?? '';
    expect(parseCommandLine(`/token ${address}`, [tokenCommand])?.args).toEqual({ address });
    expect(() => parseCommandLine('/token not-an-address', [tokenCommand])).toThrow(UsageError);
    expect(tokenCommand.help).toMatch(/Example: \/token /);
  });

  it('runs the query service', async () => {
    const address = market.listing.tokens[0]?.address ?? '';
    const ctx: CommandContext = commandContext({ query: market.query, commands: [tokenCommand], now: () => NOW });
    const card = await tokenCommand.run({ address }, ctx);
    expect(card).toEqual(await tokenCard(market.client, address, NOW));
  });
});

describe('rateFromTrades', () => {
  const trade = (timestamp: number, tokenIn: string, tokenOut: string, priceSol: string, priceUsd: string) =>
    TradeSchema.parse({
      timestamp,
      transactionHash: `h${timestamp}`,
      tokenIn,
      tokenOut,
      amountIn: '1',
      amountOut: '1',
      suspectedBaseTokenPrice: priceSol,
      suspectedBaseTokenPriceUSD: priceUsd,
    });
  const T = '646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25';
  const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

  it('reads the newest SOL trade that carries both prices', () => {
    expect(rateFromTrades([trade(1, WSOL, T, '0.001', '0.15'), trade(3, T, USDC, '2', '2'), trade(2, T, WSOL, '0.002', '0')])).toBeCloseTo(
      150,
      9,
    );
    expect(rateFromTrades([trade(2, WSOL, T, '0.002', '0.4'), trade(1, WSOL, T, '0.001', '0.15')])).toBeCloseTo(200, 9);
    expect(rateFromTrades([])).toBeNull();
  });
});
