/**
 * /chart: candles of a token over a range (spec §4.5), summarised on a card. The range ends now;
 * the interval is widened when the range holds more candles than a card should summarise from one
 * request, and the card says so.
 */
import type { Card } from '../cards/card';
import { buildChartCard } from '../cards/chartCard';
import { completeWith, tokenInfoFrom } from '../cards/tradeFacts';
import type { MarketClient } from '../market/client';
import { MarketError } from '../market/errors';

export interface ChartQuery {
  address: string;
  intervalSecs?: number;
  rangeSecs?: number;
}

export const DEFAULT_CHART_INTERVAL_SECS = 15 * 60;
export const DEFAULT_CHART_RANGE_SECS = 24 * 3600;
/** Most candles asked for at once: a month of hourly candles is 720, so 500 keeps answers small. */
export const MAX_CHART_CANDLES = 500;

/** Widths a widened interval is rounded up to, as charting sites offer them. */
const INTERVAL_STEPS = [60, 300, 900, 1800, 3600, 2 * 3600, 4 * 3600, 6 * 3600, 12 * 3600, 86_400, 7 * 86_400] as const;

export interface ChartWindow {
  from: number;
  to: number;
  intervalSecs: number;
  requestedIntervalSecs: number;
  rangeSecs: number;
}

function positiveSeconds(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new MarketError({ kind: 'invalid-parameter', endpoint: 'chart-history', userMessage: `The chart ${what} must be at least one second.` });
  }
  return value;
}

/**
 * The request for a query at `now`: from now minus the range to now (Unix seconds). Candles are
 * aligned to multiples of the interval, so a range holds up to range/interval + 1 of them; the
 * interval is widened to the next usual width until that fits MAX_CHART_CANDLES.
 */
export function chartWindow(query: ChartQuery, now: Date): ChartWindow {
  const requestedIntervalSecs = positiveSeconds(query.intervalSecs ?? DEFAULT_CHART_INTERVAL_SECS, 'interval');
  const rangeSecs = positiveSeconds(query.rangeSecs ?? DEFAULT_CHART_RANGE_SECS, 'range');
  const to = Math.floor(now.getTime() / 1000);
  const from = Math.max(1, to - rangeSecs);
  const fits = (interval: number) => Math.floor(rangeSecs / interval) + 1 <= MAX_CHART_CANDLES;
  let intervalSecs = requestedIntervalSecs;
  if (!fits(intervalSecs)) {
    const least = Math.ceil(rangeSecs / (MAX_CHART_CANDLES - 1));
    intervalSecs = INTERVAL_STEPS.find((step) => step >= least && fits(step)) ?? Math.ceil(least / 86_400) * 86_400;
  }
  return { from, to, intervalSecs, requestedIntervalSecs, rangeSecs };
}

export async function chartCard(client: MarketClient, query: ChartQuery, now: Date): Promise<Card> {
  const window = chartWindow(query, now);
  const address = query.address.trim();
  const [candles, token] = await Promise.all([
    client.chart(address, { from: window.from, to: window.to, intervalSecs: window.intervalSecs, countBack: MAX_CHART_CANDLES }),
    // The name only titles the card; candles without it are still the answer.
    client.token(address).then(
      (found) => found,
      () => null,
    ),
  ]);
  const info = tokenInfoFrom(address, null);
  return buildChartCard({
    token: token === null ? info : completeWith(info, token),
    candles,
    intervalSecs: window.intervalSecs,
    requestedIntervalSecs: window.requestedIntervalSecs,
    rangeSecs: window.rangeSecs,
    now,
  });
}
