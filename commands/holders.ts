import { HOLDER_SORTS } from '../src/cards/holdersCard';
import { defineCommand } from '../src/dispatch/command';

export default defineCommand({
  name: 'holders',
  description: 'Top holders of a token: amount, share, profit, tags, holding since',
  help: [
    'Lists the first 10 holders in the chosen order: balance (the default), holderSince (earliest first),',
    'totalBoughtUSD or totalSoldUSD (most first). Each shows amount, share of supply, USD bought and sold,',
    'realised profit, tags and how long it has held.',
    'Example: /holders 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25 totalSoldUSD',
  ].join('\n'),
  slow: true,
  refresh: true,
  options: [
    { name: 'address', type: 'address', description: 'The token’s address', required: true },
    {
      name: 'sort',
      type: 'choice',
      description: 'Order of the holders (balance by default)',
      required: false,
      choices: HOLDER_SORTS.map((sort) => ({ value: sort.value, label: sort.label })),
    },
  ],
  run: (args, ctx) => ctx.query.holders(args.address, args.sort),
});
