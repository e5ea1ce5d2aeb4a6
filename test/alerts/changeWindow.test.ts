/**
 * A price move's card and its picture name the same change over the same window, and a large move
 * reads as written out (the one percentage format, src/text/format.ts).
 */
import { createCanvas } from '@napi-rs/canvas';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alertCardWithChart } from '../../src/alerts/alertCard';
import { plainText } from '../../src/cards/card';
import type { PriceEvent } from '../../src/model/events';
import { T1 } from '../watch/support/fixtures';

const AT = Date.UTC(2026, 10, 23, 12, 0, 0);

/** A move of `changePct` over `windowSecs`, its points a price every 15 s across the window. */
function move(changePct: number, windowSecs: number): PriceEvent {
  const from = 0.001;
  const to = from * (1 + changePct / 100);
  const count = Math.floor(windowSecs / 15) + 1;
  const points = Array.from({ length: count }, (_, i): [number, number] => [
    AT - (windowSecs - i * 15) * 1000,
    from + ((to - from) * i) / (count - 1),
  ]);
  return {
    kind: 'price',
    key: 'k',
    at: AT,
    token: { address: T1, symbol: 'FIX', name: 'Fixture Token' },
    from,
    to,
    changePct,
    previousChangePct: 0,
    windowSecs,
    priceUsd: null,
    points,
  };
}

/** Reads back every text the picture drew, as it drew it. */
function drawnTexts(): () => string[] {
  const context = Object.getPrototypeOf(createCanvas(1, 1).getContext('2d')) as { fillText: (text: string, x: number, y: number) => void };
  const spy = vi.spyOn(context, 'fillText');
  return () => spy.mock.calls.map((call) => String(call[0]));
}

afterEach(() => vi.restoreAllMocks());

describe('a price move', () => {
  it('says the same change and window on its card and in its picture', async () => {
    const drawn = drawnTexts();
    const card = await alertCardWithChart(move(40.1, 315), null);
    expect(plainText(card.fields.find((f) => f.name === 'Change')?.value ?? [])).toBe('+40.1% in 5m');
    expect(card.image).toBeDefined();
    expect(drawn().some((text) => text.includes('+40.1% in 5m'))).toBe(true);
    expect(drawn().join(' ')).not.toContain('5m15s');
  });

  it('reads a large move in whole percent on the card, in its title and in its picture', async () => {
    const drawn = drawnTexts();
    const card = await alertCardWithChart(move(2_469.8, 1_800), null);
    expect(card.title).toBe('Price up 2,470%: Fixture Token (FIX)');
    expect(plainText(card.fields.find((f) => f.name === 'Change')?.value ?? [])).toBe('+2,470% in 30m');
    expect(drawn().some((text) => text.includes('+2,470% in 30m'))).toBe(true);
    expect(drawn().join(' ')).not.toMatch(/K%/);
  });
});
