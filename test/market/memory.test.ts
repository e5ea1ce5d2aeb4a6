/**
 * 3. Memory bounded by design: a client in a child process of its own, calling every endpoint of a
 * hostile server that answers with the biggest bodies the caps allow (lists of a million empty
 * objects, thousands of elements whose every amount has 80 digits), peaks under 512 MB. Without
 * the per-endpoint caps, the density check and the byte-bounded cache, the same run goes past a
 * gigabyte. `npm run bench -- hostile` runs it harder (more variants, 16 calls at once) and
 * records the figure.
 */
import { describe, expect, it } from 'vitest';
import { measureHostilePeakRss } from './support/hostileRss';

describe("the client's peak memory under the biggest hostile answers", () => {
  it('stays under 512 MB', async () => {
    const result = await measureHostilePeakRss({ rounds: 2, concurrency: 4, variants: ['empty', 'digits'] });
    // Every call was answered by the hostile server, one way or another.
    expect(Object.values(result.outcomes).reduce((sum, count) => sum + count, 0)).toBe(2 * 6 * 4);
    expect(result.outcomes['holders-history:unreadable']).toBe(4);
    expect(result.peakRssMb).toBeLessThan(512);
  }, 120_000);
});
