/**
 * A target reached: the token's USD price or market cap crossed a chat's `/target`. Told once, to
 * the chat that set it, and then the target is done (the store removes a target whose crossing
 * was told, FollowRepository.removeReachedTargets): the card says so.
 */
import { bold, code, field, rich, type Card } from '../../cards/card';
import type { FollowTarget } from '../../model/follow';
import { price, usd } from '../../text/format';
import { base, marketFields, tokenActions, tokenLink, tokenName } from '../cardParts';
import { detectTargets, type TargetEvent } from '../detectors/target';
import { defineAlertKind } from '../kind';

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
    field(target.metric === 'price' ? 'Price' : 'Market cap', rich(`${targetValue(target.metric, event.from)} → `, bold(targetValue(target.metric, event.to))), true),
    field('Token', tokenLink(event.token), true),
    // The price is in the field above when the target was on it.
    ...marketFields(event.token, { withPrice: target.metric !== 'price' }),
  ];
  const description = rich('This target is done: it is told once and now removed. Set another with ', code('/target'), '; see the others with ', code('/targets'), '.');
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
