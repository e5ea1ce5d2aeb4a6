import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAmount, readDecimal } from '../../src/market/wire';
import {
  CandlesReadingSchema,
  CandlesSchema,
  HoldersReadingSchema,
  HoldersSchema,
  TechnicalsEnvelopeReadingSchema,
  TechnicalsEnvelopeSchema,
  TokenEnvelopeSchema,
  TokenSchema,
  TradeHistoryReadingSchema,
  TradeHistorySchema,
} from '../../src/market/schemas';

describe('readAmount', () => {
  it('keeps every digit of integer text, however large', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), (value) => {
        expect(readAmount(value.toString())).toBe(value);
      }),
    );
  });

  it('reads safe integers given as numbers exactly', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (value) => {
        expect(readAmount(value)).toBe(BigInt(value));
      }),
    );
  });

  it('truncates fractional and exponent forms toward zero', () => {
    expect(readAmount('12.99')).toBe(12n);
    expect(readAmount('-12.99')).toBe(-12n);
    expect(readAmount(1.5e21)).toBe(1_500_000_000_000_000_000_000n);
    expect(readAmount('2e3')).toBe(2000n);
  });

  it.each([null, undefined, '', 'abc', '12abc', NaN, Infinity, {}, []])('refuses %o', (value) => {
    expect(readAmount(value)).toBeNull();
  });
});

describe('readDecimal', () => {
  it('reads any finite double written as text', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(readDecimal(String(value))).toBe(value === 0 ? 0 : value);
      }),
    );
  });

  it.each([' 1.5 ', '.5', '1.', '+2'])('reads %s', (value) => {
    expect(readDecimal(value)).toBe(Number(value.trim()));
  });

  it.each(['', '0x10', '1,5', 'Infinity', true])('refuses %o', (value) => {
    expect(readDecimal(value)).toBeNull();
  });
});

describe('TokenSchema', () => {
  const minimal = { address: 'So11111111111111111111111111111111111111112', decimals: 9 };

  it('gives null for every absent nullable field and empty text for absent name and symbol', () => {
    const token = TokenSchema.parse(minimal);
    expect(token.name).toBe('');
    expect(token.symbol).toBe('');
    expect(token.website).toBeNull();
    expect(token.top10HoldersSupply).toBeNull();
    expect(token.riskAnalysis).toBeNull();
    expect(token.liquidityPools).toEqual([]);
    expect(token.links).toEqual({});
  });

  it('reads counts and amounts sent as strings or numbers alike', () => {
    const asText = TokenSchema.parse({ ...minimal, holdersCount: '1200', totalSupply: '1000000000000000' });
    const asNumbers = TokenSchema.parse({ ...minimal, holdersCount: 1200, totalSupply: 1e15 });
    expect(asText.holdersCount).toBe(1200);
    expect(asNumbers.holdersCount).toBe(1200);
    expect(asText.totalSupply).toBe(asNumbers.totalSupply);
  });

  it('turns the pool map into a list, keeps the pool address, and leaves an unreadable pool out', () => {
    const token = TokenSchema.parse({
      ...minimal,
      liquidityPools: {
        PoolA: { protocol: 'raydium', suspectedBaseTokenReserves: '500', suspectedBaseTokenPrice: '0.1' },
        PoolB: 'garbage',
      },
    });
    expect(token.liquidityPools).toHaveLength(1);
    expect(token.liquidityPools[0]).toMatchObject({ poolAddress: 'PoolA', suspectedBaseTokenReserves: 500n, suspectedBaseTokenPrice: 0.1 });
  });

  it('refuses a token without an address', () => {
    expect(TokenSchema.safeParse({ decimals: 6 }).success).toBe(false);
  });

  it('keeps the envelope data raw so that one bad token is handled alone', () => {
    const envelope = TokenEnvelopeSchema.parse({ statusCode: 200, message: null, data: { a: { address: 'a', decimals: 6 }, b: 'nope' } });
    expect(Object.keys(envelope.data)).toEqual(['a', 'b']);
    expect(TokenSchema.safeParse(envelope.data.b).success).toBe(false);
  });
});

describe('TechnicalsEnvelopeSchema', () => {
  it('reads tokenStats and devMakerData as object or array, initialBuyerStats as array or object', () => {
    const fromArrays = TechnicalsEnvelopeSchema.parse({
      data: {
        overtimeTechnicals: [],
        tokenStats: [{ devDeployedTokens: ['x', 'y'], isDevRug: 'false' }],
        devMakerData: [{ totalBuyTransactions: '3' }],
        initialBuyerStats: [{ walletAddress: 'w', initialBuyerType: 'HOLD', sniper: 1 }],
      },
    });
    const fromObjects = TechnicalsEnvelopeSchema.parse({
      overtimeTechnicals: [],
      tokenStats: { devDeployedTokens: 2, isDevRug: false },
      devMakerData: { totalBuyTransactions: 3 },
      initialBuyerStats: { walletAddress: 'w', initialBuyerType: 'HOLD', sniper: true },
    });
    expect(fromArrays.tokenStats?.devDeployedTokensCount).toBe(2);
    expect(fromObjects.tokenStats?.devDeployedTokensCount).toBe(2);
    expect(fromArrays.tokenStats?.isDevRug).toBe(false);
    expect(fromArrays.devMakerData?.totalBuyTransactions).toBe(3);
    expect(fromObjects.devMakerData?.totalBuyTransactions).toBe(3);
    expect(fromArrays.initialBuyerStats).toEqual(fromObjects.initialBuyerStats);
  });

  it('sorts the points most recent first and keys top-N maps by number', () => {
    const technicals = TechnicalsEnvelopeSchema.parse({
      overtimeTechnicals: [
        { syncedAt: '2026-01-01T00:00:00Z', topHoldersSupplyPerc: { '10': '40.5', '100': 90 } },
        { syncedAt: '2026-01-02T00:00:00Z', topHoldersSupplyPerc: { '10': 41 } },
      ],
    });
    expect(technicals.overtimeTechnicals.map((point) => point.syncedAt)).toEqual(['2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z']);
    expect([...(technicals.overtimeTechnicals[1]?.topHoldersSupplyPerc.entries() ?? [])]).toEqual([
      [10, 40.5],
      [100, 90],
    ]);
  });
});

