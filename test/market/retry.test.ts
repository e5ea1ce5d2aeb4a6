import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarketError, type MarketErrorKind } from '../../src/market/errors';
import { backoffDelay, isRetryable, retryDelay, withRetries, type RetryPolicy } from '../../src/market/retry';

const policy: RetryPolicy = { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 4, maxRetryAfterMs: 1_000, retryAfterMarginMs: 5 };

function failure(kind: MarketErrorKind, status: number | null = null, retryAfterMs: number | null = null, details: Record<string, unknown> = {}): MarketError {
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
    const slow: RetryPolicy = { ...policy, baseDelayMs: 60_000, maxDelayMs: 60_000, random: () => 0.99 };
    const pending = withRetries(async () => {
      throw failure('timeout');
    }, slow, { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(pending).rejects.toMatchObject({ kind: 'timeout', details: { closed: true } });
  });

  it('lets other errors through untouched', async () => {
    const odd = new TypeError('bug');
    await expect(withRetries(async () => Promise.reject(odd), policy)).rejects.toBe(odd);
  });
});
