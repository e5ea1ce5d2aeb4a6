/** /wallet <wallets>: what some wallets traded lately, and what they made per token. */
import { defineCommand } from '../src/dispatch/command';

/** Wallets one look-up may name: enough for a team of traders, few enough for one readable card. */
const MAX_WALLETS = 10;

export default defineCommand({
  name: 'wallet',
  description: 'Recent trades of wallets across all tokens, with profit per token',
  // The example's addresses are the seed-42 simulator's, so it answers with data in the default console.
  help: [
    'Lists the newest trades of the wallets across every token (up to 10 lines), then per token what they bought and sold in USD, the realised profit, their trade counts and what they still hold.',
    'Profit comes from the service’s running totals for each wallet and token, at the USD of the time of each trade; realised profit counts sold tokens at their average cost.',
    `Give up to ${MAX_WALLETS} wallets, separated by spaces or commas.`,
    'Example: /wallet 9rTkGv8SVaTgivWmYpzwKv5RaUBLmcAUa3ZyKNSL1NSU',
  ].join('\n'),
  slow: true,
  refresh: true,
  options: [
    {
      name: 'wallets',
      type: 'addresses',
      description: 'Wallet addresses, separated by spaces or commas',
      required: true,
      max: MAX_WALLETS,
    },
  ],
  run: (args, context) => context.query.wallet(args.wallets),
});
