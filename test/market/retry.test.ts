import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { MarketError, type MarketErrorKind } from '../../src/market/errors';
import { backoffDelay, isRetryable, retryDelay, withRetries, type RetryPolicy } from '../../src/market/retry';
import { ManualClock } from './support/manualClock';

const policy: RetryPolicy = { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 4, maxRetryAfterMs: 1_000, retryAfterMarginMs: 5 };

function failure(
  kind: MarketErrorKind,
  status: number | null = null,
  retryAfterMs: number | null = null,
  details: Record<string, unknown> = {},
): MarketError {
  return new MarketError({ kind, endpoint: 'token-technicals', status, retryAfterMs, details });
}

describe('retry policy', () => {
  it('uses full jitter under a capped exponential ceiling', () => {
    const wide: RetryPolicy = { ...policy, baseDelayMs: 250, maxDelayMs: 8_000 };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (retry, random) => {
        const delay = backoffDelay(retry, wide, () => random);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(Math.min(8_000, 250 * 2 ** retry));
      }),
    );
  });

  it('retries timeouts, lost connections, 5xx and 429 only', () => {
    expect(isRetryable(failure('timeout'))).toBe(true);
    expect(isRetryable(failure('unreachable'))).toBe(true);
    expect(isRetryable(failure('unreachable', null, null, { closed: true }))).toBe(false);
    expect(isRetryable(failure('upstream', 502))).toBe(true);
    expect(isRetryable(failure('upstream', 418))).toBe(false);
    expect(isRetryable(failure('rate-limited', 429))).toBe(true);
    expect(isRetryable(failure('rate-limited', null, 5_000))).toBe(false);
    for (const kind of ['missing-parameter', 'invalid-address', 'invalid-parameter', 'not-found', 'unauthorized', 'unreadable'] as const) {
      expect(isRetryable(failure(kind, 400))).toBe(false);
    }
  });

  it('waits at least Retry-After, and not at all when it exceeds the cap', () => {
    expect(retryDelay(failure('rate-limited', 429, 300), 0, policy)).toBeGreaterThanOrEqual(305);
    expect(retryDelay(failure('rate-limited', 429, 5_000), 0, policy)).toBeNull();
  });

  it('honours a Retry-After on a 5xx as on a 429, with the same cap', () => {
    const always = { ...policy, random: () => 0 };
    expect(retryDelay(failure('upstream', 503, 300), 0, always)).toBe(305);
    expect(retryDelay(failure('upstream', 500, 5_000), 0, always)).toBeNull();
    expect(retryDelay(failure('upstream', 503), 0, always)).toBe(0);
  });
});

describe('withRetries', () => {
  it('succeeds after retryable failures, counting attempts', async () => {
    const seen: number[] = [];
    const result = await withRetries(async ({ attempt }) => {
      seen.push(attempt);
      if (attempt < 3) throw failure('upstream', 500);
      return 'ok';
    }, policy);
    expect(result).toBe('ok');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('gives up after maxRetries with the attempt count', async () => {
    let calls = 0;
    const error = await withRetries(async () => {
      calls += 1;
      throw failure('upstream', 503);
    }, policy).catch((e: unknown) => e);
    expect(calls).toBe(4);
    expect(error).toBeInstanceOf(MarketError);
    expect((error as MarketError).details.attempts).toBe(4);
    expect((error as MarketError).message).toMatch(/after 4 attempts/);
  });

  it('does not retry other 4xx', async () => {
    let calls = 0;
    await expect(
      withRetries(async () => {
        calls += 1;
        throw failure('not-found', 404);
      }, policy),
    ).rejects.toMatchObject({ kind: 'not-found' });
    expect(calls).toBe(1);
  });

  it('fails fast on a Retry-After beyond the cap, carrying the wait', async () => {
    let calls = 0;
    await expect(
      withRetries(async () => {
        calls += 1;
        throw failure('rate-limited', 429, 60_000);
      }, policy),
    ).rejects.toMatchObject({ kind: 'rate-limited', retryAfterMs: 60_000 });
    expect(calls).toBe(1);
  });

  it('fails fast on a 5xx whose Retry-After is beyond the cap, carrying the wait', async () => {
    let calls = 0;
    await expect(
      withRetries(async () => {
        calls += 1;
        throw failure('upstream', 503, 60_000);
      }, policy),
    ).rejects.toMatchObject({ kind: 'upstream', status: 503, retryAfterMs: 60_000, details: { attempts: 1 } });
    expect(calls).toBe(1);
  });

  it('stops waiting when aborted', async () => {
    const controller = new AbortController();
    const clock = new ManualClock();
    const slow: RetryPolicy = { ...policy, baseDelayMs: 60_000, maxDelayMs: 60_000, clock };
    const pending = withRetries(
      async () => {
        throw failure('timeout');
      },
      slow,
      { signal: controller.signal },
    );
    await vi.waitFor(() => expect(clock.pending()).toEqual([30_000]));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'timeout', details: { closed: true } });
    expect(clock.pending()).toEqual([]);
  });

  it('lets other errors through untouched', async () => {
    const odd = new TypeError('bug');
    await expect(withRetries(async () => Promise.reject(odd), policy)).rejects.toBe(odd);
  });
});

