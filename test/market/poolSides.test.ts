/**
 * Which side of a pool is SOL: one answer for the card, the alerts and the detectors, whatever
 * order the pool lists its two tokens in and whether or not it names its suspected base.
 */
import { describe, expect, it } from 'vitest';
import { poolSides } from '../../src/market/poolSides';
import { LiquidityPoolSchema } from '../../src/market/schemas';
import { RECORDED_TOKEN, recordedPool } from '../support/recordedStyle';

const TOKEN = { address: RECORDED_TOKEN, decimals: 6 };
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

function sidesOf(raw: Record<string, unknown>) {
  return poolSides(TOKEN, LiquidityPoolSchema.parse(raw));
}

describe('poolSides', () => {
  it.each([
    ['the token as token1, SOL as token0, the token named suspected base (as recorded)', { tokenSide: 'token1', names: true }],
    ['the token as token0, SOL as token1, the token named suspected base', { tokenSide: 'token0', names: true }],
    ['the token as token0, SOL as token1, no names (the spec’s table, the simulator’s first style)', { tokenSide: 'token0', names: false }],
    ['the token as token1, SOL as token0, no names', { tokenSide: 'token1', names: false }],
  ] as const)('%s: 59.64 SOL against 285M tokens', (_name, options) => {
    const sides = sidesOf(recordedPool(options));
    expect(sides).not.toBeNull();
    expect(sides?.solReserves).toBe(59641293545n);
    expect(sides?.tokenReserves).toBe(285205577648238n);
    expect(sides?.tokenDecimals).toBe(6);
    expect(sides?.priceSol).toBe(0.00000020911685541634);
  });

  it('reads SOL named as the suspected base: its reserves and the quote price are the token’s other side', () => {
    const raw = {
      ...recordedPool({ tokenSide: 'token0' }),
      suspectedBaseToken: 'So11111111111111111111111111111111111111112',
      suspectedQuoteToken: RECORDED_TOKEN,
      suspectedBaseTokenReserves: '59641293545',
      suspectedQuoteTokenReserves: '285205577648238',
      suspectedBaseTokenPrice: '4782015.29001122806221246719',
      suspectedQuoteTokenPrice: '0.00000020911685541634',
    };
    const sides = sidesOf(raw);
    expect(sides?.solReserves).toBe(59641293545n);
    expect(sides?.tokenReserves).toBe(285205577648238n);
    expect(sides?.priceSol).toBe(0.00000020911685541634);
  });

  it('prices from the reserves when the service sent no price', () => {
    const sides = sidesOf({ ...recordedPool(), suspectedBaseTokenPrice: null, suspectedQuoteTokenPrice: null });
    expect(sides?.priceSol).toBeCloseTo(59.641293545 / 285205577.648238, 15);
  });

  it('gives no SOL side for a pool against another token, or one that names neither side', () => {
    expect(sidesOf({ ...recordedPool({ tokenSide: 'token0' }), token1Address: USDC, suspectedQuoteToken: USDC })).toBeNull();
    expect(sidesOf({ ...recordedPool(), suspectedBaseToken: USDC, suspectedQuoteToken: RECORDED_TOKEN })).toBeNull();
  });
});
