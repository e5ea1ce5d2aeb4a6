/** The price moved past the follow's threshold within the move window; the card can carry the move's small chart. */
import { bold, field, rich, type Card } from '../../cards/card';
import type { PriceEvent } from '../../model/events';
import { changeWindow, percent, price, usd } from '../../text/format';
import { base, marketFields, tokenActions, tokenLink, tokenName } from '../cardParts';
import { detectPriceMove, PRICE_MIN_PCT } from '../detectors/priceMove';
import { defineAlertKind } from '../kind';

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
  describe: (options) => `price ${options.direction === 'up' ? 'rises' : options.direction === 'down' ? 'falls' : 'moves'} of ${options.thresholdPct}% or more`,
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
    const png = await renderMoveChart(points, { symbol: event.token.symbol, quote: 'SOL', basePrice: event.from, change: { pct: event.changePct, windowSecs: event.windowSecs } });
    return { filename: 'price-move.png', contentType: 'image/png', data: png, description: 'Price over the move window' };
  },
});
