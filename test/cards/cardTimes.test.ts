/**
 * One way to write a moment on every card, whichever chat shows it ("2025-01-01 12:00 UTC",
 * cardTime), and a chart card that gives its volume in the token card's units (SOL, and USD with
 * a rate) rather than as a count of tokens.
 */
import { describe, expect, it } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import { buildChartCard } from '../../src/cards/chartCard';
import { marketMoves } from '../../src/cards/marketMoves';
import { buildTokenCard } from '../../src/cards/tokenCard';
import { tokenInfoFrom } from '../../src/cards/tradeFacts';
import { renderCardText } from '../../src/chats/console/render';
import { renderCardMessages } from '../../src/chats/telegram/html';
import { TokenSchema, type Candle } from '../../src/market/schemas';

const TOKEN = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const NOW = new Date('2025-01-01T12:00:00Z');
const BONK = tokenInfoFrom(TOKEN, { address: TOKEN, name: 'Bonk', symbol: 'BONK', decimals: 5, logo: null });

function candle(minutesAgo: number, close: number, volume: number): Candle {
  const timestamp = NOW.getTime() - minutesAgo * 60_000;
  return { time: new Date(timestamp).toISOString(), timestamp, open: close, high: close, low: close, close, volume };
}

const CANDLES = [candle(60, 0.002, 1000), candle(45, 0.0022, 250.5), candle(30, 0.003, 4000)];

/** Every text a card shows with its moment, on the console and on Telegram. */
function rendered(card: Card): string[] {
  const telegram = renderCardMessages(card).map((message) => (message.kind === 'text' ? message.html : (message.caption ?? '')));
  return [renderCardText(card, { width: 200 }), ...telegram];
}

const MOMENT = /\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?(\.\d+)?Z?( UTC)?|[A-Z][a-z]{2} \d{1,2} \d{2}:\d{2}/g;

describe('moments on cards', () => {
  it('are written one way, by every renderer and in a chart card’s span', () => {
    const token = TokenSchema.parse({
      address: TOKEN,
      name: 'Bonk',
      symbol: 'BONK',
      decimals: 5,
      syncedAt: '2025-01-01T11:58:00Z',
      pools: [],
      links: {},
    });
    const chart = buildChartCard({
      token: BONK,
      candles: CANDLES,
      intervalSecs: 900,
      requestedIntervalSecs: 900,
      rangeSecs: 86_400,
      now: NOW,
      since: { secs: NOW.getTime() / 1000 - 3_600, why: 'younger' },
    });
    expect(plainText(chart.fields.find((f) => f.name === 'Range')?.value ?? [])).toBe('since 2025-01-01 11:00 UTC');
    const moments = [buildTokenCard({ token, solUsd: null, now: NOW }), chart].flatMap(rendered).flatMap((out) => out.match(MOMENT) ?? []);
    expect(moments.length).toBeGreaterThan(3);
    for (const moment of moments) expect(moment).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
  });
});

describe('a chart card’s volume', () => {
  it('is in the token card’s units: SOL, and USD first with a rate', () => {
    const token = TokenSchema.parse({ address: TOKEN, name: 'Bonk', symbol: 'BONK', decimals: 5, pools: [], links: {} });
    const dayCandles = CANDLES.map((c) => ({ ...c }));
    const moves = marketMoves(dayCandles, NOW.getTime(), null);
    for (const solUsd of [null, 150]) {
      const tokenVolume = plainText(
        buildTokenCard({ token, solUsd, now: NOW, moves }).fields.find((f) => f.name === 'Volume 24h')?.value ?? [],
      );
      const chart = buildChartCard({
        token: BONK,
        candles: CANDLES,
        intervalSecs: 900,
        requestedIntervalSecs: 900,
        rangeSecs: 86_400,
        now: NOW,
        solUsd,
      });
      expect(plainText(chart.fields.find((f) => f.name === 'Volume')?.value ?? [])).toBe(tokenVolume);
    }
  });
});
