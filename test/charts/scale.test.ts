import { describe, expect, it } from 'vitest';
import { fixedPrice, priceLabels } from '../../src/charts/priceLabel';
import { paddedPriceSpan, priceTicks, timeLabel, timeTicks } from '../../src/charts/scale';
import { pictureText } from '../../src/charts/text';

const NOW = Date.parse('2025-03-05T14:07:00Z') / 1000;
const HOUR = 3600;
const DAY = 86_400;

describe('time axis', () => {
  it.each([
    ['1h', HOUR, 10 * 60, '13:10'],
    ['6h', 6 * HOUR, HOUR, '09:00'],
    ['24h', DAY, 3 * HOUR, '15:00'],
    ['7d', 7 * DAY, DAY, 'Feb 27'],
    ['30d', 30 * DAY, 7 * DAY, 'Feb 10'],
  ])('ticks a %s range in its natural unit', (_name, range, step, firstLabel) => {
    const ticks = timeTicks(NOW - range, NOW, 10);
    expect(ticks.stepSecs).toBe(step);
    expect(ticks.values.length).toBeGreaterThanOrEqual(4);
    expect(ticks.values.length).toBeLessThanOrEqual(10);
    expect(timeLabel(ticks.values[0] ?? 0, ticks.stepSecs)).toBe(firstLabel);
    for (const t of ticks.values) expect(t % step === 0 || step === 7 * DAY).toBe(true);
  });

  it('starts weeks on Monday and names a day where it starts', () => {
    const weekly = timeTicks(NOW - 30 * DAY, NOW, 10);
    for (const t of weekly.values) expect(new Date(t * 1000).getUTCDay()).toBe(1);
    expect(timeLabel(Date.parse('2025-03-05T00:00:00Z') / 1000, 3 * HOUR)).toBe('Mar 5');
    expect(timeLabel(Date.parse('2025-03-05T21:00:00Z') / 1000, 3 * HOUR)).toBe('21:00');
  });
});

describe('price axis', () => {
  it('pads a flat price into a band and keeps others with a margin', () => {
    expect(paddedPriceSpan(2, 2)).toEqual([1.96, 2.04]);
    expect(paddedPriceSpan(0, 0)).toEqual([-1, 1]);
    const [lo, hi] = paddedPriceSpan(1, 2);
    expect(lo).toBeLessThan(1);
    expect(hi).toBeGreaterThan(2);
  });

  it('puts round ticks inside the span', () => {
    expect(priceTicks(0.95, 2.05, 5)).toEqual({ step: 0.25, values: [1, 1.25, 1.5, 1.75, 2] });
    const tiny = priceTicks(0.0000026, 0.0000031, 5);
    expect(tiny.values.every((v) => v >= 0.0000026 && v <= 0.0000031)).toBe(true);
    expect(tiny.values.length).toBeGreaterThanOrEqual(3);
  });

  it('writes tiny prices as the cards do, and adds digits only when ticks would read the same', () => {
    expect(priceLabels([0.0000028, 0.000003, 0.0000032], 0.0000002)).toEqual(['0.0₅28', '0.0₅3', '0.0₅32']);
    expect(priceLabels([1500, 2000], 500)).toEqual(['1,500', '2,000']);
    // 4 significant digits cannot tell 1.00012 from 1.00014: more places, same notation.
    expect(priceLabels([1.00012, 1.00014], 0.00002)).toEqual(['1.00012', '1.00014']);
    expect(fixedPrice(0.00000286725, 11)).toBe('0.0₅286725');
    expect(fixedPrice(12345.5, 1)).toBe('12,345.5');
  });
});

describe('picture text', () => {
  it('cleans hostile text to one line and shows a defused mention as a plain @', () => {
    expect(pictureText('\u202eKNOB\u200b\n＠everyone')).toBe('KNOB @everyone');
    expect(pictureText(null, '?')).toBe('?');
    expect(Array.from(pictureText('x'.repeat(500))).length).toBeLessThanOrEqual(80);
  });
});
