/** /trades <token> <wallets>: the newest trades of some wallets in one token. */
import { defineCommand } from '../src/dispatch/command';

/** Wallets one look-up may name: enough for a team of traders, few enough for one readable card. */
const MAX_WALLETS = 10;

export default defineCommand({
  name: 'trades',
  description: 'Newest trades of some wallets in one token: side, amounts, USD, price, maker, time',
  // The example's addresses are the seed-42 simulator's, so it answers with data in the default console.
  help: [
    'Lists the newest trades (up to 10) that the wallets made in the token, newest first, with totals bought and sold over every trade the service returned.',
    'Each trade shows its side, the token and SOL amounts, its USD value and price at the time, the maker and a link to the transaction.',
    `Give up to ${MAX_WALLETS} wallets, separated by spaces or commas.`,
    'Example: /trades 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25 9rTkGv8SVaTgivWmYpzwKv5RaUBLmcAUa3ZyKNSL1NSU',
  ].join('\n'),
  slow: true,
  refresh: true,
  options: [
    { name: 'token', type: 'address', description: 'Token address', required: true },
    {
      name: 'wallets',
      type: 'addresses',
      description: 'Wallet addresses, separated by spaces or commas',
      required: true,
      max: MAX_WALLETS,
    },
  ],
  run: (args, context) => context.query.trades(args.token, args.wallets),
});
