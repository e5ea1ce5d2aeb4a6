import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answered } from '../support/commandContext';
import { plainText, type Card } from '../../src/cards/card';
import { cardTime, percent, price, sol } from '../../src/text/format';
import { silentLogger } from '../../src/log';
import { MarketClient } from '../../src/market/client';
import { CHART_HEIGHT, CHART_LAYOUT, CHART_WIDTH } from '../../src/charts/candleChart';
import { CHART_COLORS } from '../../src/charts/theme';
import {
  chartCard,
  chartSpan,
  chartWindow,
  keepWindowCandles,
  DEFAULT_CHART_INTERVAL_SECS,
  DEFAULT_CHART_RANGE_SECS,
  MAX_CHART_CANDLES,
} from '../../src/query/chartQuery';
import type { Candle } from '../../src/market/schemas';
import { countColor, decodePng } from '../charts/pixels';
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
  const body = await m.raw<{ candles: RawCandle[] }>(
    `/api/chart-history?base=${token}&from=${to - rangeSecs}&to=${to}&intervalSecs=${intervalSecs}`,
  );
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
    // In SOL, as the token card gives it: each candle's volume at its close.
    Volume: sol(sorted.reduce((sum, c) => sum + c.volume * c.close, 0)),
  };
}

/** When the simulator says the token was created, Unix seconds. */
async function createdAt(token: string): Promise<number> {
  const body = await m.raw<{ data: Record<string, { creationBlockTimestamp: number }> }>(`/api/token-data?address=${token}`);
  const created = body.data[token]?.creationBlockTimestamp;
  if (created === undefined) throw new Error(`no creation time for ${token}`);
  return created;
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
    // USD first when a rate is known, then SOL, as on the token card.
    expect(shown.Volume === want.Volume || shown.Volume?.endsWith(` · ${want.Volume}`)).toBe(true);
    expect(shown.Candles).toBe(`${raw.length} × 15m`);
    // A token younger than the day is drawn, and named, from its first candle.
    const first = [...raw].sort((a, b) => a.timestamp - b.timestamp)[0]?.timestamp ?? 0;
    expect(shown.Range).toBe((await createdAt(token)) > to - DEFAULT_CHART_RANGE_SECS ? `since ${cardTime(new Date(first))}` : 'last 24h');
    expect(card.title).toBe(`Chart of ${m.listing.tokens[0]?.name} (${m.listing.tokens[0]?.symbol})`);
    // The card carries the candlestick picture.
    expect(card.image?.contentType).toBe('image/png');
    expect(card.image?.filename).toMatch(/^chart-[A-Za-z0-9]{8}-15m-24h\.png$/);
    const pixels = await decodePng(card.image?.data ?? new Uint8Array());
    expect([pixels.width, pixels.height]).toEqual([CHART_WIDTH, CHART_HEIGHT]);
    const rising = raw.some((c) => c.close > c.open);
    const falling = raw.some((c) => c.close < c.open);
    // A day of candles has moves; each way it moved is drawn in its colour.
    expect(rising || falling).toBe(true);
    if (rising) expect(countColor(pixels, CHART_COLORS.up)).toBeGreaterThan(0);
    if (falling) expect(countColor(pixels, CHART_COLORS.down)).toBeGreaterThan(0);
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

  it('names and measures what 1d candles over 1h draw: the change since the day began, not over the hour', async () => {
    // In the first hour of a UTC day the day's candle starts within the last hour: the hour before
    // midnight is asked then, so that the candle reaches past the hour whatever the time the suite runs.
    const at = to % 86_400 < 3_600 ? to - (to % 86_400) - 1 : to;
    const token = m.listing.tokens[2]?.address ?? '';
    const window = chartWindow({ address: token, intervalSecs: 86_400, rangeSecs: 3600 }, new Date(at * 1000));
    const raw = await m.raw<{ candles: RawCandle[] }>(`/api/chart-history?base=${token}&from=${at - 3600}&to=${at}&intervalSecs=86400`);
    const kept = keepWindowCandles(
      raw.candles.map((c) => ({ ...c, time: new Date(c.timestamp).toISOString() })),
      window,
    ).candles;
    expect(kept.length).toBeGreaterThan(0);
    const start = (kept[0]?.timestamp ?? 0) / 1000;
    // The candle starts at a midnight, well before the hour asked for.
    expect(start % 86_400).toBe(0);
    expect(start).toBeLessThan(at - 3600);
    const card = await chartCard(m.client, { address: token, intervalSecs: 86_400, rangeSecs: 3600 }, new Date(at * 1000));
    const shown = values(card);
    expect(shown.Range).toBe(`since ${cardTime(new Date(start * 1000))}`);
    expect(shown.Change).toBe(expected(kept).Change);
    expect(card.footer).toContain("1d candles reach past the last 1h: measured from the first one's start");
    // The picture's title names the same span as the card: its description is made from it.
    expect(card.image?.description).toBe(
      `Candlestick chart of ${m.listing.tokens[2]?.symbol}: 1d candles since ${cardTime(new Date(start * 1000))}, prices in SOL`,
    );
  });

  it('draws a token younger than the range from its first candle, across the whole picture, and says so', async () => {
    const token = m.listing.tokens[0]?.address ?? '';
    const created = await createdAt(token);
    // Every simulated token is at most a week old: 30 days is longer than its life.
    expect(created).toBeGreaterThan(to - 30 * 86_400);
    const card = await chartCard(m.client, { address: token, intervalSecs: 3600, rangeSecs: 30 * 86_400 }, now);
    const raw = await rawCandles(token, 30 * 86_400, 14_400);
    const first = [...raw].sort((a, b) => a.timestamp - b.timestamp)[0]?.timestamp ?? 0;
    expect(values(card).Range).toBe(`since ${cardTime(new Date(first))}`);
    expect(card.footer).toContain('Younger than 30d: drawn from its first candle');
    // Candles fill the left quarter of the plot too, instead of crowding at the right of an empty month.
    const pixels = await decodePng(card.image?.data ?? new Uint8Array());
    const { plotLeft, plotRight, priceTop, priceBottom } = CHART_LAYOUT;
    const quarter = plotLeft + (plotRight - plotLeft) / 4;
    const left =
      countColor(pixels, CHART_COLORS.up, plotLeft, priceTop, quarter, priceBottom) +
      countColor(pixels, CHART_COLORS.down, plotLeft, priceTop, quarter, priceBottom);
    expect(left).toBeGreaterThan(0);
  });

  it('widens an interval that would give too many candles, and says so', async () => {
    const token = m.listing.tokens[1]?.address ?? '';
    const window = chartWindow({ address: token, intervalSecs: 60, rangeSecs: 7 * 86_400 }, now);
    expect(window.intervalSecs).toBe(3600);
    expect(window.countBack).toBeLessThanOrEqual(MAX_CHART_CANDLES);
    const card = await chartCard(m.client, { address: token, intervalSecs: 60, rangeSecs: 7 * 86_400 }, now);
    const raw = await rawCandles(token, 7 * 86_400, 3600);
    expect(values(card).Candles).toBe(`${raw.length} × 1h`);
    expect(card.footer).toContain('1m candles over 7d would be too many; shown at 1h');
  });

  it('keeps the asked interval when it fits, and widens far ranges to whole days', () => {
    expect(chartWindow({ address: 'x', intervalSecs: 300, rangeSecs: 86_400 }, now)).toEqual({
      from: to - 86_400,
      to,
      intervalSecs: 300,
      requestedIntervalSecs: 300,
      rangeSecs: 86_400,
      countBack: Math.floor(to / 300) - Math.floor((to - 86_400) / 300) + 1,
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
      expect(card.image).toBeUndefined();
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

describe('chartSpan', () => {
  const HOUR = 3600;
  const candleAt = (secs: number): Candle => ({
    time: new Date(secs * 1000).toISOString(),
    timestamp: secs * 1000,
    open: 1,
    high: 1,
    low: 1,
    close: 1,
    volume: 1,
  });
  const at = new Date(Date.UTC(2026, 10, 23, 14, 30));
  const midnight = Date.UTC(2026, 10, 23) / 1000;

  it('is the range asked for when the candles start at it', () => {
    const window = chartWindow({ address: 'x', intervalSecs: 900, rangeSecs: 86_400 }, at);
    expect(chartSpan(window, [candleAt(Math.floor(window.from / 900) * 900)], midnight - 30 * 86_400)).toEqual({
      fromSecs: window.from,
      since: null,
    });
    expect(chartSpan(window, [], null)).toEqual({ fromSecs: window.from, since: null });
  });

  it('starts at the first candle of a token younger than the range', () => {
    const window = chartWindow({ address: 'x', intervalSecs: HOUR, rangeSecs: 7 * 86_400 }, at);
    const first = midnight - 2 * 86_400 + 5 * HOUR;
    expect(chartSpan(window, [candleAt(first), candleAt(first + HOUR)], first - 120)).toEqual({
      fromSecs: first,
      since: { secs: first, why: 'younger' },
    });
  });

  it('starts where candles longer than the range start', () => {
    const window = chartWindow({ address: 'x', intervalSecs: 86_400, rangeSecs: HOUR }, at);
    expect(chartSpan(window, [candleAt(midnight)], midnight - 30 * 86_400)).toEqual({
      fromSecs: window.from,
      since: { secs: midnight, why: 'long-candles' },
    });
  });
});

describe('chart request sizing', () => {
  const intervals = { '1m': 60, '5m': 300, '15m': 900, '1h': 3600, '4h': 14_400, '1d': 86_400 };
  const ranges = { '1h': 3600, '6h': 21_600, '24h': 86_400, '7d': 604_800, '30d': 2_592_000 };

  it('never asks for more candles than the picture draws, and widens only to a coarser usual interval', () => {
    for (const [intervalName, intervalSecs] of Object.entries(intervals)) {
      for (const [rangeName, rangeSecs] of Object.entries(ranges)) {
        const window = chartWindow({ address: 'x', intervalSecs, rangeSecs }, now);
        const label = `${intervalName} over ${rangeName}`;
        expect(window.countBack, label).toBeLessThanOrEqual(MAX_CHART_CANDLES);
        expect(window.countBack, label).toBe(
          Math.floor(window.to / window.intervalSecs) - Math.floor(window.from / window.intervalSecs) + 1,
        );
        expect(Object.values(intervals), label).toContain(window.intervalSecs);
        expect(window.intervalSecs, label).toBeGreaterThanOrEqual(intervalSecs);
      }
    }
    const shown = (interval: number, range: number) =>
      chartWindow({ address: 'x', intervalSecs: interval, rangeSecs: range }, now).intervalSecs;
    expect(shown(60, 21_600)).toBe(60);
    expect(shown(60, 86_400)).toBe(300);
    expect(shown(900, 604_800)).toBe(3600);
    expect(shown(3600, 2_592_000)).toBe(14_400);
    expect(shown(900, 2_592_000)).toBe(14_400);
  });
});

describe('chart card against a service that sends more than was asked', () => {
  const DAY = 86_400;
  let server: Server;
  let client: MarketClient;
  let asked: URLSearchParams | null = null;
  let answer: (params: URLSearchParams) => unknown = () => ({ candles: [] });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/api/chart-history') {
        asked = url.searchParams;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer(url.searchParams)));
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"Not Found","message":"Token not found"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new MarketClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'hostile-test-key', logger: silentLogger, maxRetries: 0 });
  });
  afterAll(async () => {
    await client.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const TOKEN = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';

  it('keeps only the candles inside the range and countBack, computes nothing over the rest, and says so', async () => {
    // A year of 15-minute candles for a one-day request: the year before the range at a price of
    // 1000, the day itself at 1 to 2, each in-range candle sent twice.
    answer = (params) => {
      const from = Number(params.get('from'));
      const to = Number(params.get('to'));
      const candles: RawCandle[] = [];
      for (let t = Math.floor((to - 365 * DAY) / 900) * 900; t <= to + 30 * DAY; t += 900) {
        const inside = t >= Math.floor(from / 900) * 900 && t <= to;
        const p = inside ? 1 + (t - from) / DAY : 1000;
        const c = { timestamp: t * 1000, open: p, high: p * 1.01, low: p * 0.99, close: p * 1.005, volume: inside ? 1 : 1e9 };
        candles.push(c);
        if (inside) candles.push({ ...c, open: 5000, high: 5000 });
      }
      return { candles };
    };
    const card = await chartCard(client, { address: TOKEN, intervalSecs: 900, rangeSecs: DAY }, now);
    const window = chartWindow({ address: TOKEN, intervalSecs: 900, rangeSecs: DAY }, now);
    expect(asked?.get('countBack')).toBe(String(window.countBack));
    expect(asked?.get('intervalSecs')).toBe('900');
    const shown = values(card);
    expect(shown.Candles).toBe(`${window.countBack} × 15m`);
    expect(Number(shown.High?.replace(/[^\d.]/g, ''))).toBeLessThan(3);
    expect(shown.Volume).toMatch(/^[\d.,K]+ SOL$/);
    const said = plainText(card.description ?? []);
    expect(said).toMatch(
      /^The service sent [\d,]+ candles for the last 24h; [\d,]+ outside that range, repeated or beyond the number asked for were left out\.$/,
    );
    expect(card.image?.contentType).toBe('image/png');
  });

  it('says so on a card with no candles left', async () => {
    answer = () => ({
      candles: [
        { timestamp: 1000, open: 1, high: 1, low: 1, close: 1, volume: 1 },
        { timestamp: 'soon', open: 'up' },
      ],
    });
    // Another range than above, so the client's cache cannot answer.
    const card = await chartCard(client, { address: TOKEN, intervalSecs: 900, rangeSecs: 6 * 3600 }, now);
    expect(card.title).toBe(`No chart for ${TOKEN.slice(0, 4)}…${TOKEN.slice(-4)}`);
    expect(plainText(card.description ?? [])).toMatch(/^No 15m candles of DezX…B263 in the last 6h could be shown\.\n/);
    expect(plainText(card.description ?? [])).not.toContain('No trades');
    expect(plainText(card.description ?? [])).toContain('The service sent 2 candles for the last 6h; 1 outside that range');
    expect(plainText(card.description ?? [])).toContain('1 candle could not be read.');
    expect(card.image).toBeUndefined();
  });
});
