/**
 * How a token's price moved over 5 minutes, an hour, 6 hours and a day, and what traded in the
 * day, read from one `chart-history` answer of 5-minute candles. Pure: the candles and the time
 * come in, figures go out, and the card writes them.
 *
 * Candles are trade prices (SOL per whole token), one per 5 minutes in which something traded,
 * each covering [timestamp, timestamp + 5 minutes). A change over a window compares the newest
 * candle's close (the last trade price) with the price when the window began: the close of the
 * newest candle that ended at or before that moment, as nothing traded between it and the start;
 * when the candles read hold none that early, the open of the first candle inside the window.
 * Windows are thus measured to the 5-minute candle: "5m" reaches back 5 to 10 minutes. A token
 * younger than a window has no change over it, only its age.
 */
import type { Candle } from '../market/schemas';

/** The candles the card reads: 5 minutes each, the finest that keeps a day within 300 of them. */
export const MOVE_CANDLE_SECS = 300;

export const CHANGE_WINDOWS = [
  { label: '5m', secs: 5 * 60 },
  { label: '1h', secs: 60 * 60 },
  { label: '6h', secs: 6 * 60 * 60 },
  { label: '24h', secs: 24 * 60 * 60 },
] as const;

const DAY_SECS = 24 * 60 * 60;

/** One window's figure: a change in percent, the token's age when it is younger, or nothing to compare. */
export type WindowChange =
  | { label: string; kind: 'change'; pct: number }
  | { label: string; kind: 'younger'; ageSecs: number }
  | { label: string; kind: 'unknown' };

export interface MarketMoves {
  changes: WindowChange[];
  /** Traded in the last 24 hours (or since launch): whole tokens, and SOL at each candle's close. */
  volume24h: { tokens: number; sol: number };
}

/**
 * The `from` (Unix seconds) of the request: a candle before the day's first, so the day has a
 * starting price, on a 5-minute boundary, so that requests within those 5 minutes are one cache entry.
 */
export function movesFrom(nowMs: number): number {
  const dayAgo = Math.floor(nowMs / 1000) - DAY_SECS;
  return Math.floor(dayAgo / MOVE_CANDLE_SECS) * MOVE_CANDLE_SECS - MOVE_CANDLE_SECS;
}

function finitePositive(value: number): boolean {
  return Number.isFinite(value) && value > 0;
}

/**
 * The moves at `nowMs` from candles of MOVE_CANDLE_SECS (any order; candles from the future and
 * unreadable prices are left out). `createdSecs`: the token's creation (Unix seconds), null when unknown.
 */
export function marketMoves(candles: readonly Candle[], nowMs: number, createdSecs: number | null): MarketMoves {
  const intervalMs = MOVE_CANDLE_SECS * 1000;
  const usable = candles
    .filter((candle) => candle.timestamp <= nowMs && finitePositive(candle.open) && finitePositive(candle.close))
    .sort((a, b) => a.timestamp - b.timestamp);
  const newest = usable[usable.length - 1];
  const changes: WindowChange[] = CHANGE_WINDOWS.map(({ label, secs }) => {
    const startMs = nowMs - secs * 1000;
    if (createdSecs !== null && createdSecs * 1000 > startMs)
      return { label, kind: 'younger', ageSecs: Math.max(0, Math.floor(nowMs / 1000 - createdSecs)) };
    if (newest === undefined) return { label, kind: 'unknown' };
    let before: Candle | undefined;
    for (const candle of usable) {
      if (candle.timestamp + intervalMs > startMs) break;
      before = candle;
    }
    const reference = before?.close ?? usable.find((candle) => candle.timestamp >= startMs)?.open;
    if (reference === undefined) return { label, kind: 'unknown' };
    const pct = ((newest.close - reference) / reference) * 100;
    return Number.isFinite(pct) ? { label, kind: 'change', pct } : { label, kind: 'unknown' };
  });
  let tokens = 0;
  let sol = 0;
  const dayStartMs = nowMs - DAY_SECS * 1000;
  for (const candle of usable) {
    // Candles that began within the day: the one straddling its start counts in the day before.
    if (candle.timestamp < dayStartMs || !Number.isFinite(candle.volume) || candle.volume < 0) continue;
    tokens += candle.volume;
    sol += candle.volume * candle.close;
  }
  return { changes, volume24h: { tokens, sol } };
}
