import { describe, expect, it } from 'vitest';
import {
  CHART_HEIGHT,
  CHART_LAYOUT,
  CHART_MAX_BARS,
  CHART_WIDTH,
  candleChartGeometry,
  renderCandleChart,
  type CandleChartInput,
} from '../../src/charts/candleChart';
import { CHART_COLORS } from '../../src/charts/theme';
import type { Candle } from '../../src/market/schemas';
import { countColor, decodePng, isColor, type Pixels } from './pixels';

const START = Date.parse('2025-03-01T00:00:00Z') / 1000;
const INTERVAL = 900;

function candle(slot: number, open: number, close: number, extra: Partial<Candle> = {}): Candle {
  const timestamp = (START + slot * INTERVAL) * 1000;
  return {
    time: null,
    timestamp,
    open,
    close,
    high: Math.max(open, close) * 1.01,
    low: Math.min(open, close) * 0.99,
    volume: 1000 + slot,
    ...extra,
  };
}

function input(candles: Candle[], extra: Partial<CandleChartInput> = {}): CandleChartInput {
  return {
    candles,
    intervalSecs: INTERVAL,
    fromSecs: START,
    toSecs: START + 96 * INTERVAL - 1,
    symbol: 'BONK',
    name: 'Bonk',
    rangeLabel: '24h',
    ...extra,
  };
}

/** The colour at the middle of a candle's body, read from the picture. */
function bodyPixel(pixels: Pixels, chart: CandleChartInput, index: number): [number, number, number] {
  const geometry = candleChartGeometry(chart);
  const bar = geometry.series.bars[index];
  if (bar === undefined) throw new Error(`no bar ${index}`);
  const x = geometry.slotX(bar) + geometry.slotWidth / 2;
  const y = (geometry.priceY(bar.open) + geometry.priceY(bar.close)) / 2;
  return pixels.at(Math.floor(x), Math.floor(y));
}

/** Up or down pixels in a column of the price pane, away from the last-price line. */
function candlePixelsInColumn(pixels: Pixels, x: number, lastY: number): number {
  let n = 0;
  for (let y = CHART_LAYOUT.priceTop; y < CHART_LAYOUT.priceBottom; y += 1) {
    if (Math.abs(y - lastY) < 12) continue;
    const pixel = pixels.at(x, y);
    if (isColor(pixel, CHART_COLORS.up) || isColor(pixel, CHART_COLORS.down)) n += 1;
  }
  return n;
}

