/** /untarget <address>: remove this chat's targets of a token. */
import { code, rich } from '../src/cards/card';
import { notice } from '../src/follows/followCards';
import { defineCommand } from '../src/dispatch/command';
import { followsOf } from '../src/dispatch/services';

export default defineCommand({
  name: 'untarget',
  description: 'Remove this chat’s price and market cap targets of a token',
  help: [
    'Removes every target this chat set on the token with /target; its /track, if any, stays.',
    'See the targets with /targets.',
    'Example: /untarget 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25',
  ].join('\n'),
  manager: true,
  options: [{ name: 'address', type: 'address', description: 'The token’s address', required: true }],
  async run(args, ctx) {
    const removed = await followsOf(ctx).untarget(ctx.chat, args.address);
    return removed > 0
      ? notice(removed === 1 ? 'Target removed' : `${removed} targets removed`, rich(code(args.address), ' has no target here any more.'))
      : notice('No target here', rich(code(args.address), ' has no target in this chat. See /targets.'), 'neutral');
  },
});
