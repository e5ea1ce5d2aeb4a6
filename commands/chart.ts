/** /chart <token> [interval] [range]: open, high, low, close, change and volume over a range. */
import { defineCommand } from '../src/dispatch/command';

const MINUTE = 60;
const DAY = 86_400;

export default defineCommand({
  name: 'chart',
  description: 'Price of a token over a range: open, high, low, close, change and volume',
  // The example's addresses are the seed-42 simulator's, so it answers with data in the default console.
  help: [
    'Summarises the token’s candles from the range ago until now: the first open, the highest high, the lowest low, the last close, the change between them and the volume traded. Prices are in SOL per token.',
    'Interval is the width of one candle (15m unless given), range how far back to look (24h unless given). When the range would hold more than 500 candles the interval is widened, and the card says so.',
    'Example: /chart 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25 1h 7d',
  ].join('\n'),
  slow: true,
  refresh: true,
  options: [
    { name: 'token', type: 'address', description: 'Token address', required: true },
    { name: 'interval', type: 'duration', description: 'Width of one candle, such as 5m, 15m or 1h (default 15m)', required: false, minSecs: MINUTE, maxSecs: 7 * DAY },
    { name: 'range', type: 'duration', description: 'How far back to look, such as 4h, 24h or 7d (default 24h)', required: false, minSecs: 5 * MINUTE, maxSecs: 90 * DAY },
  ],
  run: (args, context) => context.query.chart({ address: args.token, intervalSecs: args.interval, rangeSecs: args.range }),
});