describe('renderCandleChart', () => {
  it('draws a 1200 × 675 PNG with up candles green and down candles red where they stand', async () => {
    // Rising and falling in turn, so both colours must appear at known places.
    const candles = Array.from({ length: 96 }, (_, i) =>
      i % 2 === 0 ? candle(i, 1 + i / 100, 1.05 + i / 100) : candle(i, 1.05 + i / 100, 1 + i / 100),
    );
    const chart = input(candles);
    const pixels = await decodePng(await renderCandleChart(chart));
    expect([pixels.width, pixels.height]).toEqual([CHART_WIDTH, CHART_HEIGHT]);
    expect(isColor(pixels.at(2, 2), CHART_COLORS.background)).toBe(true);
    for (const index of [0, 10, 50, 94]) expect(isColor(bodyPixel(pixels, chart, index), CHART_COLORS.up), `candle ${index}`).toBe(true);
    for (const index of [1, 11, 51, 95]) expect(isColor(bodyPixel(pixels, chart, index), CHART_COLORS.down), `candle ${index}`).toBe(true);
    // Volume bars under the candles, in the pane below the prices.
    expect(
      countColor(
        pixels,
        CHART_COLORS.background,
        CHART_LAYOUT.plotLeft,
        CHART_LAYOUT.volumeTop,
        CHART_LAYOUT.plotRight,
        CHART_LAYOUT.volumeBottom,
      ),
    ).toBeLessThan((CHART_LAYOUT.plotRight - CHART_LAYOUT.plotLeft) * (CHART_LAYOUT.volumeBottom - CHART_LAYOUT.volumeTop));
  });

  it('puts candles at their time: a gap stays empty', async () => {
    const candles = [candle(0, 1, 2), candle(1, 2, 3), candle(60, 3, 2), candle(61, 2, 2.5)];
    const chart = input(candles);
    const geometry = candleChartGeometry(chart);
    const pixels = await decodePng(await renderCandleChart(chart));
    const lastY = geometry.priceY(2.5);
    const column = (slot: number) => Math.floor(CHART_LAYOUT.plotLeft + (slot + 0.5) * geometry.slotWidth);
    expect(candlePixelsInColumn(pixels, column(0), lastY)).toBeGreaterThan(0);
    expect(candlePixelsInColumn(pixels, column(60), lastY)).toBeGreaterThan(0);
    for (const slot of [5, 20, 40, 59]) expect(candlePixelsInColumn(pixels, column(slot), lastY), `slot ${slot}`).toBe(0);
  });

  it('draws a single candle', async () => {
    const chart = input([candle(40, 0.000002, 0.0000025)]);
    const pixels = await decodePng(await renderCandleChart(chart));
    expect(isColor(bodyPixel(pixels, chart, 0), CHART_COLORS.up)).toBe(true);
  });

  it('draws flat prices without dividing by zero', async () => {
    const candles = Array.from({ length: 20 }, (_, i) => candle(i, 0.5, 0.5, { high: 0.5, low: 0.5, volume: 0 }));
    const chart = input(candles);
    const geometry = candleChartGeometry(chart);
    expect(Number.isFinite(geometry.priceY(0.5))).toBe(true);
    expect(geometry.maxPrice).toBeGreaterThan(geometry.minPrice);
    const pixels = await decodePng(await renderCandleChart(chart));
    // A flat candle closes at its open: up, one pixel high, in the middle of the pane.
    expect(isColor(bodyPixel(pixels, chart, 3), CHART_COLORS.up)).toBe(true);
    expect(Math.abs(geometry.priceY(0.5) - (CHART_LAYOUT.priceTop + CHART_LAYOUT.priceBottom) / 2)).toBeLessThan(2);
  });

  it('draws zero candles as an empty frame', async () => {
    const pixels = await decodePng(await renderCandleChart(input([])));
    expect([pixels.width, pixels.height]).toEqual([CHART_WIDTH, CHART_HEIGHT]);
    expect(
      countColor(pixels, CHART_COLORS.up, CHART_LAYOUT.plotLeft, CHART_LAYOUT.priceTop, CHART_LAYOUT.plotRight, CHART_LAYOUT.volumeBottom),
    ).toBe(0);
    expect(
      countColor(
        pixels,
        CHART_COLORS.down,
        CHART_LAYOUT.plotLeft,
        CHART_LAYOUT.priceTop,
        CHART_LAYOUT.plotRight,
        CHART_LAYOUT.volumeBottom,
      ),
    ).toBe(0);
  });

  it('merges ten thousand candles into as many bars as fit, keeping first open, last close and every volume', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => {
      const timestamp = (START + i * 60) * 1000;
      const p = 1 + Math.sin(i / 300) * 0.3;
      return { time: null, timestamp, open: p, close: p + (i % 2 === 0 ? 0.01 : -0.01), high: p + 0.02, low: p - 0.02, volume: 1 };
    });
    const chart: CandleChartInput = { candles: many, intervalSecs: 60, symbol: 'BONK', rangeLabel: '7d' };
    const geometry = candleChartGeometry(chart);
    const { bars, slotSecs } = geometry.series;
    expect(bars.length).toBeLessThanOrEqual(CHART_MAX_BARS);
    expect(bars.length).toBeGreaterThan(CHART_MAX_BARS / 2);
    expect(slotSecs % 60).toBe(0);
    // Merged to the next usual width that fits: 10,000 minutes in 362 bars is 30 minutes a bar.
    expect(slotSecs).toBe(1800);
    expect(bars.reduce((sum, bar) => sum + bar.volume, 0)).toBe(10_000);
    expect(bars[0]?.open).toBe(many[0]?.open);
    expect(bars[bars.length - 1]?.close).toBe(many[many.length - 1]?.close);
    expect(geometry.slotWidth).toBeGreaterThanOrEqual(3);
    const pixels = await decodePng(await renderCandleChart(chart));
    expect(pixels.width).toBe(CHART_WIDTH);
    expect(
      countColor(pixels, CHART_COLORS.up, CHART_LAYOUT.plotLeft, CHART_LAYOUT.priceTop, CHART_LAYOUT.plotRight, CHART_LAYOUT.priceBottom),
    ).toBeGreaterThan(100);
  });

  it('leaves out unreadable candles and those outside the range', async () => {
    const candles = [candle(-5, 9, 9), candle(1, 1, 2), candle(2, Number.NaN, 2), candle(3, -1, 2), candle(500, 9, 9)];
    const geometry = candleChartGeometry(input(candles));
    expect(geometry.series.bars.map((bar) => bar.open)).toEqual([1]);
    expect(geometry.series.unreadable).toBe(2);
    expect(geometry.maxPrice).toBeLessThan(3);
  });

  it('draws the same bytes every time, whatever the machine’s fonts, and keeps hostile names on one line', async () => {
    const chart = input([candle(0, 1, 2), candle(1, 2, 1)], { symbol: '\u202eKNOB\u200b @everyone '.repeat(10), name: 'x\n'.repeat(200) });
    const a = await renderCandleChart(chart);
    const b = await renderCandleChart(chart);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});
