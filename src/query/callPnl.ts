/**
 * `/pnl <address>`: a chat's call of a token as a card with a picture: entry, peak and now, the
 * multiples, and the price line since the call, drawn with the price-move chart. The line is the
 * candles' closes since the call with the peak's high among them, so the picture shows the peak the
 * multiple is read from.
 */
import { field, rich, type Card } from '../cards/card';
import { callerName, callMcap, multipleText, nowMultiple, peakMultiple } from '../cards/callText';
import { tokenTitle } from '../cards/tokenFacts';
import { renderMoveChart, type PricePoint } from '../charts/moveChart';
import { intervalFor } from '../cards/callWindow';
import type { MarketClient } from '../market/client';
import type { Candle } from '../market/schemas';
import type { Call } from '../store/calls';
import { price, relativeTime } from '../text/format';

/** The price line since the call: each candle's close from the call on, and the peak's high where it was. */
export function pnlPoints(call: Call, candles: readonly Candle[]): PricePoint[] {
  const from = call.calledAt.getTime();
  const points: PricePoint[] = [[from, call.priceSol]];
  for (const candle of candles)
    if (candle.timestamp >= from && Number.isFinite(candle.close)) points.push([candle.timestamp, candle.close]);
  points.push([call.peakAt.getTime(), call.peakSol]);
  return points.sort((a, b) => a[0] - b[0]);
}

export async function callPnlCard(client: MarketClient, call: Call, now: Date): Promise<Card> {
  const fromSecs = Math.ceil(call.calledAt.getTime() / 1000);
  const nowSecs = Math.floor(now.getTime() / 1000);
  const intervalSecs = intervalFor(Math.max(1, nowSecs - fromSecs));
  let candles: Candle[] = [];
  try {
    candles = await client.chart(call.address, { from: Math.floor(fromSecs / intervalSecs) * intervalSecs, to: nowSecs, intervalSecs });
  } catch {
    // A token that died may be unknown now: the card still shows the call and its peak.
  }
  const points = pnlPoints(call, candles);
  const last = candles.at(-1);
  const nowPrice = last !== undefined && last.timestamp >= call.calledAt.getTime() ? last.close : call.lastSol;
  const png = await renderMoveChart(points, { symbol: call.symbol, quote: 'SOL', basePrice: call.priceSol });
  const mcap = (multiple: number) => callMcap(call, multiple) ?? '—';
  return {
    title: `${callerName(call.userName)}’s call: ${tokenTitle(call)}`,
    description: rich(`Called ${relativeTime(call.calledAt, now)}; the peak is the highest close of a traded candle since.`),
    color: 'info',
    fields: [
      field('Entry', `${price(call.priceSol)} SOL · ${mcap(1)} mcap`, true),
      field('Peak', `${multipleText(peakMultiple(call))} · ${price(call.peakSol)} SOL · ${mcap(peakMultiple(call))} mcap`, true),
      field(
        'Now',
        `${multipleText(nowMultiple(call, nowPrice))} · ${price(nowPrice)} SOL · ${mcap(nowMultiple(call, nowPrice))} mcap`,
        true,
      ),
    ],
    image: { filename: 'call.png', contentType: 'image/png', data: png, description: `Price since the call of ${tokenTitle(call)}` },
    timestamp: now,
    actions: [],
  };
}
