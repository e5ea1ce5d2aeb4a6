/** /pnl <address>: this chat's call of a token as a picture: entry, peak and now since the call (docs/calls.md). */
import { rich, code } from '../src/cards/card';
import { notice } from '../src/follows/followCards';
import { defineCommand } from '../src/dispatch/command';
import { callsOf } from '../src/dispatch/services';
import { callPnlCard } from '../src/query/callPnl';

export default defineCommand({
  name: 'pnl',
  description: 'A call here as a picture: entry, peak and now, the multiples, the price since',
  help: [
    'Shows this chat’s call of the token: who called it and when, the price and market cap then, the peak since (the highest close of a traded candle) and now,',
    'with the price line since the call.',
    'Example: /pnl 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25',
  ].join('\n'),
  slow: true,
  options: [{ name: 'address', type: 'address', description: 'The token’s address', required: true }],
  async run(args, ctx) {
    const call = await callsOf(ctx).get(ctx.chat, args.address);
    if (call === null)
      return notice('No call here', rich(code(args.address), ' has not been called in this chat. /calls lists the calls.'), 'neutral');
    return callPnlCard(ctx.query.client, call, ctx.now());
  },
});
