/** /status: is the bot keeping up — live streams, follows, alerts waiting. */
import { statusCard } from '../src/follows/followCards';
import { defineCommand } from '../src/dispatch/command';
import { statusOf } from '../src/dispatch/services';

export default defineCommand({
  name: 'status',
  description: 'Live streams, follows and alerts waiting to be sent',
  help: [
    'Shows whether the bot is keeping up: live stream sockets up and subscriptions open, how subscriptions share sockets,',
    'whether the open-files limit holds any back, tokens and wallets followed (in every chat), alerts waiting to be sent',
    "and how old the oldest is, each Discord shard's state, and whether this chat is paused.",
    'Example: /status',
  ].join('\n'),
  cooldown: '5s',
  options: [],
  async run(_args, ctx) {
    return statusCard(await statusOf(ctx).report(ctx.chat), ctx.now());
  },
});
