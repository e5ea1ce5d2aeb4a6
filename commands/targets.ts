/** /targets: this chat's one-shot targets, oldest first. */
import { targetsCard } from '../src/follows/targetCards';
import { defineCommand } from '../src/dispatch/command';
import { followsOf } from '../src/dispatch/services';

export default defineCommand({
  name: 'targets',
  description: 'The price and market cap targets set in this chat',
  help: [
    'Lists this chat’s targets (set with /target), oldest first: the token, what crosses it, and when it was set.',
    'Remove a token’s targets with /untarget.',
    'Example: /targets',
  ].join('\n'),
  options: [],
  async run(_args, ctx) {
    const service = followsOf(ctx);
    const targets = await service.targets(ctx.chat);
    return targetsCard(targets, ctx.now(), await service.symbolsOf(targets.map((target) => target.address)));
  },
});
