import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Limiter, defaultMarginMs, type Release } from '../../src/market/limiter';

let clock = 0;
const now = () => clock;

/** Moves the injected clock and the fake timers together. */
async function advance(ms: number): Promise<void> {
  for (let step = 0; step < ms; step += 1) {
    clock += 1;
    await vi.advanceTimersByTimeAsync(1);
  }
}

beforeEach(() => {
  clock = 0;
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function limiter(limit: number, windowMs: number, maxWaitMs = 60_000, marginMs = 0): Limiter {
  return new Limiter('token-technicals', { rate: { limit, windowMs }, maxWaitMs, marginMs, now });
}

describe('Limiter', () => {
  it('grants up to the limit at once, then serves waiters in arrival order as slots free', async () => {
    const l = limiter(2, 100);
    const order: number[] = [];
    const releases: Release[] = [];
    for (let i = 0; i < 5; i += 1) {
      void l.acquire().then((release) => {
        order.push(i);
        releases.push(release);
      });
    }
    await advance(0);
    await Promise.resolve();
    expect(order).toEqual([0, 1]);
    expect(l.waiting).toBe(3);
    releases[0]?.();
    releases[1]?.();
    await advance(99);
    expect(order).toEqual([0, 1]);
    await advance(2);
    expect(order).toEqual([0, 1, 2, 3]);
    releases[2]?.();
    releases[3]?.();
    await advance(101);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it('keeps a slot taken while its request is in flight', async () => {
    const l = limiter(1, 50);
    const first = await l.acquire();
    let second = false;
    void l.acquire().then(() => {
      second = true;
    });
    await advance(500);
    expect(second).toBe(false);
    first();
    await advance(49);
    expect(second).toBe(false);
    await advance(2);
    expect(second).toBe(true);
  });

  it('holds every grant while the service asks for a pause', async () => {
    const l = new Limiter('token-data', { rate: null, maxWaitMs: 10_000, now });
    (await l.acquire())();
    l.holdFor(200);
    let granted = false;
    void l.acquire().then(() => {
      granted = true;
    });
    await advance(150);
    expect(granted).toBe(false);
    await advance(100);
    expect(granted).toBe(true);
  });

  it('refuses at once a caller who would wait longer than maxWaitMs, telling the wait', async () => {
    const l = limiter(1, 1_000, 500);
    const release = await l.acquire();
    release();
    await expect(l.acquire()).rejects.toMatchObject({ kind: 'rate-limited', retryAfterMs: 1_000, status: null });
  });

  it('answers queued callers when a pause longer than maxWaitMs arrives', async () => {
    const l = limiter(1, 100, 1_000);
    (await l.acquire())();
    const queued = l.acquire();
    l.holdFor(5_000);
    await expect(queued).rejects.toMatchObject({ kind: 'rate-limited', retryAfterMs: 5_000 });
  });

  it('rejects waiters when closed', async () => {
    const l = limiter(1, 100);
    await l.acquire();
    const queued = l.acquire();
    l.close();
    await expect(queued).rejects.toMatchObject({ kind: 'unreachable' });
    await expect(l.acquire()).rejects.toMatchObject({ kind: 'unreachable' });
  });

  it('never lets more than `limit` requests into any window, whatever their latency', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 5, max: 40 }),
        fc.array(fc.record({ at: fc.integer({ min: 0, max: 120 }), latency: fc.integer({ min: 0, max: 60 }) }), {
          minLength: 1,
          maxLength: 25,
        }),
        async (limit, windowMs, calls) => {
          clock = 0;
          const l = limiter(limit, windowMs, 1_000_000);
          // The service may stamp a request at any moment between its grant and its response.
          const spans: Array<{ granted: number; answered: number }> = [];
          const sorted = [...calls].sort((a, b) => a.at - b.at);
          const done: Array<Promise<void>> = [];
          let t = 0;
          for (const call of sorted) {
            await advance(call.at - t);
            t = call.at;
            done.push(
              l.acquire().then(async (release) => {
                const granted = clock;
                await new Promise((resolve) => setTimeout(resolve, call.latency));
                spans.push({ granted, answered: clock });
                release();
              }),
            );
          }
          while (spans.length < sorted.length) await advance(10);
          await Promise.all(done);
          // Worst case for the service: each request stamped at its answer, and a window that
          // ends at some request's grant. Count the requests such a window can contain.
          for (const probe of spans) {
            const end = probe.granted;
            const inside = spans.filter((span) => span.granted <= end && span.answered > end - windowMs).length;
            expect(inside).toBeLessThanOrEqual(limit);
          }
          l.close();
        },
      ),
      { numRuns: 40 },
    );
  });

  it('holds everything when the service says nothing remains, until its reset', async () => {
    const l = limiter(100, 1_000);
    l.observe(0, 300);
    let granted = false;
    void l.acquire().then(() => {
      granted = true;
    });
    await advance(299);
    expect(granted).toBe(false);
    await advance(2);
    expect(granted).toBe(true);
  });

  it('spends no more than the service says remains, less what is in flight', async () => {
    const l = limiter(100, 1_000);
    const inFlight = await l.acquire();
    l.observe(3, 500);
    const granted: number[] = [];
    for (let i = 0; i < 4; i += 1) void l.acquire().then(() => granted.push(i));
    await advance(1);
    expect(granted).toEqual([0, 1]);
    inFlight();
    await advance(498);
    expect(granted).toEqual([0, 1]);
    await advance(2);
    expect(granted).toEqual([0, 1, 2, 3]);
  });

  it('keeps the lowest count within one window and opens a new window on a later reset', async () => {
    const l = limiter(100, 10_000);
    l.observe(5, 2_000);
    l.observe(1, 2_000);
    l.observe(4, 2_200);
    (await l.acquire())();
    let second = false;
    void l.acquire().then(() => {
      second = true;
    });
    await advance(10);
    expect(second).toBe(false);
    l.observe(50, 6_000);
    await advance(1);
    expect(second).toBe(true);
  });

  it('refuses queued callers when the service pauses for longer than maxWaitMs', async () => {
    const l = limiter(1, 100, 1_000);
    (await l.acquire())();
    const queued = l.acquire();
    l.observe(0, 30_000);
    await expect(queued).rejects.toMatchObject({ kind: 'rate-limited' });
  });

  it('leaves a small margin', () => {
    expect(defaultMarginMs(60_000)).toBe(1_000);
    expect(defaultMarginMs(2_000)).toBe(40);
    expect(defaultMarginMs(100)).toBe(25);
  });
});
