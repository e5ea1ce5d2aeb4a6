/** /mute <address> <duration|forever>: quiet one follow for a while, or until /unmute, without losing it. */
import { code, rich } from '../src/cards/card';
import { notice } from '../src/follows/followCards';
import { cardTime, duration } from '../src/text/format';
import { defineCommand } from '../src/dispatch/command';
import { followsOf } from '../src/dispatch/services';
import { parseDuration } from '../src/duration';
import { MUTED_FOREVER } from '../src/model/follow';
import { UsageError } from '../src/usage';

const MINUTE = 60;
const MAX_MUTE_SECS = 30 * 24 * 3600;

const command = defineCommand({
  name: 'mute',
  description: 'Silence a followed token or wallet in this chat for a while, or until /unmute',
  help: [
    'Stops the alerts of one token or wallet in this chat for the duration given (1m to 30d, such as 6h, 1d or 7d), or forever; the follow and its options stay.',
    'Changes that happen while muted are not sent later. /unmute ends a mute early; /mutes lists the mutes running here.',
    'Example: /mute 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25 4h',
  ].join('\n'),
  manager: true,
  options: [
    { name: 'address', type: 'address', description: 'The token’s or wallet’s address', required: true },
    // Text, not a duration option: "forever" is a word, and the duration's bounds are checked below.
    { name: 'duration', type: 'text', description: 'How long, such as 6h, 1d or 7d, or forever', required: true, maxLength: 20 },
  ],
  async run(args, ctx) {
    const forever = args.duration.trim().toLowerCase() === 'forever';
    const secs = forever ? null : parseDuration(args.duration);
    if (!forever && (secs === null || secs < MINUTE || secs > MAX_MUTE_SECS)) {
      throw new UsageError(
        `duration must be from 1m to 30d (such as 6h, 1d or 7d) or forever, not "${args.duration.slice(0, 20)}"`,
        command,
      );
    }
    const until = secs === null ? MUTED_FOREVER : new Date(ctx.now().getTime() + secs * 1000);
    const found = await followsOf(ctx).mute(ctx.chat, args.address, until);
    if (!found)
      return notice(
        'Not tracked here',
        rich(code(args.address), ' is not followed in this chat, so there is nothing to mute. See /following.'),
        'neutral',
      );
    return notice(
      'Muted',
      rich(
        code(args.address),
        secs === null ? ' sends no alerts here until /unmute.' : ` sends no alerts here for ${duration(secs)} (until ${cardTime(until)}).`,
      ),
    );
  },
});

export default command;
