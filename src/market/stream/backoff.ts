/**
 * The waits between connection attempts, drawn with the market layer's one jitter (../jitter.ts).
 * Both spread the sockets out in time: a thousand sockets cut (or refused) at the same instant
 * must not all come back at the same instant.
 */
import { fullJitter, spreadAround } from '../jitter';

/**
 * Full-jitter exponential backoff after a lost link: the wait before reconnection attempt n (from 0)
 * is uniform in [0, min(max, base·2ⁿ)).
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  return fullJitter(attempt, baseMs, maxMs, random);
}

/** How far a slow retry may stray from its nominal pause, as a fraction of it. */
export const SLOW_RETRY_SPREAD = 0.2;

/**
 * The pause before a slow retry (a refused key, a refused target): uniform in
 * [pause·(1 − spread), pause·(1 + spread)). Never near zero, so a refusal is never retried in a
 * tight loop, yet sockets refused together retry apart.
 */
export function slowRetryDelay(pauseMs: number, random: () => number = Math.random): number {
  return spreadAround(pauseMs, SLOW_RETRY_SPREAD, random);
}
