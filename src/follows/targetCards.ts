/**
 * The cards of the target commands: a target set, the chat's targets, and what a removal did.
 * Addresses are shown as they were stored (checked when typed); token names come from the service
 * and go in as plain text for the renderers to escape.
 */
import { targetText, targetValue } from '../alerts/kinds/target';
import { code, field, rich, text, type Card } from '../cards/card';
import type { Follow } from '../model/follow';
import type { TokenValue } from '../query/tokenValue';
import { relativeTime } from '../text/format';
import { NO_SYMBOLS, tokenLabel, type TokenSymbols } from './tokenSymbols';

/** /target's answer: the target, where the token stands now, and what happens next. */
export function targetSetCard(follow: Follow, created: boolean, value: TokenValue, now: Date): Card {
  const target = follow.options.target;
  if (target === null || target === undefined) throw new Error('a target card was asked for a follow that is no target');
  const current = target.metric === 'price' ? value.priceUsd : value.marketCapUsd;
  return {
    title: `${created ? 'Target set' : 'Target already set'}: ${value.title} ${targetText(target)}`,
    description: rich(
      'This chat is told once when it is crossed, then the target is done. See every target with ',
      code('/targets'),
      ', remove them with ',
      code(`/untarget ${follow.address}`),
      '.',
    ),
    color: 'info',
    fields: [
      field('Token', code(follow.address)),
      field('Target', targetText(target), true),
      field(
        target.metric === 'price' ? 'Price now' : 'Market cap now',
        current === null ? 'unknown (no SOL→USD rate yet)' : targetValue(target.metric, current),
        true,
      ),
    ],
    timestamp: now,
    actions: [
      { label: 'Token', command: 'token', args: [follow.address] },
      { label: 'Targets', command: 'targets', args: [] },
    ],
  };
}

/** /targets: the chat's targets, oldest first, each token named by its symbol beside its short address. */
export function targetsCard(targets: readonly Follow[], now: Date, symbols: TokenSymbols = NO_SYMBOLS): Card {
  if (targets.length === 0) {
    return {
      title: 'No targets here',
      description: rich('Set one with ', code('/target ADDRESS price above 0.0012'), ' or ', code('/target ADDRESS mcap below 250K'), '.'),
      color: 'neutral',
      fields: [],
      actions: [],
    };
  }
  const fields = targets.map((follow) =>
    field(
      `${tokenLabel(follow.address, symbols)}: ${follow.options.target ? targetText(follow.options.target) : 'target'}`,
      rich(code(follow.address), text(` · set ${relativeTime(follow.addedAt, now)}`)),
    ),
  );
  return {
    title: `Targets in this chat: ${targets.length}`,
    description: rich('Each tells this chat once when crossed, then is done. Remove a token’s with ', code('/untarget ADDRESS'), '.'),
    color: 'info',
    // Discord takes 25 fields; a chat holds at most 100 follows, so the list says how many are left out.
    fields: fields.slice(0, 24),
    ...(fields.length > 24 ? { footer: `and ${fields.length - 24} more` } : {}),
    actions: [],
  };
}
