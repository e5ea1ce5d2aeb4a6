import { describe, expect, it } from 'vitest';
import { TokenBatcher, normalizeAddress } from '../../src/market/tokenBatcher';

/** A token as the service would deliver it, with only the fields the schema requires. */
function rawToken(address: string) {
  return { address, decimals: 6, name: `Name ${address.slice(0, 4)}`, symbol: address.slice(0, 3), liquidityPools: {} };
}

const A = 'So11111111111111111111111111111111111111112';
const B = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const C = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const EVM = '0xAbCdEf0123456789abcdef0123456789ABCDEF01';

/** A batcher whose service answers every address, keeping the batches it was sent. */
function recordingBatcher(maxBatchSize: number): { batcher: TokenBatcher; batches: string[][] } {
  const batches: string[][] = [];
  const batcher = new TokenBatcher(
    async (addresses) => {
      batches.push(addresses);
      return Object.fromEntries(addresses.map((address) => [address, rawToken(address)]));
    },
    { maxBatchSize },
  );
  return { batcher, batches };
}

describe('TokenBatcher', () => {
  it('merges the look-ups of one tick into one request, without duplicates', async () => {
    const { batcher, batches } = recordingBatcher(30);
    const tokens = await Promise.all([A, B, A, C].map((address) => batcher.load(address)));
    expect(batches).toEqual([[A, B, C]]);
    expect(tokens.map((token) => token.address)).toEqual([A, B, A, C]);
  });

  it('merges look-ups made by promise jobs of the same tick, and sends later ones apart', async () => {
    const { batcher, batches } = recordingBatcher(30);
    const first = batcher.load(A);
    const chained = Promise.resolve()
      .then(() => undefined)
      .then(() => batcher.load(B));
    await Promise.all([first, chained]);
    await batcher.load(C);
    expect(batches).toEqual([[A, B], [C]]);
  });

  it('splits batches at maxBatchSize', async () => {
    const sizes: number[] = [];
    const batcher = new TokenBatcher(
      async (addresses) => {
        sizes.push(addresses.length);
        return Object.fromEntries(addresses.map((address) => [address, rawToken(address)]));
      },
      { maxBatchSize: 3 },
    );
    const keys = Array.from({ length: 7 }, (_, i) => `${A.slice(0, 40)}${String(i).padStart(3, 'A')}`);
    await Promise.all(keys.map((key) => batcher.load(key)));
    expect(sizes).toEqual([3, 3, 1]);
  });

  it('rejects only the keys that are missing or unreadable', async () => {
    const batcher = new TokenBatcher(async () => ({ [A]: rawToken(A), [C]: { address: C, decimals: 'many' } }), { maxBatchSize: 30 });
    const [a, b, c] = await Promise.allSettled([A, B, C].map((address) => batcher.load(address)));
    expect(a).toMatchObject({ status: 'fulfilled', value: { address: A } });
    expect(b).toMatchObject({ status: 'rejected', reason: { kind: 'not-found', details: { address: B } } });
    expect(c).toMatchObject({ status: 'rejected', reason: { kind: 'unreadable', details: { address: C } } });
    if (c?.status === 'rejected') expect(JSON.stringify(c.reason.details)).toContain('decimals');
  });

  it('rejects every key of a batch whose request failed', async () => {
    const batcher = new TokenBatcher(async () => Promise.reject(new Error('down')), { maxBatchSize: 30 });
    const results = await Promise.allSettled([A, B].map((address) => batcher.load(address)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('matches EVM addresses whatever their case', async () => {
    const batcher = new TokenBatcher(async () => ({ [EVM]: rawToken(EVM) }), { maxBatchSize: 30 });
    const token = await batcher.load(normalizeAddress(EVM));
    expect(token.address).toBe(EVM);
    expect(normalizeAddress(A)).toBe(A);
  });

  it('reports each batch', async () => {
    const seen: Array<[number, number]> = [];
    const batcher = new TokenBatcher(async (addresses) => Object.fromEntries(addresses.map((a) => [a, rawToken(a)])), {
      maxBatchSize: 30,
      onBatch: (lookups, distinct) => seen.push([lookups, distinct]),
    });
    await Promise.all([A, B, B].map((address) => batcher.load(address)));
    expect(seen).toEqual([[3, 2]]);
  });
});
