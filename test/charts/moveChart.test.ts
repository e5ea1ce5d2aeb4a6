import { describe, expect, it } from 'vitest';
import { MOVE_CHART_HEIGHT, MOVE_CHART_WIDTH, renderMoveChart, type PricePoint } from '../../src/charts/moveChart';
import { CHART_COLORS } from '../../src/charts/theme';
import { countColor, decodePng } from './pixels';

const T0 = Date.parse('2025-01-01T12:00:00Z');

function series(from: number, to: number, count = 30): PricePoint[] {
  return Array.from({ length: count }, (_, i) => [T0 + i * 30_000, from + ((to - from) * i) / (count - 1)] as const);
}

describe('renderMoveChart', () => {
  it('draws a rise in the up colour and a fall in the down colour, 600 × 300', async () => {
    const rise = await decodePng(await renderMoveChart(series(0.000002, 0.0000026), { symbol: 'BONK' }));
    expect([rise.width, rise.height]).toEqual([MOVE_CHART_WIDTH, MOVE_CHART_HEIGHT]);
    expect(countColor(rise, CHART_COLORS.up)).toBeGreaterThan(50);
    expect(countColor(rise, CHART_COLORS.down)).toBe(0);

    const fall = await decodePng(await renderMoveChart(series(1.2, 0.9), { symbol: 'WIF', quote: 'USD' }));
    expect(countColor(fall, CHART_COLORS.down)).toBeGreaterThan(50);
    expect(countColor(fall, CHART_COLORS.up)).toBe(0);
  });

  it('measures the move from the given reference price', async () => {
    // The points rise, but end below the price the move is measured from: a fall.
    const pixels = await decodePng(await renderMoveChart(series(1, 1.5), { basePrice: 2 }));
    expect(countColor(pixels, CHART_COLORS.down)).toBeGreaterThan(50);
    expect(countColor(pixels, CHART_COLORS.up)).toBe(0);
  });

  it('holds for no points, one point, flat prices, unreadable points and many points, at any asked size', async () => {
    const empty = await decodePng(await renderMoveChart([]));
    expect(countColor(empty, CHART_COLORS.up) + countColor(empty, CHART_COLORS.down)).toBe(0);
    const one = await decodePng(await renderMoveChart([[T0, 5]]));
    expect(countColor(one, CHART_COLORS.up)).toBeGreaterThan(0);
    const flat = await decodePng(await renderMoveChart(series(3, 3)));
    expect(countColor(flat, CHART_COLORS.up)).toBeGreaterThan(50);
    const junk = await decodePng(
      await renderMoveChart([
        [T0, Number.NaN],
        [Number.POSITIVE_INFINITY, 1],
        [T0 + 1000, -4],
        [T0 + 2000, 2],
        [T0, 1],
      ]),
    );
    expect(countColor(junk, CHART_COLORS.up)).toBeGreaterThan(0);
    const many = Array.from({ length: 20_000 }, (_, i) => [T0 + i * 1000, 1 + Math.sin(i / 500)] as const);
    const big = await decodePng(await renderMoveChart(many, { width: 800, height: 400 }));
    expect([big.width, big.height]).toEqual([800, 400]);
    const tiny = await decodePng(await renderMoveChart(series(1, 2), { width: 10, height: 1e9 }));
    expect([tiny.width, tiny.height]).toEqual([200, 1200]);
  });
});
