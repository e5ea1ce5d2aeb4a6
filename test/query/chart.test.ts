import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answered } from '../support/commandContext';
import { plainText, type Card } from '../../src/cards/card';
import { compact, percent, price } from '../../src/cards/format';
import { chartCard, chartWindow, DEFAULT_CHART_INTERVAL_SECS, DEFAULT_CHART_RANGE_SECS, MAX_CHART_CANDLES } from '../../src/query/chartQuery';
import { startTestMarket, type TestMarket } from '../support/market';

interface RawCandle {
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

let m: TestMarket;
const now = new Date();
const to = Math.floor(now.getTime() / 1000);

beforeAll(async () => {
  m = await startTestMarket({ now: () => now });
});
afterAll(async () => {
  await m.close();
});

async function rawCandles(token: string, rangeSecs: number, intervalSecs: number): Promise<RawCandle[]> {
  const body = await m.raw<{ candles: RawCandle[] }>(`/api/chart-history?base=${token}&from=${to - rangeSecs}&to=${to}&intervalSecs=${intervalSecs}`);
  return body.candles;
}

/** OHLC and volume computed here, independently of the card's own code. */
function expected(candles: RawCandle[]): Record<string, string> {
  const sorted = [...candles].sort((a, b) => a.timestamp - b.timestamp);
  const open = sorted[0]?.open ?? NaN;
  const close = sorted[sorted.length - 1]?.close ?? NaN;
  return {
    Open: `${price(open)} SOL`,
    High: `${price(Math.max(...sorted.map((c) => c.high)))} SOL`,
    Low: `${price(Math.min(...sorted.map((c) => c.low)))} SOL`,
    Close: `${price(close)} SOL`,
    Change: percent(((close - open) / open) * 100, { signed: true }),
    Volume: compact(sorted.reduce((sum, c) => sum + c.volume, 0)),
  };
}

function values(card: Card): Record<string, string> {
  return Object.fromEntries(card.fields.map((f) => [f.name, plainText(f.value)]));
}

describe('chart card against the simulator', () => {
  it('agrees with OHLC and volume computed from the raw candles, at the default 15m over 24h', async () => {
    const token = m.listing.tokens[0]?.address ?? '';
    const card = await m.query.chart({ address: token });
    const raw = await rawCandles(token, DEFAULT_CHART_RANGE_SECS, DEFAULT_CHART_INTERVAL_SECS);
    expect(raw.length).toBeGreaterThan(1);
    const shown = values(card);
    const want = expected(raw);
    for (const name of ['Open', 'High', 'Low', 'Close', 'Change'] as const) expect(shown[name], name).toBe(want[name]);
    expect(shown.Volume?.startsWith(`${want.Volume} `)).toBe(true);
    expect(shown.Candles).toBe(`${raw.length} × 15m`);
    expect(shown.Range).toBe('last 1d');
    expect(card.image).toBeUndefined();
    expect(card.title).toBe(`Chart of ${m.listing.tokens[0]?.name} (${m.listing.tokens[0]?.symbol})`);
  });

  it('agrees with the raw candles for every token at 1h over 7d', async () => {
    for (const { address } of m.listing.tokens.slice(0, 12)) {
      const card = await chartCard(m.client, { address, intervalSecs: 3600, rangeSecs: 7 * 86_400 }, now);
      const raw = await rawCandles(address, 7 * 86_400, 3600);
      if (raw.length === 0) {
        expect(card.title.startsWith('No chart for ')).toBe(true);
        continue;
      }
      const shown = values(card);
      const want = expected(raw);
      for (const name of ['Open', 'High', 'Low', 'Close', 'Change'] as const) expect(shown[name], `${address} ${name}`).toBe(want[name]);
      expect(shown.Candles).toBe(`${raw.length} × 1h`);
    }
  });

  it('widens an interval that would give too many candles, and says so', async () => {
    const token = m.listing.tokens[1]?.address ?? '';
    const window = chartWindow({ address: token, intervalSecs: 60, rangeSecs: 7 * 86_400 }, now);
    expect(window.intervalSecs).toBe(1800);
    expect(Math.floor(window.rangeSecs / window.intervalSecs) + 1).toBeLessThanOrEqual(MAX_CHART_CANDLES);
    const card = await chartCard(m.client, { address: token, intervalSecs: 60, rangeSecs: 7 * 86_400 }, now);
    const raw = await rawCandles(token, 7 * 86_400, 1800);
    expect(values(card).Candles).toBe(`${raw.length} × 30m`);
    expect(card.footer).toContain('1m candles over 1w would be too many; shown at 30m');
  });

  it('keeps the asked interval when it fits, and widens far ranges to whole days', () => {
    expect(chartWindow({ address: 'x', intervalSecs: 300, rangeSecs: 86_400 }, now)).toEqual({
      from: to - 86_400,
      to,
      intervalSecs: 300,
      requestedIntervalSecs: 300,
      rangeSecs: 86_400,
    });
    expect(chartWindow({ address: 'x', intervalSecs: 60, rangeSecs: 10 * 365 * 86_400 }, now).intervalSecs % 86_400).toBe(0);
    expect(() => chartWindow({ address: 'x', intervalSecs: 0 }, now)).toThrow(/interval/);
  });

  it('says clearly when there are no candles in the range', async () => {
    let checked = 0;
    for (const { address } of m.listing.tokens) {
      const raw = await rawCandles(address, 300, 60);
      if (raw.length > 0) continue;
      const card = await chartCard(m.client, { address, intervalSecs: 60, rangeSecs: 300 }, now);
      expect(card.title.startsWith('No chart for ')).toBe(true);
      expect(plainText(card.description ?? [])).toContain('in the last 5m, so there are no 1m candles to show.');
      checked += 1;
      if (checked === 2) break;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('answers an unknown token and a bad address with error cards', async () => {
    const unknown = await answered(m.query.chart({ address: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263' }));
    expect(unknown.title).toBe('Not found');
    const bad = await answered(m.query.chart({ address: 'hello' }));
    expect(bad.title).toBe('Not an address');
  });
});
