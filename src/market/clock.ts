/**
 * Time and chance as a dependency. The REST retries, the limiter, the per-attempt deadlines and
 * the stream connections ask a Clock for the time, their timers and their random draws instead of
 * reaching for globals, so a test can hand them a manual clock and check an exact schedule
 * (every backoff drawn, every wait armed) without sleeping.
 */

/** A timer handle as the clock returns it; only the clock that made it can clear it. */
export type Timer = object;

export interface Clock {
  /** Wall-clock milliseconds (Unix epoch): HTTP dates in Retry-After are read against it. */
  now(): number;
  setTimeout(callback: () => void, ms: number): Timer;
  clearTimeout(timer: Timer): void;
  /** Uniform in [0, 1), for jitter. */
  random(): number;
}

/** The real clock: Date.now, Node's timers, Math.random. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
  random: () => Math.random(),
};

/** Resolves after `ms` on `clock`; rejects with the signal's reason when it aborts first. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
