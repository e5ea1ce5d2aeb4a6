/**
 * The price moved past the follow's threshold within the move window; the card can carry the move's small chart.
 *
 * Price moved: the price against the oldest price seen within the window (PRICE_WINDOW_MS, an
 * hour). Each follow has its own threshold, so the detector does not decide who is told: it emits
 * whenever the move grows (in size, or changes direction) past the smallest threshold any follow
 * may use (PRICE_MIN_PCT), with the change now and at the previous price; the fan-out then tells a
 * follow when the move crosses its threshold (wantsEvent in ../fanout.ts).
 *
 * Key: the token, the start of the window, the direction and the whole percent reached. The same
 * crossing seen again (the price falls back under a threshold and rises past it within the same
 * window and whole percent) is the same key, so a chat is told once.
 */
import { bold, field, rich, type Card } from '../../cards/card';
import type { PriceEvent } from '../../model/events';
import { changeWindow, percent, price, usd } from '../../text/format';
import { base, marketFields, tokenActions, tokenLink, tokenName } from '../cardParts';
import { defineAlertKind } from '../kind';
import type { TokenSnapshot } from '../../model/snapshot';
import { eventKey, tokenChange } from '../detect/eventBase';

/** Moves smaller than this are never alerted, whatever a follow asks. */
export const PRICE_MIN_PCT = 1;

export function detectPriceMove(last: TokenSnapshot | null, next: TokenSnapshot): PriceEvent[] {
  if (last === null || last.priceNative === null || next.priceNative === null) return [];
  const start = next.priceHistory[0];
  if (!start || start[0] >= next.seenAt || !(start[1] > 0)) return [];
  const [startAt, from] = start;
  const changePct = ((next.priceNative - from) / from) * 100;
  const previousChangePct = ((last.priceNative - from) / from) * 100;
  if (!Number.isFinite(changePct) || Math.abs(changePct) < PRICE_MIN_PCT) return [];
  const turned = Math.sign(changePct) !== Math.sign(previousChangePct);
  if (!turned && Math.abs(changePct) <= Math.abs(previousChangePct)) return [];
  const direction = changePct > 0 ? 'up' : 'down';
  return [
    {
      kind: 'price',
      key: eventKey('price', next.address, [startAt, direction, Math.floor(Math.abs(changePct))]),
      ...tokenChange(last, next),
      from,
      to: next.priceNative,
      changePct,
      previousChangePct: Number.isFinite(previousChangePct) ? previousChangePct : 0,
      windowSecs: Math.round((next.seenAt - startAt) / 1000),
      priceUsd: next.priceUsd,
      points: next.priceHistory.map(([at, price]): [number, number] => [at, price]),
    },
  ];
}

function priceCard(event: PriceEvent): Card {
  const up = event.changePct >= 0;
  const within = changeWindow(event.windowSecs);
  const change = percent(event.changePct, { signed: true });
  const fields = [
    field('Change', rich(bold(change), ` in ${within}`), true),
    field('Price', rich(`${price(event.from)} → `, bold(`${price(event.to)} SOL`)), true),
  ];
  if (event.priceUsd !== null) fields.push(field('Price (USD)', usd(event.priceUsd), true));
  // The move is the market's change over the same window: said once, in the Change field.
  fields.push(field('Token', tokenLink(event.token), true), ...marketFields(event.token, { withPrice: false, withChange: false }));
  const title = `Price ${up ? 'up' : 'down'} ${percent(Math.abs(event.changePct))}: ${tokenName(event.token)}`;
  return base(event, title, fields, tokenActions(event.token));
}

export const priceKind = defineAlertKind({
  name: 'price',
  family: 'token',
  words: [],
  describe: (options) =>
    `price ${options.direction === 'up' ? 'rises' : options.direction === 'down' ? 'falls' : 'moves'} of ${options.thresholdPct}% or more`,
  detector: { input: 'token', detect: (last, next) => detectPriceMove(last, next) },
  // Told when the move crosses the follow's threshold: |previous change| below it, |change| at or
  // above it (or the move turned direction), and goes the follow's way (up, down or both). Below
  // the detector's own floor a threshold means the floor.
  tells(follow, event, wants) {
    if (!wants('price')) return false;
    const direction = follow.options.direction ?? 'both';
    if ((direction === 'up' && event.changePct < 0) || (direction === 'down' && event.changePct > 0)) return false;
    const threshold = Math.max(follow.options.thresholdPct, PRICE_MIN_PCT);
    const now = Math.abs(event.changePct);
    const previous = event.previousChangePct ?? 0;
    const turned = Math.sign(event.changePct) !== Math.sign(previous);
    return now >= threshold && (Math.abs(previous) < threshold || turned);
  },
  card: priceCard,
  async picture(event) {
    const points = event.points ?? [];
    if (points.length < 2) return null;
    // Loaded when a card is first drawn, not with the kind: the watcher, which only detects, never
    // draws, and the renderer's native library is some 20 MB of every process that loads it.
    const { renderMoveChart } = await import('../../charts/moveChart');
    // The picture's title says the card's change and window, not its own reading of the points.
    const png = await renderMoveChart(points, {
      symbol: event.token.symbol,
      quote: 'SOL',
      basePrice: event.from,
      change: { pct: event.changePct, windowSecs: event.windowSecs },
    });
    return { filename: 'price-move.png', contentType: 'image/png', data: png, description: 'Price over the move window' };
  },
});
