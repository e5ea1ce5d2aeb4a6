/** /unmute <address>: end a mute early (and resume a chat that was paused). */
import { code, rich } from '../src/cards/card';
import { notice } from '../src/follows/followCards';
import { defineCommand } from '../src/dispatch/command';
import { followsOf } from '../src/dispatch/services';

export default defineCommand({
  name: 'unmute',
  description: 'Resume the alerts of a muted token or wallet in this chat',
  help: [
    'Ends a mute set with /mute. In a chat that was paused because alerts could not be sent to it, it also resumes the chat.',
    'Example: /unmute 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25',
  ].join('\n'),
  manager: true,
  options: [{ name: 'address', type: 'address', description: 'The token’s or wallet’s address', required: true }],
  async run(args, ctx) {
    const { found, resumed } = await followsOf(ctx).unmute(ctx.chat, args.address);
    if (!found) return notice('Not tracked here', rich(code(args.address), ' is not followed in this chat. See /following.'), 'neutral');
    return notice(
      'Alerts resumed',
      rich(code(args.address), ' sends alerts here again.', resumed ? ' This chat was paused; every follow here is live again.' : ''),
    );
  },
});
