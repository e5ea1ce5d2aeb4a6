import { defineCommand } from '../src/dispatch/command';

export default defineCommand({
  name: 'token',
  description: 'Price, changes, volume, market cap, liquidity, holders and risk flags of a token',
  help: [
    'Shows a token at a glance: price in SOL (and USD when the rate can be read), market cap, liquidity summed over its pools,',
    'the price change over 5m, 1h, 6h and 24h and the 24h volume (from 5-minute candles), holders, age, risk status with every flag',
    '(mint and freeze authority, mutable metadata, owner balance), top-10 holder share, deployer, the largest pools,',
    'links to DEX Screener, Birdeye, GeckoTerminal, Jupiter and Solscan, and the project links.',
    'Example: /token 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25',
  ].join('\n'),
  // A network look-up: chats defer the reply when it runs long, and its card can be refreshed in place.
  slow: true,
  refresh: true,
  options: [{ name: 'address', type: 'address', description: 'The token’s address', required: true }],
  run: (args, ctx) => ctx.query.token(args.address),
});
