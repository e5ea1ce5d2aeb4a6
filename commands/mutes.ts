/** /mutes: the follows of this chat that are muted now, and until when. */
import { code, field, rich } from '../src/cards/card';
import { mutedText, notice } from '../src/follows/followCards';
import { defineCommand } from '../src/dispatch/command';
import { followsOf } from '../src/dispatch/services';
import { untrusted } from '../src/text/sanitize';

/** More than any chat's follow limit: /mutes reads them all and shows the muted ones. */
const ALL_FOLLOWS = 10_000;
/** A card holds this many fields at most on every platform (Discord's embed limit is 25). */
const SHOWN = 20;

export default defineCommand({
  name: 'mutes',
  description: 'The tokens and wallets muted in this chat, and until when',
  help: [
    'Lists every mute running in this chat (set with /mute or the Mute 1h button), with how long it has left. /unmute ends one.',
    'Example: /mutes',
  ].join('\n'),
  options: [],
  async run(_args, ctx) {
    const now = ctx.now();
    const { follows } = await followsOf(ctx).list(ctx.chat, { offset: 0, limit: ALL_FOLLOWS });
    const muted = follows.filter((follow) => mutedText(follow, now) !== null);
    if (muted.length === 0) return notice('No mutes', rich('Nothing is muted in this chat.'), 'neutral');
    const card = notice('Muted here', rich(`${muted.length} muted; /unmute ADDRESS ends a mute.`), 'neutral');
    const more = muted.length - SHOWN;
    return {
      ...card,
      fields: [
        ...muted
          .slice(0, SHOWN)
          .map((follow) =>
            field(
              follow.label === null ? follow.kind : `${follow.kind} ${untrusted(follow.label, 40, '')}`,
              rich(code(follow.address), ` ${mutedText(follow, now) ?? ''}`),
            ),
          ),
        ...(more > 0 ? [field('More', `${more} more not shown`)] : []),
      ],
    };
  },
});
