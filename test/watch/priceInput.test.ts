/**
 * What a price seen on the vendor's trades and candles may do to a token's price window: move it
 * when it is the deepest pool's, in SOL or in a unit that can be told; nothing otherwise.
 */
import { describe, expect, it } from 'vitest';
import type { TokenSnapshot } from '../../src/model/snapshot';
import { deepestPool, solPriceOf, type PriceSeen } from '../../src/watch/priceInput';

const DEEP = 'DeepPoo1111111111111111111111111111111111111';
const THIN = 'ThinPoo1111111111111111111111111111111111111';

function last(priceNative: number | null): TokenSnapshot {
  return {
    address: 'Token111111111111111111111111111111111111111',
    symbol: 'TOK',
    name: 'Token',
    riskStatus: 'SAFE',
    mintAuthority: null,
    freezeAuthority: null,
    isMutable: false,
    ownerBalance: null,
    pools: [
      { poolAddress: THIN, quoteReserves: '5000000000' },
      { poolAddress: DEEP, quoteReserves: '900000000000' },
    ],
    priceNative,
    priceUsd: null,
    holdersCount: 10,
    priceHistory: [],
    whales: {},
    seenAt: 0,
  };
}

const trade = (value: number, pool: string | null): PriceSeen => ({ value, unit: 'sol', usdPerSol: 150, pool, source: 'trade' });
const candle = (value: number): PriceSeen => ({ value, unit: 'unstated', usdPerSol: null, pool: null, source: 'candle' });

describe('a price seen on the vendor’s streams', () => {
  it('moves the window from the deepest pool’s trades only', () => {
    expect(deepestPool(last(0.001))).toBe(DEEP);
    expect(solPriceOf(trade(0.0012, DEEP), last(0.001), 150)).toBe(0.0012);
    expect(solPriceOf(trade(0.0013, THIN), last(0.001), 150)).toBeNull();
    // A trade naming no pool, or a token whose pools show no SOL, is taken as it is.
    expect(solPriceOf(trade(0.0012, null), last(0.001), 150)).toBe(0.0012);
    expect(solPriceOf(trade(0.0012, THIN), { ...last(0.001), pools: [] }, 150)).toBe(0.0012);
  });

  it('reads a candle as SOL or as USD, whichever lies near the last price, and guesses neither when both are far', () => {
    expect(solPriceOf(candle(0.00105), last(0.001), 150)).toBe(0.00105);
    // $0.1575 at $150 a SOL is 0.00105 SOL: read as USD, never as a +15,650% move.
    expect(solPriceOf(candle(0.1575), last(0.001), 150)).toBeCloseTo(0.00105, 10);
    expect(solPriceOf(candle(0.1575), last(0.001), null)).toBeNull();
    expect(solPriceOf(candle(5), last(0.001), 150)).toBeNull();
    expect(solPriceOf(candle(0.00105), last(null), 150)).toBeNull();
  });

  it('takes no price that is not a positive number', () => {
    for (const value of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(solPriceOf(trade(value, DEEP), last(0.001), 150)).toBeNull();
  });
});
