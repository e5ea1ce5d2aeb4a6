import { defineCommand } from '../src/dispatch/command';
import { tokenAnswer } from '../src/query/tokenQuery';

export default defineCommand({
  name: 'token',
  description: 'Price, changes, volume, market cap, liquidity, holders and risk flags of a token',
  help: [
    'Shows a token at a glance: price in SOL (and USD when the rate can be read), market cap, liquidity summed over its pools,',
    'the price change over 5m, 1h, 6h and 24h and the 24h volume (from 5-minute candles), holders, age, risk status with every flag',
    '(mint and freeze authority, mutable metadata, owner balance), top-10 holder share, deployer, the largest pools,',
    'links to DEX Screener, Birdeye, GeckoTerminal, Jupiter and Solscan, and the project links.',
    'With calls on in the chat (/calls on), the first post of a token is the poster’s call, and later cards say whose call it was.',
    'Example: /token 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25',
  ].join('\n'),
  // A network look-up: chats defer the reply when it runs long, and its card can be refreshed in place.
  slow: true,
  refresh: true,
  options: [{ name: 'address', type: 'address', description: 'The token’s address', required: true }],
  async run(args, ctx) {
    if (ctx.calls === undefined) return ctx.query.token(args.address);
    // The call is recorded from the very answer the card shows: one look-up, one price.
    const answer = await tokenAnswer(ctx.query.client, args.address, ctx.now());
    return ctx.calls.onPost(ctx.chat, { userId: ctx.userId, userName: ctx.userName ?? null, messageId: ctx.messageId ?? null }, answer);
  },
});
