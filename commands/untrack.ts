/** /untrack <address>: stop following a token or wallet in this chat. */
import { code, rich } from '../src/cards/card';
import { notice } from '../src/follows/followCards';
import { defineCommand } from '../src/dispatch/command';
import { followsOf } from '../src/dispatch/services';

export default defineCommand({
  name: 'untrack',
  description: 'Stop following a token or wallet in this chat',
  help: [
    'Stops the alerts of a token or wallet in this chat; other chats that follow it are not affected.',
    'Alerts already waiting to be sent here are still sent. See what is followed with /following.',
    'Example: /untrack 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25',
  ].join('\n'),
  manager: true,
  options: [{ name: 'address', type: 'address', description: 'The token’s or wallet’s address', required: true }],
  async run(args, ctx) {
    const removed = await followsOf(ctx).untrack(ctx.chat, args.address);
    return removed
      ? notice('No longer tracking', rich(code(args.address), ' sends no more alerts to this chat.'))
      : notice('Not tracked here', rich(code(args.address), ' is not followed in this chat. See /following.'), 'neutral');
  },
});
