import { defineCommand } from '../src/dispatch/command';
import { sharePlaceOf } from '../src/model/place';

export default defineCommand({
  name: 'technicals',
  description: 'Holder concentration over time, developer history and initial buyers of a token',
  help: [
    'Shows how much of the supply the top 10, 20, 50 and 100 holders own now and hours ago, what the developer did',
    '(other tokens, rug history, share sold, own trades) and how the first buyers behaved (held, sold part, sold all, snipers).',
    'Example: /technicals 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25',
  ].join('\n'),
  slow: true,
  refresh: true,
  // The service allows token-technicals 100 calls a minute for the whole bot: one person may not spend them in a burst,
  // nor one chat (or Discord server) more than its share a minute (TECHNICALS_PER_CHAT_PER_MINUTE).
  cooldown: '3s',
  options: [{ name: 'address', type: 'address', description: 'The token’s address', required: true }],
  run: (args, ctx) => ctx.query.technicals(args.address, sharePlaceOf(ctx.chat)),
});