describe('lists', () => {
  const trade = (timestamp: number) => ({
    timestamp,
    transactionHash: `t${timestamp}`,
    tokenIn: 'a',
    tokenOut: 'b',
    amountIn: '1',
    amountOut: 2,
  });
  const candle = (timestamp: number) => ({ timestamp, open: 1, high: 1, low: 1, close: 1, volume: '2' });

  it('reads holders as a bare array and refuses anything else', () => {
    expect(HoldersSchema.parse([{ address: 'h', currentlyHoldingAmount: '10' }])[0]?.currentlyHoldingAmount).toBe(10n);
    expect(HoldersSchema.safeParse({ error: 'x' }).success).toBe(false);
  });

  it('leaves out an unreadable holder, trade, candle, initial buyer or metadata entry and reports where', () => {
    const holders = HoldersReadingSchema.parse([
      { address: 'h1', currentlyHoldingAmount: '10' },
      { address: 'h2' },
      null,
      { address: 'h3', currentlyHoldingAmount: 3 },
    ]);
    expect(holders.value.map((holder) => holder.address)).toEqual(['h1', 'h3']);
    expect(holders.dropped).toBe(2);
    expect(holders.examples).toEqual([
      { path: 'holders.1', reason: expect.stringMatching(/^currentlyHoldingAmount: expected an amount/) },
      { path: 'holders.2', reason: expect.any(String) },
    ]);
    expect(HoldersReadingSchema.parse({ data: [{ address: 'h' }] }).examples).toEqual([{ path: 'data.0', reason: expect.any(String) }]);

    const trades = TradeHistoryReadingSchema.parse({
      tradeHistory: [trade(1), { ...trade(2), amountIn: 'lots' }, trade(3)],
      tokensMetadata: { good: { symbol: 'G' }, bad: 'nope' },
    });
    expect(trades.value.tradeHistory.map((item) => item.timestamp)).toEqual([3, 1]);
    expect([...trades.value.tokensMetadata.keys()]).toEqual(['good']);
    expect(trades.examples.map((item) => item.path)).toEqual(['tradeHistory.1', 'tokensMetadata.bad']);

    const candles = CandlesReadingSchema.parse({ candles: [candle(2), { ...candle(1), open: null }] });
    expect(candles.value.map((item) => item.timestamp)).toEqual([2]);
    expect(CandlesReadingSchema.parse([candle(1), 'x']).examples).toEqual([{ path: 'candles.1', reason: expect.any(String) }]);

    const technicals = TechnicalsEnvelopeReadingSchema.parse({
      data: {
        overtimeTechnicals: [{ holdersCount: 3 }, 7],
        initialBuyerStats: [{ initialBuyerType: 'HOLD' }, { walletAddress: 'w', initialBuyerType: 'SELL_ALL' }],
      },
    });
    expect(technicals.value.initialBuyerStats.map((buyer) => buyer.walletAddress)).toEqual(['w']);
    expect(technicals.value.overtimeTechnicals).toHaveLength(1);
    expect(technicals.examples.map((item) => item.path)).toEqual(['overtimeTechnicals.1', 'initialBuyerStats.0']);
    // A single initial buyer sent as an object is a list of one, left out the same way.
    expect(TechnicalsEnvelopeReadingSchema.parse({ initialBuyerStats: { sniper: true } }).dropped).toBe(1);
    // The plain schemas give the same value without the report.
    expect(TradeHistorySchema.parse({ tradeHistory: [trade(1), { nonsense: true }] }).tradeHistory).toHaveLength(1);
  });

  it('still refuses an answer whose own shape is wrong', () => {
    expect(TradeHistoryReadingSchema.safeParse({ tradeHistory: 'none' }).success).toBe(false);
    expect(TradeHistoryReadingSchema.safeParse([trade(1)]).success).toBe(false);
    expect(CandlesReadingSchema.safeParse({ candles: { open: 1 } }).success).toBe(false);
    expect(CandlesReadingSchema.safeParse('candles').success).toBe(false);
    expect(HoldersReadingSchema.safeParse({ data: 'x' }).success).toBe(false);
    expect(TechnicalsEnvelopeReadingSchema.safeParse({ initialBuyerStats: 'HOLD' }).success).toBe(false);
    expect(TechnicalsEnvelopeReadingSchema.safeParse({ overtimeTechnicals: 3 }).success).toBe(false);
  });

  it('sorts trades newest first and candles oldest first whatever order they came in', () => {
    const history = TradeHistorySchema.parse({ tradeHistory: [trade(1), trade(3), trade(2)] });
    expect(history.tradeHistory.map((item) => item.timestamp)).toEqual([3, 2, 1]);
    expect(TradeHistorySchema.parse({}).tradeHistory).toEqual([]);
    expect(CandlesSchema.parse({ candles: [candle(3), candle(1)] }).map((item) => item.timestamp)).toEqual([1, 3]);
  });
});
