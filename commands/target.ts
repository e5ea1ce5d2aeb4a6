/**
 * /target <address> price|mcap above|below <value>: a one-shot alert in this chat when the token's
 * USD price or market cap crosses the value, after which the target is done. The value is in USD,
 * written plainly or with K, M or B (`0.0012`, `1.5M`, `250K`, `$250K`).
 */
import { targetSetCard } from '../src/follows/targetCards';
import { targetText, targetValue } from '../src/alerts/kinds/target';
import { defineCommand } from '../src/dispatch/command';
import { followsOf } from '../src/dispatch/services';
import type { FollowTarget } from '../src/model/follow';
import { UsageError } from '../src/usage';

const SUFFIXES: Readonly<Record<string, number>> = { '': 1, k: 1e3, m: 1e6, b: 1e9 };

/** "0.0012", "$1.5M", "250k": the number meant, or null when it is none (no exponents, no blanks). */
export function readUsdValue(text: string): number | null {
  const match = /^\$?((?:\d+(?:\.\d*)?|\.\d+))([kmb]?)$/i.exec(text.trim().replace(/,/g, ''));
  if (match === null) return null;
  const value = Number(match[1]) * (SUFFIXES[(match[2] ?? '').toLowerCase()] ?? Number.NaN);
  return Number.isFinite(value) && value > 0 ? value : null;
}

export default defineCommand({
  name: 'target',
  description: 'Alert this chat once when a token’s price or market cap crosses a value',
  help: [
    'Sets a one-shot target: this chat is told once when the token’s USD price or market cap crosses the value, then the target is done.',
    'The value is in USD: 0.0012, 1.5M, 250K. A target the token is already past is refused. List them with /targets, remove them with /untarget.',
    'Example: /target 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25 price above 0.0012',
    'Example: /target 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25 mcap below 250K',
  ].join('\n'),
  manager: true,
  slow: true,
  options: [
    { name: 'address', type: 'address', description: 'The token’s address', required: true },
    {
      name: 'metric',
      type: 'choice',
      description: 'price (USD per token) or mcap (market cap in USD)',
      required: true,
      choices: [
        { value: 'price', label: 'price' },
        { value: 'mcap', label: 'mcap' },
      ],
    },
    {
      name: 'side',
      type: 'choice',
      description: 'above or below the value',
      required: true,
      choices: [
        { value: 'above', label: 'above' },
        { value: 'below', label: 'below' },
      ],
    },
    { name: 'value', type: 'text', description: 'In USD: 0.0012, 1.5M, 250K', required: true, maxLength: 24 },
  ],
  async run(args, ctx) {
    const value = readUsdValue(args.value);
    if (value === null)
      throw new UsageError(
        `value must be a positive amount in USD, not "${args.value.slice(0, 24)}"`,
        null,
        'Write it plainly or with K, M or B: 0.0012, 1.5M, 250K.',
      );
    const target: FollowTarget = {
      metric: args.metric === 'mcap' ? 'mcap' : 'price',
      side: args.side === 'below' ? 'below' : 'above',
      value,
    };
    // The look-up comes first: an address the service does not know is refused, never followed.
    const now = await ctx.query.tokenValue(args.address);
    const current = target.metric === 'price' ? now.priceUsd : now.marketCapUsd;
    // A target already past would never be crossed: said now rather than never.
    if (current !== null && (target.side === 'above' ? current >= value : current <= value)) {
      throw new UsageError(
        `the ${target.metric === 'price' ? 'price' : 'market cap'} is already ${target.side} ${targetValue(target.metric, value)} (now ${targetValue(target.metric, current)})`,
        null,
        `A target tells when the token crosses it; ${targetText({ ...target, side: target.side === 'above' ? 'below' : 'above' })} would.`,
      );
    }
    const { follow, created } = await followsOf(ctx).setTarget({
      chat: ctx.chat,
      userId: ctx.userId,
      address: args.address,
      target,
      now: ctx.now(),
    });
    return targetSetCard(follow, created, now, ctx.now());
  },
});
