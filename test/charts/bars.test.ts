import { describe, expect, it } from 'vitest';
import { barsFor } from '../../src/charts/bars';
import type { Candle } from '../../src/market/schemas';

function c(secs: number, open: number, high: number, low: number, close: number, volume: number): Candle {
  return { time: null, timestamp: secs * 1000, open, high, low, close, volume };
}

describe('barsFor', () => {
  it('keeps one bar per candle when they fit', () => {
    const series = barsFor([c(120, 1, 2, 0.5, 1.5, 3), c(60, 2, 3, 1, 1, 4)], { intervalSecs: 60, fromSecs: 60, toSecs: 200, maxBars: 10 });
    expect(series.slotSecs).toBe(60);
    expect(series.bars.map((bar) => bar.startMs)).toEqual([60_000, 120_000]);
    expect([series.fromSecs, series.toSecs]).toEqual([60, 240]);
  });

  it('merges neighbours into wider bars when the range holds more slots than fit', () => {
    const candles = [c(0, 1, 2, 0.5, 1.5, 1), c(60, 1.5, 4, 1, 3, 2), c(120, 3, 3.5, 0.2, 0.4, 3), c(180, 0.4, 1, 0.3, 0.9, 4)];
    const series = barsFor(candles, { intervalSecs: 60, fromSecs: 0, toSecs: 239, maxBars: 2 });
    expect(series.slotSecs).toBe(120);
    expect(series.bars).toEqual([
      { startMs: 0, open: 1, high: 4, low: 0.5, close: 3, volume: 3 },
      { startMs: 120_000, open: 3, high: 3.5, low: 0.2, close: 0.9, volume: 7 },
    ]);
  });

  it('never gives more bars than fit, even where merged slots straddle the edges', () => {
    for (const maxBars of [1, 7, 100, 362]) {
      for (const from of [0, 59, 61, 3599]) {
        const candles = Array.from({ length: 1000 }, (_, i) => c(from + i * 60, 1, 1, 1, 1, 1));
        const series = barsFor(candles, { intervalSecs: 60, fromSecs: from, toSecs: from + 999 * 60, maxBars });
        expect(series.bars.length, `${maxBars} from ${from}`).toBeLessThanOrEqual(maxBars);
        expect(series.bars.reduce((s, b) => s + b.volume, 0)).toBe(1000);
      }
    }
  });

  it('widens a candle whose open or close lies outside its high and low', () => {
    const [bar] = barsFor([c(0, 5, 2, 1, 0.5, 1)], { intervalSecs: 60, maxBars: 10 }).bars;
    expect(bar).toMatchObject({ high: 5, low: 0.5 });
  });
});
