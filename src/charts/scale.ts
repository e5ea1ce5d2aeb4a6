/**
 * The numbers behind an axis: round price ticks (1, 2, 2.5 or 5 times a power of ten) and UTC time
 * ticks in the range's natural units (10 minutes over an hour, hours over a day, days over a
 * week, weeks over a month). Pure functions over finite numbers.
 */

/** The price span an axis shows: [min, max] with min < max even for flat prices. */
export function paddedPriceSpan(low: number, high: number, padFraction = 0.06): [number, number] {
  if (!(high > low)) {
    // Flat prices: a band of ±2% around the price (or ±1 around zero), so nothing divides by zero.
    const mid = Number.isFinite(low) ? low : 0;
    const half = mid === 0 ? 1 : Math.abs(mid) * 0.02;
    return [mid - half, mid + half];
  }
  const pad = (high - low) * padFraction;
  return [low - pad, high + pad];
}

const NICE_STEPS = [1, 2, 2.5, 5, 10] as const;

/** A round step giving about `count` intervals over the span. */
export function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const mantissa = raw / power;
  const nice = NICE_STEPS.find((step) => step >= mantissa - 1e-9) ?? 10;
  return nice * power;
}

/** Removes the noise of binary fractions (0.30000000000000004 → 0.3). */
function clean(n: number): number {
  return Number(n.toPrecision(12));
}

export interface PriceTicks {
  step: number;
  values: number[];
}

/** Round ticks inside [min, max], about `count` of them. */
export function priceTicks(min: number, max: number, count = 6): PriceTicks {
  const step = niceStep(max - min, count);
  const values: number[] = [];
  const first = Math.ceil(min / step);
  const last = Math.floor(max / step);
  for (let i = first; i <= last && values.length < 50; i += 1) values.push(clean(i * step));
  return { step, values };
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;
const WEEK = 7 * DAY;

/** Tick steps a time axis may use, smallest first, each a unit a reader counts in. */
const TIME_STEPS = [
  MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  WEEK,
  2 * WEEK,
  4 * WEEK,
] as const;
/** 1 January 1970 was a Thursday; weeks start on Monday, 4 days later. */
const MONDAY_OFFSET = 4 * DAY;

export interface TimeTicks {
  stepSecs: number;
  /** Unix seconds of each tick inside the span. */
  values: number[];
}

/** UTC ticks in [fromSecs, toSecs], at most `maxCount` of them, on round times of the chosen step. */
export function timeTicks(fromSecs: number, toSecs: number, maxCount = 10): TimeTicks {
  const span = Math.max(1, toSecs - fromSecs);
  const stepSecs = TIME_STEPS.find((step) => span / step <= maxCount) ?? Math.ceil(span / maxCount / WEEK) * WEEK;
  const offset = stepSecs % WEEK === 0 ? MONDAY_OFFSET : 0;
  const values: number[] = [];
  let t = Math.ceil((fromSecs - offset) / stepSecs) * stepSecs + offset;
  for (; t <= toSecs && values.length < 100; t += stepSecs) values.push(t);
  return { stepSecs, values };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** "Nov 23": a UTC date. */
export function dateLabel(unixSecs: number): string {
  const d = new Date(unixSecs * 1000);
  return `${MONTHS[d.getUTCMonth()] ?? ''} ${d.getUTCDate()}`;
}

/** "14:30": a UTC time of day. */
function clockLabel(d: Date): string {
  return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
}

/** "14:30" below a day's step, the date at midnight and from a day's step up: the axis names days where they start. */
export function timeLabel(unixSecs: number, stepSecs: number): string {
  const d = new Date(unixSecs * 1000);
  const midnight = d.getUTCHours() === 0 && d.getUTCMinutes() === 0;
  if (stepSecs >= DAY || midnight) return dateLabel(unixSecs);
  return clockLabel(d);
}
