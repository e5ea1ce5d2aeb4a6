/**
 * CandlesReadingSchema's reading (schemas.ts) written out by hand, for /token's candles: the card
 * asks for a day of 5-minute candles, and a zod run per field of each of them was a tenth of what
 * the look-up costs beyond its two requests. Each field is read by the very function its schema
 * uses (wire.ts), so the result is the schema's, to the key order and the sort.
 *
 * All or nothing: an answer with any element this reader does not take gives null, and the
 * schema reads the whole answer, leaving out what it cannot read with its reasons for the log.
 * test/market/readCandles.test.ts holds the two side by side.
 */
import { isPlainObject } from './fastRead';
import type { Candle } from './schemas';
import { readDecimal, readOptionalText, type Reading } from './wire';

/** The Candle CandleSchema would give, or null when the schema must be asked. */
export function readCandleFast(value: unknown): Candle | null {
  if (!isPlainObject(value)) return null;
  const timestamp = readDecimal(value.timestamp);
  const open = readDecimal(value.open);
  const high = readDecimal(value.high);
  const low = readDecimal(value.low);
  const close = readDecimal(value.close);
  if (timestamp === null || open === null || high === null || low === null || close === null) return null;
  return {
    time: readOptionalText(value.time),
    timestamp: Math.trunc(timestamp),
    open,
    high,
    low,
    close,
    volume: readDecimal(value.volume) ?? 0,
  };
}

/** `{candles}` or a bare list, oldest first, as CandlesReadingSchema reads it; null when the schema must. */
export function readCandlesFast(raw: unknown): Reading<Candle[]> | null {
  let list: unknown;
  if (Array.isArray(raw)) list = raw;
  else if (isPlainObject(raw)) list = raw.candles ?? [];
  else return null;
  if (!Array.isArray(list)) return null;
  const value: Candle[] = [];
  for (const item of list as unknown[]) {
    const candle = readCandleFast(item);
    if (candle === null) return null;
    value.push(candle);
  }
  // Stable, as the schema's: candles of one start time keep the order they came in.
  value.sort((a, b) => a.timestamp - b.timestamp);
  return { value, dropped: 0, examples: [] };
}
