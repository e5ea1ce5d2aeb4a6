import { describe, expect, it, vi } from 'vitest';
import { ResponseCache } from '../../src/market/cache';
import { waitFor } from './stream/support/wait';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('ResponseCache', () => {
  it('makes one load for concurrent identical keys and tells who shared it', async () => {
    const cache = new ResponseCache<{ n: number }>({ ttlMs: 1_000, maxEntries: 10 });
    const gate = deferred<{ n: number }>();
    const load = vi.fn(() => gate.promise);
    const calls = Array.from({ length: 50 }, () => cache.get('k', load));
    gate.resolve({ n: 1 });
    const results = await Promise.all(calls);
    expect(load).toHaveBeenCalledTimes(1);
    expect(results.filter((r) => r.source === 'upstream')).toHaveLength(1);
    expect(results.filter((r) => r.source === 'coalesced')).toHaveLength(49);
    expect(await cache.get('k', load)).toEqual({ value: { n: 1 }, source: 'cache' });
  });

  it('forgets an entry after its TTL', async () => {
    const cache = new ResponseCache<string[]>({ ttlMs: 20, maxEntries: 10 });
    let n = 0;
    const load = async () => [String((n += 1))];
    expect((await cache.get('k', load)).value).toEqual(['1']);
    expect((await cache.get('k', load)).source).toBe('cache');
    await waitFor(() => !cache.has('k'), 'the entry to expire');
    expect(await cache.get('k', load)).toEqual({ value: ['2'], source: 'upstream' });
  });

  it('does not keep errors, but shares them with the callers that waited', async () => {
    const cache = new ResponseCache<string[]>({ ttlMs: 1_000, maxEntries: 10 });
    const gate = deferred<string[]>();
    const first = cache.get('k', () => gate.promise);
    const second = cache.get('k', () => gate.promise);
    gate.reject(new Error('down'));
    await expect(first).rejects.toThrow('down');
    await expect(second).rejects.toThrow('down');
    expect(cache.has('k')).toBe(false);
    expect((await cache.get('k', async () => ['ok'])).source).toBe('upstream');
  });

  it('survives a load that throws synchronously', async () => {
    const cache = new ResponseCache<string[]>({ ttlMs: 1_000, maxEntries: 10 });
    await expect(
      cache.get('k', () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect((await cache.get('k', async () => ['ok'])).value).toEqual(['ok']);
  });

  it('stores nothing with a TTL of 0 but still coalesces', async () => {
    const cache = new ResponseCache<string[]>({ ttlMs: 0, maxEntries: 10 });
    const load = vi.fn(async () => ['v']);
    const [a, b] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect([a.source, b.source]).toEqual(['upstream', 'coalesced']);
    await cache.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('is bounded', async () => {
    const cache = new ResponseCache<string[]>({ ttlMs: 60_000, maxEntries: 3 });
    for (const key of ['a', 'b', 'c', 'd']) await cache.get(key, async () => [key]);
    expect(cache.has('a')).toBe(false);
    expect(cache.has('d')).toBe(true);
  });
});
