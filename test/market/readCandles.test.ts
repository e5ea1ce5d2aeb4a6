import { describe, expect, it } from 'vitest';
import { readCandlesFast } from '../../src/market/readCandles';
import { CandlesReadingSchema } from '../../src/market/schemas';
import { wireCandle } from './stream/support/samples';

/** The hand-written reader must give exactly what the schema gives, or leave the answer to it (null). */
function expectSameAsSchema(raw: unknown): void {
  const fast = readCandlesFast(raw);
  const schema = CandlesReadingSchema.safeParse(raw);
  if (fast === null) return;
  expect(schema.success).toBe(true);
  if (!schema.success) return;
  expect(fast).toStrictEqual(schema.data);
  for (const [index, candle] of fast.value.entries()) expect(Object.keys(candle)).toEqual(Object.keys(schema.data.value[index] ?? {}));
}

const candles = (): Array<Record<string, unknown>> => [wireCandle(3_000, 1.2), wireCandle(1_000, 1.5), wireCandle(2_000, 0.9)];

describe('readCandlesFast', () => {
  it.each<[string, () => unknown, 'fast' | 'schema']>([
    ['{candles}, out of order', () => ({ candles: candles() }), 'fast'],
    ['a bare list', () => candles(), 'fast'],
    ['no candles', () => ({}), 'fast'],
    ['null candles', () => ({ candles: null }), 'fast'],
    ['an empty list', () => [], 'fast'],
    [
      'two candles of one start time, kept in their order',
      () => [
        { ...wireCandle(1_000), close: 1 },
        { ...wireCandle(1_000), close: 2 },
      ],
      'fast',
    ],
    [
      'figures as text, no volume, no time, a fractional timestamp',
      () => [{ timestamp: '1000.7', open: '1', high: '2', low: '0.5', close: '1.5e0' }],
      'fast',
    ],
    ['a null volume and a numeric time', () => [{ ...wireCandle(1_000), volume: null, time: 5 }], 'fast'],
    ['extra fields', () => ({ candles: [{ ...wireCandle(1_000), trades: 3 }], next: 'x' }), 'fast'],
    ['a candle without a close', () => [wireCandle(1_000), { ...wireCandle(2_000), close: undefined }], 'schema'],
    ['a candle with a close that is no number', () => ({ candles: [{ ...wireCandle(2_000), close: 'high' }] }), 'schema'],
    ['an element that is no candle', () => [wireCandle(1_000), 'candle', null], 'schema'],
    ['candles that are no list', () => ({ candles: 'none' }), 'schema'],
    ['text', () => 'candles', 'schema'],
    ['null', () => null, 'schema'],
  ])('%s: read as the schema reads it, or left to it', (_what, make, by) => {
    const raw = make();
    expect(readCandlesFast(raw) === null ? 'schema' : 'fast').toBe(by);
    expectSameAsSchema(raw);
  });
});
