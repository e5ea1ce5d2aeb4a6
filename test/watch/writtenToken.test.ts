import { describe, expect, it } from 'vitest';
import type { TokenSnapshot } from '../../src/model/snapshot';
import { sameAsWritten, writtenToken } from '../../src/watch/writtenToken';
import { tokenSnapshot } from '../store/helpers';

describe('what the watcher compares before writing a token again', () => {
  const base = tokenSnapshot('TokenA');
  const written = writtenToken(base, 1);

  it('a push that changes only the price, the holders count or the time is the same', () => {
    const next: TokenSnapshot = { ...base, priceNative: 0.5, priceUsd: 99, holdersCount: 7, seenAt: base.seenAt + 5 };
    expect(sameAsWritten(written, next)).toBe(true);
    // Equal contents in new lists and objects are the same too.
    expect(sameAsWritten(written, { ...base, pools: base.pools.map((pool) => ({ ...pool })), whales: { ...base.whales } })).toBe(true);
  });

  const changes: Array<[string, Partial<TokenSnapshot>]> = [
    ['risk status', { riskStatus: 'DANGER' }],
    ['mint authority', { mintAuthority: 'Mint111' }],
    ['freeze authority', { freezeAuthority: 'Freeze111' }],
    ['mutability', { isMutable: true }],
    ['owner balance', { ownerBalance: '1001' }],
    ['total supply', { totalSupply: '1' }],
    ['holders first seen', { holdersSeenAt: 5 }],
    ['name', { name: 'Other' }],
    ['symbol', { symbol: 'OTH' }],
    ['the price window start', { priceHistory: [[base.seenAt, 0.001]] }],
    ['a pool reserve', { pools: [{ poolAddress: 'pool-1', quoteReserves: '1' }] }],
    ['a pool peak', { pools: [{ poolAddress: 'pool-1', quoteReserves: '5000000000', peakQuoteReserves: '6000000000' }] }],
    ['a pool gone', { pools: [] }],
    ['a whale', { whales: { whale1: '124' } }],
    ['a new whale', { whales: { ...base.whales, whale2: '1' } }],
  ];
  for (const [what, change] of changes) {
    it(`a change of ${what} is not`, () => {
      expect(sameAsWritten(written, { ...base, ...change })).toBe(false);
    });
  }
});
