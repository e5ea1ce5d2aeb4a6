/**
 * Retries with capped, fully jittered exponential backoff, inside one overall deadline. Every
 * call of the client is an idempotent GET, so a timeout, a lost connection, a 5xx or a 429 is
 * retried; any other 4xx, and an unreadable body, would only fail again and is returned at once.
 *
 * Time comes from the policy's clock (./clock.ts): the waits are armed on its timers and drawn
 * from its random source, so tests check the exact schedule on a manual clock.
 */
import { systemClock, sleep, type Clock } from './clock';
import { MarketError, bareMessage, isMarketError, withDetails } from './errors';
import { fullJitter } from './jitter';

export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries: number;
  baseDelayMs: number;
  /** Cap of one backoff delay. */
  maxDelayMs: number;
  /**
   * A wait the service asked for (Retry-After, a rate-limit reset) that reaches this is not
   * waited for: the call fails at once, telling the person to come back after at most this long.
   */
  maxRetryAfterMs: number;
  /** Added to a Retry-After so that the retry does not arrive a hair before the service's window turns. */
  retryAfterMarginMs: number;
  /** Time for the whole call, every attempt and wait included; no retry starts that would end past it. */
  deadlineMs?: number;
  clock?: Clock;
  /** Overrides the clock's random source (tests of the jitter alone). */
  random?: () => number;
}

export interface RetryHooks {
  signal?: AbortSignal;
  onRetry?: (error: MarketError, retry: number, delayMs: number) => void;
}

/** What one attempt is given: its number (from 1) and the call's deadline, in the clock's time (Infinity for none). */
export interface AttemptInfo {
  attempt: number;
  deadlineAt: number;
}

export function isRetryable(error: MarketError): boolean {
  switch (error.kind) {
    case 'timeout':
      return error.details.deadline !== 'call';
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
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = randomOf(policy)): number {
  return fullJitter(retry, policy.baseDelayMs, policy.maxDelayMs, random);
}

function randomOf(policy: RetryPolicy): () => number {
  if (policy.random) return policy.random;
  const clock = policy.clock ?? systemClock;
  return () => clock.random();
}

/**
 * The wait before the next attempt, or null when the error must not be retried. A wait the
 * service asked for (Retry-After on a 429 or a 5xx) is honoured, plus a margin, unless it reaches
 * the cap.
 */
export function retryDelay(error: MarketError, retry: number, policy: RetryPolicy): number | null {
  if (!isRetryable(error)) return null;
  const jittered = backoffDelay(retry, policy);
  if (error.retryAfterMs === null) return jittered;
  if (error.retryAfterMs >= policy.maxRetryAfterMs) return null;
  return Math.max(error.retryAfterMs + policy.retryAfterMarginMs, jittered);
}

/**
 * Runs `attempt` until it succeeds, a non-retryable error occurs, the retries are spent, or the
 * next wait would end past the deadline. The error that ends the call carries the number of
 * attempts made in its details.
 */
export async function withRetries<T>(attempt: (info: AttemptInfo) => Promise<T>, policy: RetryPolicy, hooks: RetryHooks = {}): Promise<T> {
  const clock = policy.clock ?? systemClock;
  const deadlineAt = policy.deadlineMs === undefined ? Number.POSITIVE_INFINITY : clock.now() + policy.deadlineMs;
  for (let attemptNumber = 1; ; attemptNumber += 1) {
    try {
      return await attempt({ attempt: attemptNumber, deadlineAt });
    } catch (error) {
      if (!isMarketError(error)) throw error;
      const retry = attemptNumber - 1;
      const delay = retry < policy.maxRetries ? retryDelay(error, retry, policy) : null;
      const late = delay !== null && clock.now() + delay >= deadlineAt;
      if (delay === null || late || hooks.signal?.aborted === true) {
        if (late) throw outOfTime(error, attemptNumber, policy.deadlineMs ?? 0);
        const exhausted = isRetryable(error) && attemptNumber > 1;
        throw withDetails(
          error,
          { attempts: attemptNumber },
          exhausted ? `${bareMessage(error)} (after ${attemptNumber} attempts)` : undefined,
        );
      }
      hooks.onRetry?.(error, retry + 1, delay);
      try {
        await sleep(clock, delay, hooks.signal);
      } catch {
        throw withDetails(error, { attempts: attemptNumber, closed: true });
      }
    }
  }
}

/**
 * The call's deadline leaves no time for the next attempt. A slow service becomes a timeout (the
 * person is told it is too slow); any other failure stays what it was, with the attempts counted.
 */
function outOfTime(error: MarketError, attempts: number, deadlineMs: number): MarketError {
  if (error.kind === 'timeout') {
    return new MarketError({
      kind: 'timeout',
      endpoint: error.endpoint,
      status: error.status,
      message: `${bareMessage(error)} (after ${attempts} attempts, no time left within the call's ${deadlineMs} ms)`,
      details: { ...error.details, attempts, deadline: 'call' },
      cause: error.cause,
    });
  }
  return withDetails(error, { attempts, deadline: 'call' }, `${bareMessage(error)} (after ${attempts} attempts, no time left for another)`);
}
