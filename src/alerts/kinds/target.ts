/**
 * A target reached: the token's USD price or market cap crossed a chat's `/target`. Told once, to
 * the chat that set it, and then the target is done (the store removes a target whose crossing
 * was told, FollowRepository.removeReachedTargets): the card says so.
 *
 *
 * A target crossed: a follow's one-shot target (`/target ADDR price|mcap above|below VALUE`) is
 * crossed when the token's USD price or market cap was on one side of the value at the last state
 * and is at it or past it now: below it and now at or above it for `above`, above it and now at
 * or below it for `below`. One event per target follow crossed.
 *
 * USD comes from the next snapshot: its price in USD, and the SOL→USD rate its two prices imply,
 * at which the last state's SOL price is read when that state has no USD price of its own (the
 * rate was not known then). Without a USD price now nothing is decided; the next input decides.
 * The market cap is the USD price times the total supply.
 *
 * Key: the target follow itself (targetEventKey), not the moment: a target is told once, whether
 * the stream or a reconciliation sees its crossing first, and a price that crosses back and forth
 * before the target is removed tells it no second time.
 */
import { bold, code, field, rich, type Card } from '../../cards/card';
import { type FollowTarget, type Follow, targetEventKey } from '../../model/follow';
import { price, usd } from '../../text/format';
import { base, marketFields, tokenActions, tokenLink, tokenName } from '../cardParts';
import { defineAlertKind } from '../kind';
import type { EventBase } from '../../model/events';
import type { TokenSnapshot } from '../../model/snapshot';
import { tokenChange } from '../detect/eventBase';

export interface TargetEvent extends EventBase {
  kind: 'target';
  /** The target follow crossed: it alone is told, and it is done once told. */
  followId: number;
  target: FollowTarget;
  /** The USD price or market cap (as the target's metric) at the last state and now. */
  from: number;
  to: number;
}

declare module '../../model/events' {
  interface AlertEventsByKind {
    target: TargetEvent;
  }
}

/** Whole tokens in the total supply; null when the supply or the decimals are unknown. */
function supplyOf(snapshot: TokenSnapshot): number | null {
  const supply = snapshot.totalSupply;
  const decimals = snapshot.decimals;
  if (supply === null || supply === undefined || decimals === null || decimals === undefined) return null;
  try {
    const whole = Number(BigInt(supply)) / 10 ** decimals;
    return Number.isFinite(whole) && whole > 0 ? whole : null;
  } catch {
    return null;
  }
}

/** The USD price of `last` and `next`, the last read at the next's rate when it has none of its own. */
function usdPrices(last: TokenSnapshot, next: TokenSnapshot): { from: number; to: number } | null {
  const to = next.priceUsd;
  if (to === null || next.priceNative === null || !(next.priceNative > 0)) return null;
  const from = last.priceUsd ?? (last.priceNative === null ? null : last.priceNative * (to / next.priceNative));
  return from === null || !Number.isFinite(from) || !Number.isFinite(to) ? null : { from, to };
}

function crossed(target: FollowTarget, from: number, to: number): boolean {
  return target.side === 'above' ? from < target.value && to >= target.value : from > target.value && to <= target.value;
}

export function detectTargets(last: TokenSnapshot | null, next: TokenSnapshot, follows: readonly Follow[]): TargetEvent[] {
  if (last === null || follows.length === 0) return [];
  let prices: { from: number; to: number } | null | undefined;
  let events: TargetEvent[] | null = null;
  for (const follow of follows) {
    const target = follow.options.target;
    if (target === null || target === undefined) continue;
    // Read once, and only for a token that has targets: most pushes are of tokens that have none.
    prices ??= usdPrices(last, next);
    if (prices === null) return [];
    let from = prices.from;
    let to = prices.to;
    if (target.metric === 'mcap') {
      const supply = supplyOf(next) ?? supplyOf(last);
      if (supply === null) continue;
      from *= supply;
      to *= supply;
    }
    if (!crossed(target, from, to)) continue;
    (events ??= []).push({
      kind: 'target',
      key: targetEventKey(next.address, follow.id),
      ...tokenChange(last, next),
      followId: follow.id,
      target: { metric: target.metric, side: target.side, value: target.value },
      from,
      to,
    });
  }
  return events ?? [];
}

/** A USD value as the target names it: a price with its digits, a market cap compact. */
export function targetValue(metric: FollowTarget['metric'], value: number): string {
  return metric === 'price' ? `$${price(value)}` : usd(value);
}

/** "price above $0.0012", "market cap below $250K". */
export function targetText(target: FollowTarget): string {
  return `${target.metric === 'price' ? 'price' : 'market cap'} ${target.side} ${targetValue(target.metric, target.value)}`;
}

function targetCard(event: TargetEvent): Card {
  const { target } = event;
  const fields = [
    field('Target', targetText(target), true),
    field(
      target.metric === 'price' ? 'Price' : 'Market cap',
      rich(`${targetValue(target.metric, event.from)} → `, bold(targetValue(target.metric, event.to))),
      true,
    ),
    field('Token', tokenLink(event.token), true),
    // The price is in the field above when the target was on it.
    ...marketFields(event.token, { withPrice: target.metric !== 'price' }),
  ];
  const description = rich(
    'This target is done: it is told once and now removed. Set another with ',
    code('/target'),
    '; see the others with ',
    code('/targets'),
    '.',
  );
  return base(event, `Target reached: ${tokenName(event.token)} ${targetText(target)}`, fields, tokenActions(event.token), description);
}

export const targetKind = defineAlertKind({
  name: 'target',
  family: 'target',
  words: [],
  describe: (options) => (options.target === null || options.target === undefined ? 'a target' : targetText(options.target)),
  detector: { input: 'token', detect: (last, next, follows) => detectTargets(last, next, follows) },
  // The target crossed is the one follow told.
  tells: (follow, event) => follow.id === event.followId && follow.options.target !== null && follow.options.target !== undefined,
  card: targetCard,
});