describe('the retry schedule, on a manual clock', () => {
  const wide: Omit<RetryPolicy, 'clock'> = {
    maxRetries: 4,
    baseDelayMs: 250,
    maxDelayMs: 1_000,
    maxRetryAfterMs: 30_000,
    retryAfterMarginMs: 100,
  };

  /** Runs withRetries over `failures` (then success), firing each armed wait as it comes; returns the waits. */
  async function schedule(
    clock: ManualClock,
    policy: RetryPolicy,
    failures: MarketError[],
  ): Promise<{ waits: number[]; outcome: unknown }> {
    const waits: number[] = [];
    let calls = 0;
    const run = withRetries(async () => {
      const next = failures[calls];
      calls += 1;
      if (next) throw next;
      return 'ok';
    }, policy).then(
      (value) => value,
      (error: unknown) => error,
    );
    let settled = false;
    void run.then(() => {
      settled = true;
    });
    while (!settled) {
      await vi.waitFor(() => expect(settled || clock.pending().length > 0).toBe(true));
      if (settled) break;
      const [wait = 0] = clock.pending();
      waits.push(wait);
      clock.advance(wait);
    }
    return { waits, outcome: await run };
  }

  it("draws full jitter under a doubling ceiling, capped, from the clock's random source", async () => {
    const clock = new ManualClock(0, [0.5, 0.5, 0.5, 0.999]);
    const { waits, outcome } = await schedule(clock, { ...wide, clock }, [
      failure('upstream', 500),
      failure('timeout'),
      failure('unreachable'),
      failure('upstream', 502),
    ]);
    expect(outcome).toBe('ok');
    // 0.5 × 250, 0.5 × 500, 0.5 × 1,000, then 0.999 × min(1,000, 2,000).
    expect(waits).toEqual([125, 250, 500, 999]);
  });

  it('waits a Retry-After within the cap plus the margin, and not at all one at the cap', async () => {
    const clock = new ManualClock(0, [0]);
    const { waits, outcome } = await schedule(clock, { ...wide, clock }, [
      failure('rate-limited', 429, 2_000),
      failure('upstream', 503, 700),
    ]);
    expect(outcome).toBe('ok');
    expect(waits).toEqual([2_100, 800]);
    const capped = await schedule(clock, { ...wide, clock }, [failure('rate-limited', 429, 30_000)]);
    expect(capped.waits).toEqual([]);
    expect(capped.outcome).toMatchObject({ kind: 'rate-limited', retryAfterMs: 30_000, details: { attempts: 1 } });
  });

  it('starts no retry whose wait would end past the call deadline; a slow service ends as a timeout', async () => {
    const clock = new ManualClock(0, [0.999]);
    const policy: RetryPolicy = { ...wide, maxRetries: 10, deadlineMs: 1_000, clock };
    const { waits, outcome } = await schedule(
      clock,
      policy,
      Array.from({ length: 11 }, () => failure('timeout')),
    );
    // 249 + 499 = 748 ms spent; the next wait (999) would end at 1,747, past the deadline.
    expect(waits).toEqual([249, 499]);
    expect(outcome).toMatchObject({ kind: 'timeout', details: { attempts: 3, deadline: 'call' } });
    expect(isRetryable(outcome as MarketError)).toBe(false);
  });
});
