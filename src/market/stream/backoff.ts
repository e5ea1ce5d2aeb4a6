/**
 * Full-jitter exponential backoff: the wait before reconnection attempt n (from 0) is uniform in
 * [0, min(max, base·2ⁿ)). Spreading the waits over the whole range keeps a thousand sockets cut
 * at the same instant from all coming back at the same instant.
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}
