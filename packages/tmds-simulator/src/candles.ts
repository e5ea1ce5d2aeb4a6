/**
 * Candles aggregated from trades at any interval (spec §2.8, §4.5). Buckets are aligned to
 * multiples of the interval since the Unix epoch; only trades with from ≤ timestamp ≤ to count;
 * intervals without trades produce no candle. Prices are SOL per whole token (the trade's
 * execution price), volume is in whole tokens. Candles come oldest first; countBack keeps the
 * newest N of them.
 */
import type { TradeEntry } from './ledger';
import type { WireCandle } from './wireTypes';
import { TOKEN_UNIT, isoAt, solPerToken } from './units';

export interface CandleQuery {
  from: number;
  to: number;
  intervalSecs: number;
  countBack?: number;
}

/** Index of the first trade with t ≥ time in a chronological list. */
function firstAtOrAfter(trades: readonly TradeEntry[], time: number): number {
  let lo = 0;
  let hi = trades.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((trades[mid]?.t ?? Infinity) < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function aggregateCandles(trades: readonly TradeEntry[], query: CandleQuery): WireCandle[] {
  const { from, to, intervalSecs } = query;
  const candles: WireCandle[] = [];
  let bucket = Number.NaN;
  let current: { open: number; high: number; low: number; close: number; units: number } | null = null;
  const flush = () => {
    if (!current) return;
    candles.push({
      time: isoAt(bucket),
      timestamp: bucket * 1000,
      open: current.open,
      high: current.high,
      low: current.low,
      close: current.close,
      volume: current.units / TOKEN_UNIT,
    });
  };
  for (let i = firstAtOrAfter(trades, from); i < trades.length; i++) {
    const trade = trades[i];
    if (!trade || trade.t > to) break;
    const price = solPerToken(trade.lamports, trade.tokenAmount);
    const start = Math.floor(trade.t / intervalSecs) * intervalSecs;
    if (!current || start !== bucket) {
      flush();
      bucket = start;
      current = { open: price, high: price, low: price, close: price, units: 0 };
    }
    current.high = Math.max(current.high, price);
    current.low = Math.min(current.low, price);
    current.close = price;
    current.units += trade.tokenAmount;
  }
  flush();
  if (query.countBack !== undefined && candles.length > query.countBack) return candles.slice(candles.length - query.countBack);
  return candles;
}
