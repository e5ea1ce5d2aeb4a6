/**
 * Retries with capped, fully jittered exponential backoff. Every call of the client is an
 * idempotent GET, so a timeout, a lost connection, a 5xx or a 429 is retried; any other 4xx,
 * and an unreadable body, would only fail again and is returned at once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type MarketError, bareMessage, isMarketError, withDetails } from './errors';

export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries: number;
  baseDelayMs: number;
  /** Cap of one backoff delay. */
  maxDelayMs: number;
  /** A Retry-After (on a 429 or a 5xx) longer than this is not waited for: the call fails at once, carrying the wait. */
  maxRetryAfterMs: number;
  /** Added to a Retry-After so that the retry does not arrive a hair before the service's window turns. */
  retryAfterMarginMs: number;
  random?: () => number;
}

export interface RetryHooks {
  signal?: AbortSignal;
  onRetry?: (error: MarketError, retry: number, delayMs: number) => void;
}

export function isRetryable(error: MarketError): boolean {
  switch (error.kind) {
    case 'timeout':
      return true;
    case 'unreachable':
      return error.details.closed !== true;
    case 'upstream':
      return error.status === null || error.status >= 500;
    case 'rate-limited':
      // Only the service's own 429: a wait the client imposed on itself is not retried here.
      return error.status === 429;
    default:
      return false;
  }
}

/** Full jitter: a uniform delay in [0, min(cap, base · 2^retry)). `retry` counts from 0. */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/**
 * The wait before the next attempt, or null when the error must not be retried. A wait the
 * service asked for (Retry-After on a 429 or a 5xx) is honoured, plus a margin, unless it exceeds
 * the cap.
 */
export function retryDelay(error: MarketError, retry: number, policy: RetryPolicy): number | null {
  if (!isRetryable(error)) return null;
  const jittered = backoffDelay(retry, policy, policy.random);
  if (error.retryAfterMs === null) return jittered;
  if (error.retryAfterMs > policy.maxRetryAfterMs) return null;
  return Math.max(error.retryAfterMs + policy.retryAfterMarginMs, jittered);
}

/**
 * Runs `attempt` until it succeeds, a non-retryable error occurs, or the retries are spent. The
 * error that ends the call carries the number of attempts made in its details.
 */
export async function withRetries<T>(attempt: (attemptNumber: number) => Promise<T>, policy: RetryPolicy, hooks: RetryHooks = {}): Promise<T> {
  for (let attemptNumber = 1; ; attemptNumber += 1) {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      if (!isMarketError(error)) throw error;
      const retry = attemptNumber - 1;
      const delay = retry < policy.maxRetries ? retryDelay(error, retry, policy) : null;
      if (delay === null || hooks.signal?.aborted === true) {
        const exhausted = isRetryable(error) && attemptNumber > 1;
        throw withDetails(
          error,
          { attempts: attemptNumber },
          exhausted ? `${bareMessage(error)} (after ${attemptNumber} attempts)` : undefined,
        );
      }
      hooks.onRetry?.(error, retry + 1, delay);
      try {
        await sleep(delay, undefined, { signal: hooks.signal });
      } catch {
        throw withDetails(error, { attempts: attemptNumber, closed: true });
      }
    }
  }
}
