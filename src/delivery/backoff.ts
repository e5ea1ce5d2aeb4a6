/**
 * How long a failed alert waits before its next attempt: doubling from a short first wait, capped,
 * so a platform that is down for an hour costs a handful of attempts, not thousands. A wait the
 * platform named (Telegram's retry_after, Discord's retry-after) is honoured when it is longer.
 */

export interface BackoffPolicy {
  /** The first wait, after one failed attempt. */
  baseMs: number;
  /** The longest wait between two attempts. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 2_000, maxMs: 10 * 60_000 };

/**
 * The wait after the `attempts`-th failure (1 for the first): base, 2×base, 4×base … up to the
 * cap, or the platform's own figure when it asked for longer (never less: asking again sooner only
 * earns another refusal).
 */
export function retryDelayMs(attempts: number, policy: BackoffPolicy, platformAfterMs: number | null): number {
  const exponent = Math.max(0, Math.min(attempts - 1, 30));
  const own = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  return platformAfterMs === null ? own : Math.max(own, platformAfterMs);
}
