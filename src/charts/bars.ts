/**
 * Candles as the picture draws them: bars on slots of one width, aligned to multiples of that
 * width since the epoch (as the service aligns candles). When the range holds more slots than the
 * picture has room for, neighbouring candles merge into wider bars (open of the first, close of
 * the last, highest high, lowest low, summed volume), so ten thousand candles still draw as
 * bars a few pixels wide. Unreadable candles (a price that is not finite or below zero) are left
 * out; a candle whose open or close lies outside its high and low is widened to hold them.
 */
import type { Candle } from '../market/schemas';

export interface Bar {
  /** Start of the bar's slot, Unix milliseconds. */
  startMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface BarSeries {
  bars: Bar[];
  /** Width of one bar's slot, seconds: the candle interval, or a multiple of it when merged. */
  slotSecs: number;
  /** First and last slot edges of the axis, Unix seconds. */
  fromSecs: number;
  toSecs: number;
  /** Candles read (after unreadable ones were left out) and how many were left out. */
  candleCount: number;
  unreadable: number;
}

export interface BarWindow {
  /** Start and end of the range, Unix seconds; derived from the candles when not given. */
  fromSecs?: number;
  toSecs?: number;
  intervalSecs: number;
  /** Most bars the picture can draw side by side. */
  maxBars: number;
}

/** Widths merged bars take when one fits: the widths charting sites offer. */
const MERGED_WIDTHS = [120, 300, 600, 900, 1800, 3600, 7200, 14_400, 21_600, 43_200, 86_400, 2 * 86_400, 7 * 86_400] as const;

function readable(candle: Candle): boolean {
  const values = [candle.open, candle.high, candle.low, candle.close];
  return Number.isFinite(candle.timestamp) && values.every((v) => Number.isFinite(v) && v >= 0) && Number.isFinite(candle.volume);
}

/** Bars for the picture; candles may come in any order and outside the window (those are ignored). */
export function barsFor(candles: readonly Candle[], window: BarWindow): BarSeries {
  const interval = Math.max(1, Math.floor(window.intervalSecs));
  const usable = candles.filter(readable);
  const unreadable = candles.length - usable.length;
  let minMs = Infinity;
  let maxMs = -Infinity;
  for (const candle of usable) {
    minMs = Math.min(minMs, candle.timestamp);
    maxMs = Math.max(maxMs, candle.timestamp);
  }
  // The axis runs from the slot holding `from` to the slot holding `to`: the service puts trades
  // at exactly `to` in a candle that starts there.
  const lastSecs = window.toSecs ?? (usable.length > 0 ? Math.floor(maxMs / 1000) : 0);
  const firstSecs = Math.min(lastSecs, window.fromSecs ?? (usable.length > 0 ? Math.floor(minMs / 1000) : lastSecs));
  const slotsWanted = Math.floor(lastSecs / interval) - Math.floor(firstSecs / interval) + 1;
  const maxBars = Math.max(1, Math.floor(window.maxBars));
  const slotsAt = (width: number) => Math.floor(lastSecs / width) - Math.floor(firstSecs / width) + 1;
  let slotSecs = interval;
  if (slotsAt(interval) > maxBars) {
    // A merged bar is as wide as a usual candle (so the title can name it) when one fits, else the
    // least multiple of the interval that does. Merged slots align to multiples of their own
    // width, which can add one slot at an edge: hence the check on the aligned count.
    const least = interval * Math.ceil(slotsWanted / maxBars);
    const round = MERGED_WIDTHS.find((width) => width >= least && width % interval === 0 && slotsAt(width) <= maxBars);
    if (round !== undefined) slotSecs = round;
    else {
      let factor = Math.ceil(least / interval);
      while (slotsAt(interval * factor) > maxBars) factor += 1;
      slotSecs = interval * factor;
    }
  }
  const fromSecs = Math.floor(firstSecs / slotSecs) * slotSecs;
  const axisTo = Math.floor(lastSecs / slotSecs) * slotSecs + slotSecs;

  const bySlot = new Map<number, Bar>();
  const inWindow = usable
    .filter((candle) => candle.timestamp >= fromSecs * 1000 && candle.timestamp < axisTo * 1000)
    .sort((a, b) => a.timestamp - b.timestamp);
  for (const candle of inWindow) {
    const startMs = Math.floor(candle.timestamp / 1000 / slotSecs) * slotSecs * 1000;
    const high = Math.max(candle.high, candle.open, candle.close, candle.low);
    const low = Math.min(candle.low, candle.open, candle.close, candle.high);
    const bar = bySlot.get(startMs);
    if (bar === undefined) {
      bySlot.set(startMs, { startMs, open: candle.open, high, low, close: candle.close, volume: Math.max(0, candle.volume) });
    } else {
      bar.high = Math.max(bar.high, high);
      bar.low = Math.min(bar.low, low);
      bar.close = candle.close;
      bar.volume += Math.max(0, candle.volume);
    }
  }
  const bars = [...bySlot.values()].sort((a, b) => a.startMs - b.startMs);
  return { bars, slotSecs, fromSecs, toSecs: axisTo, candleCount: inWindow.length, unreadable };
}
