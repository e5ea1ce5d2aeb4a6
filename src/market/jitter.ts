/**
 * The one jitter of the market layer: REST retries and stream reconnections both wait a
 * full-jitter exponential backoff, and slow retries (a refused key or target) a pause spread
 * around its nominal length. Spread out in time, a thousand callers failed together do not come
 * back together.
 */

/** Full jitter: uniform in [0, min(max, base·2^step)). `step` counts from 0. */
export function fullJitter(step: number, baseMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(step, 30));
  return Math.floor(random() * ceiling);
}

/** Uniform in [pause·(1 − spread), pause·(1 + spread)): never near zero, never in step. */
export function spreadAround(pauseMs: number, spread: number, random: () => number): number {
  return Math.floor(pauseMs * (1 - spread + 2 * spread * random()));
}
