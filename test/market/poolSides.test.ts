/**
 * Which side of a pool is SOL: one answer for the card, the alerts and the detectors, whatever
 * order the pool lists its two tokens in and whether or not it names its suspected base.
 */
import { describe, expect, it } from 'vitest';
import { poolQuoteSides, poolSides } from '../../src/market/poolSides';
import { LiquidityPoolSchema } from '../../src/market/schemas';
import { RECORDED_TOKEN, WSOL, recordedPool } from '../support/recordedStyle';

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

/**
 * A pool as the recordings have it: none of the four suspected figures, its price and reserves in
 * protocolData by position (price0 = token1 per whole token0, price1 its reciprocal).
 */
function protocolPool(options: {
  tokenIs0: boolean;
  quote?: string;
  data: Record<string, unknown>;
  base?: string | null;
}): Record<string, unknown> {
  const quote = options.quote ?? WSOL;
  const quoteDecimals = quote === WSOL ? 9 : 6;
  const [token0Address, token1Address] = options.tokenIs0 ? [RECORDED_TOKEN, quote] : [quote, RECORDED_TOKEN];
  return {
    poolAddress: '8Vz3kTfQw2MxNc6Hd9Jb5Ls4Pr7Gy1Ae3Wq5Ut8Yn2Ko',
    // The two mints sorted: it never decides a side.
    pairId: [RECORDED_TOKEN, quote].sort().join('_'),
    protocol: 'METEORA_DLMM',
    token0Address,
    token1Address,
    token0Decimals: options.tokenIs0 ? 6 : quoteDecimals,
    token1Decimals: options.tokenIs0 ? quoteDecimals : 6,
    protocolData: { token0Address, token1Address, ...options.data },
    ...(options.base === null ? {} : { suspectedBaseToken: options.base ?? RECORDED_TOKEN }),
  };
}

describe('poolSides from protocolData', () => {
  it('reads price0 when the token is token0, price1 when it is token1, and the reserves by position', () => {
    const first = sidesOf(
      protocolPool({ tokenIs0: true, data: { price0: '0.25', price1: '4', reserve0: '8000000', reserve1: '2000000000' } }),
    );
    expect(first).toEqual({ solReserves: 2000000000n, tokenReserves: 8000000n, tokenDecimals: 6, priceSol: 0.25 });
    const second = sidesOf(
      protocolPool({ tokenIs0: false, data: { price0: '4', price1: '0.25', reserve0: '2000000000', reserve1: '8000000' } }),
    );
    expect(second).toEqual(first);
  });

  it('takes the reciprocal of the other price when the token’s own is missing, and the reserves when both are', () => {
    expect(sidesOf(protocolPool({ tokenIs0: true, data: { price0: 'NaN', price1: '4', reserve0: '1', reserve1: '1' } }))?.priceSol).toBe(
      0.25,
    );
    const reserves = sidesOf(protocolPool({ tokenIs0: true, data: { reserve0: '8000000', reserve1: '2000000000' } }));
    expect(reserves?.priceSol).toBe(0.25);
  });

  it('"NaN" prices with zero reserves are unknown; zero reserves with a price are an empty pool without a price', () => {
    const unread = sidesOf(protocolPool({ tokenIs0: true, data: { price0: 'NaN', price1: 'NaN', reserve0: '0', reserve1: '0' } }));
    expect(unread).toEqual({ solReserves: null, tokenReserves: null, tokenDecimals: 6, priceSol: null });
    const empty = sidesOf(protocolPool({ tokenIs0: true, data: { price0: '0.0003', price1: '3333', reserve0: '0', reserve1: '0' } }));
    expect(empty).toEqual({ solReserves: 0n, tokenReserves: 0n, tokenDecimals: 6, priceSol: null });
  });

  it('never takes a USDC pool’s figures as SOL: the quote and its units come from the positions', () => {
    const raw = protocolPool({
      tokenIs0: true,
      quote: USDC,
      data: { price0: '0.12', price1: '8.3', reserve0: '1000000', reserve1: '120000' },
    });
    expect(sidesOf(raw)).toBeNull();
    const sides = poolQuoteSides(TOKEN, LiquidityPoolSchema.parse(raw));
    expect(sides).toMatchObject({ quoteReserves: 120000n, tokenReserves: 1000000n, price: 0.12 });
    expect(sides?.quote).toMatchObject({ symbol: 'USDC', unit: 'USD', decimals: 6 });
  });

  it('distrusts a pool whose suspected base is neither side, and protocolData that names other positions', () => {
    const data = { price0: '0.25', price1: '4', reserve0: '8000000', reserve1: '2000000000' };
    expect(sidesOf(protocolPool({ tokenIs0: true, data, base: USDC }))).toBeNull();
    expect(sidesOf(protocolPool({ tokenIs0: true, data, base: null }))?.priceSol).toBe(0.25);
    const crossed = protocolPool({ tokenIs0: true, data: { ...data, token0Address: WSOL, token1Address: RECORDED_TOKEN } });
    expect(sidesOf(crossed)).toEqual({ solReserves: null, tokenReserves: null, tokenDecimals: 6, priceSol: null });
  });

  it('prefers the suspected figures when the pool has them', () => {
    const raw = { ...recordedPool({ tokenSide: 'token1' }) };
    raw.protocolData = { price0: '1', price1: '1', reserve0: '5', reserve1: '5' };
    expect(sidesOf(raw)?.priceSol).toBe(0.00000020911685541634);
  });
});
