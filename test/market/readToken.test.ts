import { describe, expect, it } from 'vitest';
import { readTokenEnvelopeFast, readTokenFast } from '../../src/market/readToken';
import { TokenEnvelopeReadingSchema, TokenSchema } from '../../src/market/schemas';
import { Market } from 'tmds-simulator';
import { token, wireToken } from './stream/support/samples';

/** The hand-written reader must give exactly what the schema gives, or hand the value to it (null). */
function expectSameAsSchema(value: Record<string, unknown>): void {
  const fast = readTokenFast(value);
  const schema = TokenSchema.safeParse(value);
  if (fast === null) return;
  expect(schema.success).toBe(true);
  if (!schema.success) return;
  expect(fast).toStrictEqual(schema.data);
  expect(Object.keys(fast)).toEqual(Object.keys(schema.data));
}

const base = (): Record<string, unknown> => JSON.parse(JSON.stringify(wireToken(token(1)))) as Record<string, unknown>;

describe('readTokenFast', () => {
  it('reads the stream samples exactly as TokenSchema does', () => {
    const value = base();
    expect(readTokenFast(value)).not.toBeNull();
    expectSameAsSchema(value);
  });

  it('reads simulator tokens exactly as TokenSchema does', () => {
    const market = new Market({ seed: 7 });
    const addresses = market.tokenAddresses().slice(0, 50);
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) {
      const value = JSON.parse(JSON.stringify(market.token(address))) as Record<string, unknown>;
      expect(readTokenFast(value)).not.toBeNull();
      expectSameAsSchema(value);
    }
  });

  const nines = '9'.repeat(81);
  it.each<[string, (value: Record<string, unknown>) => void, 'fast' | 'schema']>([
    ['no address', (value) => delete value.address, 'schema'],
    ['an empty address', (value) => (value.address = ''), 'schema'],
    ['a numeric address', (value) => (value.address = 5), 'schema'],
    ['no decimals', (value) => delete value.decimals, 'schema'],
    ['an over-long total supply', (value) => (value.totalSupply = nines), 'schema'],
    ['an over-long numeric top-10 supply', (value) => (value.top10HoldersSupply = 1e90), 'schema'],
    ['an over-long owner balance', (value) => (value.riskAnalysis = { ownerBalance: nines }), 'schema'],
    ['a risk analysis that is a list', (value) => (value.riskAnalysis = [1]), 'schema'],
    ['pools as text', (value) => (value.liquidityPools = 'pools'), 'schema'],
    ['a pool that is a list', (value) => (value.liquidityPools = { p: [1, 2] }), 'schema'],
    [
      'numbers as text and text as numbers',
      (value) => Object.assign(value, { decimals: '6.7', holdersCount: '12', name: 42, symbol: null }),
      'fast',
    ],
    ['flags as text', (value) => (value.isVerifiedSourceCode = '1'), 'fast'],
    [
      'pools as a list, with junk',
      (value) => (value.liquidityPools = [{ poolAddress: 'p1', suspectedQuoteTokenReserves: '10' }, 3, null, { poolAddress: 5 }]),
      'fast',
    ],
    [
      'pools keyed by address',
      (value) => (value.liquidityPools = { p2: { token1Address: 'x', suspectedBaseTokenReserves: 7 }, p3: 'junk' }),
      'fast',
    ],
    ['a pool with over-long reserves', (value) => (value.liquidityPools = { p4: { suspectedQuoteTokenReserves: nines }, p5: {} }), 'fast'],
    ['links with junk', (value) => (value.links = { site: 'https://x', n: 1, o: {} }), 'fast'],
    ['a risk analysis of nulls', (value) => (value.riskAnalysis = null), 'fast'],
    ['an amount of exactly 80 digits', (value) => (value.totalSupply = '9'.repeat(80)), 'fast'],
    [
      'amounts with spaces, signs, zeros, fractions',
      (value) => Object.assign(value, { totalSupply: ' 12 ', top10HoldersSupply: '-5' }),
      'fast',
    ],
    ['an amount of 81 characters that is zeros first', (value) => (value.totalSupply = `0${'9'.repeat(80)}`), 'fast'],
    ['amounts as numbers and decimals', (value) => Object.assign(value, { totalSupply: 1e20, top10HoldersSupply: '12.9e3' }), 'fast'],
    [
      'pool reserves of every kind',
      (value) =>
        (value.liquidityPools = {
          a: { suspectedBaseTokenReserves: '9'.repeat(80) },
          b: { suspectedQuoteTokenReserves: ' 7' },
          c: { suspectedQuoteTokenReserves: 'x' },
        }),
      'fast',
    ],
    [
      'protocolData of every kind',
      (value) =>
        (value.liquidityPools = {
          d: {
            protocolData: { price0: 'NaN', price1: '4.49e-8', reserve0: '0', reserve1: 12, token0Address: 'a', lpInfo: { big: [1, 2] } },
          },
          e: { protocolData: { price0: {}, reserve0: nines, reserve1: '-3', token1Address: 5 } },
          f: { protocolData: [1] },
          g: { protocolData: 'x' },
          h: { protocolData: { id: 'no figures' } },
        }),
      'fast',
    ],
    ['extra fields', (value) => Object.assign(value, { partnerStats: { a: 1 }, extra: 'x' }), 'fast'],
  ])('%s: same as the schema', (_name, change, path) => {
    const value = base();
    change(value);
    const fast = readTokenFast(value);
    expect(fast === null ? 'schema' : 'fast').toBe(path);
    expectSameAsSchema(value);
  });
});

describe('readTokenEnvelopeFast', () => {
  const data = { a: { address: 'a' } };
  it.each<[string, unknown, 'fast' | 'schema']>([
    ['a plain envelope', { statusCode: 200, message: 'ok', data }, 'fast'],
    ['no data', { statusCode: 200 }, 'fast'],
    ['null data', { data: null }, 'fast'],
    ['figures as text, text as a figure, and keys the schema leaves out', { statusCode: '200', message: 5, data, extra: true }, 'fast'],
    ['a fractional status', { statusCode: 200.7, data }, 'fast'],
    ['data as a list', { data: [data] }, 'schema'],
    ['data as text', { data: 'tokens' }, 'schema'],
    ['a list', [data], 'schema'],
    ['null', null, 'schema'],
  ])('%s: read as the schema reads it, or left to it', (_what, value, by) => {
    const fast = readTokenEnvelopeFast(value);
    const schema = TokenEnvelopeReadingSchema.safeParse(value);
    expect(fast === null ? 'schema' : 'fast').toBe(by);
    if (fast === null) return;
    expect(schema.success).toBe(true);
    expect(fast).toStrictEqual(schema.data);
    expect(Object.keys(fast.value)).toEqual(Object.keys(schema.data?.value ?? {}));
    // The map is kept as it came, not copied.
    const given = (value as { data?: unknown }).data;
    if (given !== null && given !== undefined) expect(fast.value.data).toBe(given);
  });
});
