/**
 * How fast the simulated market moves by itself: ordinary trades at a steady rate, and for every
 * token now and then a surprise (a price jump, a whale coming or going, liquidity pulled or
 * added, a risk status or flag changing; surprises.ts). A pace is data, so the built-in
 * simulator, the standalone one and the tests each say which they want, and a test can run the
 * same pace on a faster clock.
 */
import { z } from 'zod';

export interface Pace {
  /** Ordinary trades the whole market makes per second (0: none). */
  tradesPerSecond: number;
  /**
   * Seconds between two surprises of one token, drawn evenly from [min, max]; null: no surprises.
   * The first comes `firstMinSecs` after the start at the earliest.
   */
  surprises: { firstMinSecs: number; minSecs: number; maxSecs: number } | null;
  /**
   * Share of ordinary buys made by a wallet never seen before, and of ordinary sells that sell a
   * wallet's whole holding: holders come and go. 0 keeps the trades among the shared wallets.
   */
  holderChurn: number;
}

export const PaceSchema = z.strictObject({
  tradesPerSecond: z.number().min(0).max(10_000),
  surprises: z
    .strictObject({ firstMinSecs: z.number().min(0), minSecs: z.number().positive(), maxSecs: z.number().positive() })
    .refine((value) => value.minSecs <= value.maxSecs, { error: 'minSecs must not be above maxSecs' })
    .nullable(),
  holderChurn: z.number().min(0).max(1),
});

/**
 * The built-in simulator's pace (`npm start` with no service). A person who tracks a token must
 * see an alert within 2 minutes: every token has a surprise at most 100 s after the one before,
 * which leaves 20 s for the subscription to be served and the alert to be printed. At least 20 s
 * pass before the first, so a look-up typed at start-up reads the market as the banner left it.
 * Four ordinary trades a second across 44 tokens is about one a token every 11 s: a tracked
 * token's price visibly drifts without the ordinary trades alone crossing an alert's threshold.
 */
export const LIFELIKE_PACE: Pace = {
  tradesPerSecond: 4,
  surprises: { firstMinSecs: 20, minSecs: 30, maxSecs: 100 },
  holderChurn: 0.3,
};

/** Only ordinary trades among the shared wallets, as the standalone simulator's --trades-per-second makes (0: a still market). */
export function tradesOnly(tradesPerSecond: number): Pace {
  return { tradesPerSecond, surprises: null, holderChurn: 0 };
}

/** A market that never moves by itself: scenario controls are its only changes. */
export const STILL_PACE: Pace = tradesOnly(0);
