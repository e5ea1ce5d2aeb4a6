import { describe, expect, it } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import { buildChartCard, summarizeCandles } from '../../src/cards/chartCard';
import { tokenInfoFrom } from '../../src/cards/tradeFacts';
import type { Candle } from '../../src/market/schemas';

const TOKEN = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const NOW = new Date('2025-01-01T12:00:00Z');
const BONK = tokenInfoFrom(TOKEN, { address: TOKEN, name: 'Bonk', symbol: 'BONK', decimals: 5, logo: null });

function candle(minute: number, open: number, high: number, low: number, close: number, volume: number): Candle {
  const timestamp = NOW.getTime() - (60 - minute) * 60_000;
  return { time: new Date(timestamp).toISOString(), timestamp, open, high, low, close, volume };
}

const CANDLES = [
  candle(0, 0.002, 0.003, 0.0019, 0.0025, 1000),
  candle(15, 0.0025, 0.004, 0.0021, 0.0022, 250.5),
  candle(30, 0.0022, 0.0023, 0.0015, 0.003, 4000),
];

function values(card: Card): Record<string, string> {
  return Object.fromEntries(card.fields.map((f) => [f.name, plainText(f.value)]));
}

describe('summarizeCandles', () => {
  it('takes the first open, the last close, the extremes and the summed volume', () => {
    const summary = summarizeCandles(CANDLES);
    expect(summary).toMatchObject({ open: 0.002, high: 0.004, low: 0.0015, close: 0.003, volume: 5250.5, count: 3 });
    expect(summary?.changePct).toBeCloseTo(50, 9);
  });

  it('is null without candles and has no change from a zero open', () => {
    expect(summarizeCandles([])).toBeNull();
    expect(summarizeCandles([candle(0, 0, 1, 0, 1, 1)])?.changePct).toBeNaN();
  });
});

describe('buildChartCard', () => {
  it('shows open, high, low, close, change and volume in SOL', () => {
    const card = buildChartCard({
      token: BONK,
      candles: CANDLES,
      intervalSecs: 900,
      requestedIntervalSecs: 900,
      rangeSecs: 86_400,
      now: NOW,
    });
    expect(card.title).toBe('Chart of Bonk (BONK)');
    expect(card.url).toBe(`https://solscan.io/token/${TOKEN}`);
    expect(card.image).toBeUndefined();
    expect(values(card)).toEqual({
      Open: '0.002 SOL',
      High: '0.004 SOL',
      Low: '0.0015 SOL',
      Close: '0.003 SOL',
      Change: '+50%',
      // The token card's units: SOL (each candle's volume at its close), USD too with a rate.
      Volume: '15.05 SOL',
      Candles: '3 × 15m',
      Range: 'last 1d',
    });
    expect(card.fields.every((f) => f.inline)).toBe(true);
    expect(card.footer).toBe('Prices in SOL per BONK');
    expect(card.actions).toEqual([
      { label: 'Token', command: 'token', args: [TOKEN] },
      { label: 'Chart 7d', command: 'chart', args: [TOKEN, '4h', '7d'] },
    ]);
  });

  it('says when the interval was widened', () => {
    const card = buildChartCard({
      token: BONK,
      candles: CANDLES,
      intervalSecs: 1800,
      requestedIntervalSecs: 60,
      rangeSecs: 7 * 86_400,
      now: NOW,
    });
    expect(card.footer).toBe('Prices in SOL per BONK · 1m candles over 1w would be too many; shown at 30m');
    expect(values(card).Candles).toBe('3 × 30m');
    expect(card.actions).toHaveLength(1);
  });

  it('says clearly when there are no candles', () => {
    const card = buildChartCard({ token: BONK, candles: [], intervalSecs: 60, requestedIntervalSecs: 60, rangeSecs: 300, now: NOW });
    expect(card.title).toBe('No chart for Bonk (BONK)');
    expect(plainText(card.description ?? [])).toBe('No trades of Bonk (BONK) in the last 5m, so there are no 1m candles to show.');
    expect(card.fields).toEqual([]);
    expect(card.color).toBe('neutral');
  });

  it('shows a falling close with a minus sign', () => {
    const card = buildChartCard({
      token: tokenInfoFrom(TOKEN, null),
      candles: [candle(0, 0.004, 0.004, 0.001, 0.001, 1)],
      intervalSecs: 900,
      requestedIntervalSecs: 900,
      rangeSecs: 86_400,
      now: NOW,
    });
    expect(values(card).Change).toBe('−75%');
    expect(card.title).toBe('Chart of DezX…B263');
  });

  it('carries the picture it is given, and says when candles were left out or the picture failed', () => {
    const image = { filename: 'chart.png', contentType: 'image/png', data: new Uint8Array([137, 80, 78, 71]) };
    const card = buildChartCard({
      token: BONK,
      candles: CANDLES,
      intervalSecs: 900,
      requestedIntervalSecs: 900,
      rangeSecs: 86_400,
      rangeLabel: '24h',
      now: NOW,
      image,
      dropped: 599_997,
      received: 600_000,
    });
    expect(card.image).toBe(image);
    expect(values(card).Range).toBe('last 24h');
    expect(plainText(card.description ?? [])).toBe(
      'The service sent 600,000 candles for the last 24h; 599,997 outside that range, repeated or beyond the number asked for were left out.',
    );
    const unread = buildChartCard({
      token: BONK,
      candles: CANDLES,
      intervalSecs: 900,
      requestedIntervalSecs: 900,
      rangeSecs: 86_400,
      now: NOW,
      unreadable: 3,
    });
    expect(plainText(unread.description ?? [])).toBe('3 candles could not be read.');
    const failed = buildChartCard({
      token: BONK,
      candles: CANDLES,
      intervalSecs: 900,
      requestedIntervalSecs: 900,
      rangeSecs: 86_400,
      now: NOW,
      pictureFailed: true,
    });
    expect(failed.image).toBeUndefined();
    expect(failed.description).toBeUndefined();
    expect(failed.footer).toBe('Prices in SOL per BONK · The picture could not be drawn');
  });
});
