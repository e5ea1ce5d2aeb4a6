import { describe, expect, it } from 'vitest';
import { parseHolder, readHolderFast } from '../../src/market/readHolder';
import { HolderSchema } from '../../src/market/schemas';
import { Market } from 'tmds-simulator';
import { wireHolder } from './stream/support/samples';

/** The hand-written reader must give exactly what the schema gives, or hand the value to it (null). */
function expectSameAsSchema(value: Record<string, unknown>): void {
  const fast = readHolderFast(value);
  const schema = HolderSchema.safeParse(value);
  if (fast === null) return;
  expect(schema.success).toBe(true);
  if (!schema.success) return;
  expect(fast).toStrictEqual(schema.data);
  expect(Object.keys(fast)).toEqual(Object.keys(schema.data));
}

const base = (): Record<string, unknown> =>
  JSON.parse(JSON.stringify(wireHolder('token-a', 'wallet-b', '25236610160794'))) as Record<string, unknown>;

describe('readHolderFast', () => {
  it('reads the stream sample exactly as HolderSchema does', () => {
    const value = base();
    expect(readHolderFast(value)).not.toBeNull();
    expectSameAsSchema(value);
  });

  it('reads simulator holders exactly as HolderSchema does', () => {
    const market = new Market({ seed: 7 });
    const [address = ''] = market.tokenAddresses();
    const holders = market.holders(address) ?? [];
    expect(holders.length).toBeGreaterThan(0);
    for (const holder of holders.slice(0, 50)) {
      const value = JSON.parse(JSON.stringify(holder)) as Record<string, unknown>;
      expect(readHolderFast(value)).not.toBeNull();
      expectSameAsSchema(value);
    }
  });

  const nines = '9'.repeat(81);
  it.each<[string, (value: Record<string, unknown>) => void, 'fast' | 'schema']>([
    ['no address', (value) => delete value.address, 'schema'],
    ['a numeric address', (value) => (value.address = 5), 'schema'],
    ['an empty address', (value) => (value.address = ''), 'fast'],
    ['no holding', (value) => delete value.currentlyHoldingAmount, 'schema'],
    ['a holding that is no number', (value) => (value.currentlyHoldingAmount = 'lots'), 'schema'],
    ['an over-long holding', (value) => (value.currentlyHoldingAmount = nines), 'schema'],
    ['an over-long amount sold', (value) => (value.totalSoldAmount = nines), 'schema'],
    ['an over-long numeric amount sent', (value) => (value.sent = 1e90), 'schema'],
    ['a holding as a number, with a fraction', (value) => (value.currentlyHoldingAmount = 1234.9), 'fast'],
    [
      'a holding with spaces, a sign or an exponent',
      (value) => Object.assign(value, { currentlyHoldingAmount: ' 12 ', sent: '-5', received: '1.5e3' }),
      'fast',
    ],
    ['an amount of exactly 80 digits', (value) => (value.nativeBalance = '9'.repeat(80)), 'fast'],
    [
      'numbers as text and text as numbers',
      (value) => Object.assign(value, { chainId: '1', holderSince: '17.9', totalBoughtUSD: '20.5', tokenAddress: 7, syncedAt: 12 }),
      'fast',
    ],
    ['tags with junk, and tags as text', (value) => Object.assign(value, { tags: ['dev', 3, null, 'whale'] }), 'fast'],
    ['tags that are no list', (value) => (value.tags = 'dev'), 'fast'],
    [
      'every optional field left out',
      (value) => {
        for (const key of Object.keys(value)) if (key !== 'address' && key !== 'currentlyHoldingAmount') delete value[key];
      },
      'fast',
    ],
    [
      'nulls',
      (value) => Object.assign(value, { chainId: null, totalBoughtAmount: null, totalBoughtETH: null, tags: null, syncedAt: null }),
      'fast',
    ],
    ['extra fields', (value) => Object.assign(value, { label: 'x', extra: { a: 1 } }), 'fast'],
  ])('%s: same as the schema', (_name, change, path) => {
    const value = base();
    change(value);
    const fast = readHolderFast(value);
    expect(fast === null ? 'schema' : 'fast').toBe(path);
    expectSameAsSchema(value);
  });

  it('leaves to the schema what is no object, and keeps its reasons', () => {
    expect(parseHolder('holder').success).toBe(false);
    expect(parseHolder([base()]).success).toBe(false);
    const refused = parseHolder({ ...base(), currentlyHoldingAmount: nines });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['currentlyHoldingAmount']);
  });
});
