/** /mute <address> <duration>: quiet one follow for a while without losing it. */
import { code, rich } from '../src/cards/card';
import { notice } from '../src/follows/followCards';
import { duration } from '../src/text/format';
import { defineCommand } from '../src/dispatch/command';
import { followsOf } from '../src/dispatch/services';

const MINUTE = 60;
const MAX_MUTE_SECS = 30 * 24 * 3600;

export default defineCommand({
  name: 'mute',
  description: 'Silence a followed token or wallet in this chat for a while',
  help: [
    'Stops the alerts of one token or wallet in this chat for the duration given (1m to 30d); the follow and its options stay.',
    'Changes that happen while muted are not sent later. /unmute ends a mute early.',
    'Example: /mute 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25 4h',
  ].join('\n'),
  manager: true,
  options: [
    { name: 'address', type: 'address', description: 'The token’s or wallet’s address', required: true },
    { name: 'duration', type: 'duration', description: 'How long, such as 30m, 4h or 2d', required: true, minSecs: MINUTE, maxSecs: MAX_MUTE_SECS },
  ],
  async run(args, ctx) {
    const until = new Date(ctx.now().getTime() + args.duration * 1000);
    const found = await followsOf(ctx).mute(ctx.chat, args.address, until);
    return found
      ? notice('Muted', rich(code(args.address), ` sends no alerts here for ${duration(args.duration)} (until ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC).`))
      : notice('Not tracked here', rich(code(args.address), ' is not followed in this chat, so there is nothing to mute. See /following.'), 'neutral');
  },
});
