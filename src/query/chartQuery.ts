/**
 * /chart: candles of a token over a range (spec §4.5), summarised on a card that carries their
 * candlestick picture.
 *
 * The request is sized to the picture: the range ends now, and holds at most CHART_MAX_BARS
 * candles (as many as the picture draws side by side). When the asked interval would give more,
 * the next coarser of the usual intervals (1m 5m 15m 1h 4h 1d) that fits is used, and the card
 * says so. countBack is that number of candles, so no request asks for more than can be shown.
 *
 * The answer is not trusted to honour the request (a broken or hostile service may send a year
 * of candles for one day): only candles inside the range are kept, one per start time, the newest
 * `countBack` of them, and the card says how many were left out. Nothing is computed over the rest.
 *
 * The card and the picture name the span they draw and measure, which is the range unless the
 * token is younger than it or its candles reach back well before it (chartSpan).
 */
import type { Card } from '../cards/card';
import { buildChartCard, spanLabel, spanNote, type ChartSince } from '../cards/chartCard';
import { duration } from '../text/format';
import { completeWith, tokenInfoFrom, tokenSymbol } from '../cards/tradeFacts';
import { CHART_MAX_BARS, renderCandleChart } from '../charts/candleChart';
import type { MarketClient } from '../market/client';
import { knownSolUsdRate } from './usdRate';
import { MarketError } from '../market/errors';
import type { Candle } from '../market/schemas';

