/**
 * The soak's one clock: simulated time runs `speed` times as fast as the machine's, from a start both
 * processes are told (the bot's and the simulator's), so each reads the same simulated instant from
 * its own Date.now() without a message between them.
 */
export interface SoakClock {
  /** The machine's time (Unix ms) at which simulated time was `simStartMs`. */
  realStartMs: number;
  simStartMs: number;
  /** Simulated milliseconds per real one. */
  speed: number;
}

export function simulatedNow(clock: SoakClock): number {
  return clock.simStartMs + (Date.now() - clock.realStartMs) * clock.speed;
}

import type { Pace } from 'tmds-simulator';

/** A market that moves all the time: a trade every 20 simulated seconds, each token a surprise every 3 to 8 hours. */
export const SOAK_PACE: Pace = {
  tradesPerSecond: 0.05,
  surprises: { firstMinSecs: 600, minSecs: 10_800, maxSecs: 28_800 },
  holderChurn: 0.1,
};

export const SOAK_KEY = 'soak-key';

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
