/** /following [page]: what this chat follows, ten to a page. */
import { FOLLOWING_PAGE_SIZE, followingCard } from '../src/follows/followCards';
import { defineCommand } from '../src/dispatch/command';
import { followsOf } from '../src/dispatch/services';

export default defineCommand({
  name: 'following',
  description: 'The tokens and wallets this chat follows, with their options',
  help: [
    `Lists what this chat follows, oldest first, ${FOLLOWING_PAGE_SIZE} to a page: each token's alerts and price threshold, each wallet's label,`,
    'smallest trade and side, and any mute still running.',
    'Example: /following 2',
  ].join('\n'),
  options: [{ name: 'page', type: 'number', description: 'Page number (default 1)', required: false, integer: true, min: 1, max: 1000 }],
  async run(args, ctx) {
    const service = followsOf(ctx);
    const page = args.page ?? 1;
    const { follows, total } = await service.list(ctx.chat, { offset: (page - 1) * FOLLOWING_PAGE_SIZE, limit: FOLLOWING_PAGE_SIZE });
    // A page past the end shows the last one rather than an empty list.
    const last = Math.max(1, Math.ceil(total / FOLLOWING_PAGE_SIZE));
    const shown =
      page > last && total > 0
        ? await service.list(ctx.chat, { offset: (last - 1) * FOLLOWING_PAGE_SIZE, limit: FOLLOWING_PAGE_SIZE })
        : { follows, total };
    const symbols = await service.symbolsOf(shown.follows.filter((follow) => follow.kind === 'token').map((follow) => follow.address));
    return followingCard(shown.follows, shown.total, Math.min(page, last), ctx.now(), symbols);
  },
});