export interface ChartQuery {
  address: string;
  intervalSecs?: number;
  rangeSecs?: number;
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

/** The candle widths /chart offers, by the name a reader types. */
export const CHART_INTERVALS = { '1m': MINUTE, '5m': 5 * MINUTE, '15m': 15 * MINUTE, '1h': HOUR, '4h': 4 * HOUR, '1d': DAY } as const;
/** The ranges /chart offers. */
export const CHART_RANGES = { '1h': HOUR, '6h': 6 * HOUR, '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY } as const;
export type ChartIntervalName = keyof typeof CHART_INTERVALS;
export type ChartRangeName = keyof typeof CHART_RANGES;

export const DEFAULT_CHART_INTERVAL_SECS = CHART_INTERVALS['15m'];
export const DEFAULT_CHART_RANGE_SECS = CHART_RANGES['24h'];
/** Most candles asked for at once: as many as the picture draws side by side (362). */
export const MAX_CHART_CANDLES = CHART_MAX_BARS;

const INTERVAL_STEPS: readonly number[] = Object.values(CHART_INTERVALS);

/** "24h", "7d": a range by the name /chart offers it under, else as a duration. */
export function rangeName(rangeSecs: number): string {
  const named = Object.entries(CHART_RANGES).find(([, secs]) => secs === rangeSecs);
  return named?.[0] ?? duration(rangeSecs);
}

export interface ChartWindow {
  /** Unix seconds. */
  from: number;
  to: number;
  intervalSecs: number;
  requestedIntervalSecs: number;
  rangeSecs: number;
  /** Candles the range holds at that interval: the countBack of the request. */
  countBack: number;
}

function positiveSeconds(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new MarketError({
      kind: 'invalid-parameter',
      endpoint: 'chart-history',
      userMessage: `The chart ${what} must be at least one second.`,
    });
  }
  return value;
}

/** Candles aligned to multiples of the interval that [from, to] touches. */
function slotsBetween(from: number, to: number, intervalSecs: number): number {
  return Math.floor(to / intervalSecs) - Math.floor(from / intervalSecs) + 1;
}

/**
 * The request for a query at `now`: from now minus the range to now (Unix seconds), at the asked
 * interval when its candles fit the picture, else at the first coarser usual interval that fits
 * (whole days past a day).
 */
export function chartWindow(query: ChartQuery, now: Date): ChartWindow {
  const requestedIntervalSecs = positiveSeconds(query.intervalSecs ?? DEFAULT_CHART_INTERVAL_SECS, 'interval');
  const rangeSecs = positiveSeconds(query.rangeSecs ?? DEFAULT_CHART_RANGE_SECS, 'range');
  const to = Math.floor(now.getTime() / 1000);
  const from = Math.max(1, to - rangeSecs);
  const fits = (interval: number) => slotsBetween(from, to, interval) <= MAX_CHART_CANDLES;
  let intervalSecs = requestedIntervalSecs;
  if (!fits(intervalSecs)) {
    intervalSecs = INTERVAL_STEPS.find((step) => step > requestedIntervalSecs && fits(step)) ?? 0;
    if (intervalSecs === 0) {
      let days = Math.max(1, Math.ceil(requestedIntervalSecs / DAY));
      while (!fits(days * DAY)) days += 1;
      intervalSecs = days * DAY;
    }
  }
  return { from, to, intervalSecs, requestedIntervalSecs, rangeSecs, countBack: slotsBetween(from, to, intervalSecs) };
}

export interface KeptCandles {
  candles: Candle[];
  /** Candles in the answer that were left out: outside the range, repeated, or past countBack. */
  dropped: number;
  received: number;
}

/**
 * The candles of an answer that belong to the window, oldest first: starting in the slot that
 * holds `from` up to `to`, one per start time, the newest `countBack`.
 */
export function keepWindowCandles(candles: readonly Candle[], window: ChartWindow): KeptCandles {
  const firstMs = Math.floor(window.from / window.intervalSecs) * window.intervalSecs * 1000;
  const lastMs = window.to * 1000;
  const byStart = new Map<number, Candle>();
  for (const candle of candles) {
    if (!(candle.timestamp >= firstMs && candle.timestamp <= lastMs)) continue;
    if (!byStart.has(candle.timestamp)) byStart.set(candle.timestamp, candle);
  }
  const inRange = [...byStart.values()].sort((a, b) => a.timestamp - b.timestamp);
  const kept = inRange.slice(Math.max(0, inRange.length - window.countBack));
  return { candles: kept, dropped: candles.length - kept.length, received: candles.length };
}

export interface ChartSpan {
  /** Unix seconds the picture's axis starts from: the range's start, or the token's first candle. */
  fromSecs: number;
  /** Where what is drawn and measured starts, when not at the range's start. */
  since: ChartSince | null;
}

/**
 * What the picture draws and the card measures, which is not always the range asked for:
 *
 * - a token younger than the range (created after its start) is drawn from its first candle: the
 *   time before its life holds nothing to draw, and left in it squeezes the candles to one side;
 * - candles that reach back well before the range (one 1d candle over the last hour) are measured
 *   from the first one's start, which the card then names instead of the range, whose change it
 *   is not. "Well": more than a tenth of the range, past what the candle that straddles the
 *   range's start adds to an ordinary chart (at most 15 minutes of 24 hours at the default).
 */
export function chartSpan(window: ChartWindow, candles: readonly Candle[], createdSecs: number | null): ChartSpan {
  const first = candles[0];
  if (first === undefined) return { fromSecs: window.from, since: null };
  const firstSecs = Math.floor(first.timestamp / 1000);
  if (createdSecs !== null && createdSecs > window.from) return { fromSecs: firstSecs, since: { secs: firstSecs, why: 'younger' } };
  if (window.from - firstSecs > window.rangeSecs / 10) return { fromSecs: window.from, since: { secs: firstSecs, why: 'long-candles' } };
  return { fromSecs: window.from, since: null };
}

export async function chartCard(client: MarketClient, query: ChartQuery, now: Date): Promise<Card> {
  const window = chartWindow(query, now);
  const address = query.address.trim();
  const [answer, token] = await Promise.all([
    client.readChart(address, { from: window.from, to: window.to, intervalSecs: window.intervalSecs, countBack: window.countBack }),
    // The name only titles the card; candles without it are still the answer.
    client.token(address).then(
      (found) => found,
      () => null,
    ),
  ]);
  const info = tokenInfoFrom(address, null);
  const tokenInfo = token === null ? info : completeWith(info, token);
  const kept = keepWindowCandles(answer.value, window);
  const range = rangeName(window.rangeSecs);
  const widened = window.intervalSecs !== window.requestedIntervalSecs;
  const span = chartSpan(window, kept.candles, token?.creationBlockTimestamp ?? null);
  const drawn = spanLabel(range, span.since);
  // The picture has one line for a note, and its title already says where the span starts: the
  // span's note goes there only when the interval did not have to be widened.
  const note = widened
    ? `${duration(window.requestedIntervalSecs)} candles over ${range} would be too many to draw; shown at ${duration(window.intervalSecs)}`
    : spanNote(range, window.intervalSecs, span.since);

  let image: Card['image'];
  let pictureFailed = false;
  if (kept.candles.length > 0) {
    try {
      const symbol = tokenSymbol(tokenInfo);
      const data = await renderCandleChart({
        candles: kept.candles,
        intervalSecs: window.intervalSecs,
        fromSecs: span.fromSecs,
        toSecs: window.to,
        symbol,
        name: tokenInfo.name ?? undefined,
        // The title's change is over what is drawn, so the title names that span.
        rangeLabel: drawn,
        quote: 'SOL',
        note: note ?? undefined,
      });
      image = {
        filename: `chart-${address.slice(0, 8).replace(/[^A-Za-z0-9]/g, '_')}-${duration(window.intervalSecs)}-${range}.png`,
        contentType: 'image/png',
        data,
        description:
          `Candlestick chart of ${symbol}: ${duration(window.intervalSecs)} ` +
          `candles ${span.since === null ? `over ${range}` : drawn}, prices in SOL`,
      };
    } catch {
      // The numbers are still the answer; the card says the picture is missing.
      pictureFailed = true;
    }
  }

  return buildChartCard({
    token: tokenInfo,
    candles: kept.candles,
    intervalSecs: window.intervalSecs,
    requestedIntervalSecs: window.requestedIntervalSecs,
    rangeSecs: window.rangeSecs,
    rangeLabel: range,
    now,
    image,
    pictureFailed,
    dropped: kept.dropped,
    received: kept.received + answer.unreadable,
    unreadable: answer.unreadable,
    since: span.since,
    // The volume in USD too when a rate is known, asking nothing more of the service for it.
    solUsd: knownSolUsdRate(client),
  });
}
