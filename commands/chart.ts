/** /chart <token> [interval] [range]: a candlestick picture of a token, with open, high, low, close, change and volume. */
import { defineCommand } from '../src/dispatch/command';
import { CHART_INTERVALS, CHART_RANGES, type ChartIntervalName, type ChartRangeName } from '../src/query/chartQuery';

export default defineCommand({
  name: 'chart',
  description: 'Candlestick chart of a token, with open, high, low, close, change and volume',
  // The example's addresses are the seed-42 simulator's, so it answers with data in the default console.
  help: [
    'Summarises the token’s candles from the range ago until now: the first open, the highest high, the lowest low, the last close, the change between them and the volume traded, and draws them as a candlestick picture with volume bars. Prices are in SOL per token; times are UTC.',
    'Interval is the width of one candle (15m unless given), range how far back to look (24h unless given). When the range holds more candles than the picture can draw, the next coarser interval is used, and the card says so.',
    'Example: /chart 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25 1h 7d',
  ].join('\n'),
  // A service look-up and a picture to draw and encode: more than Discord's 3 s first reply may allow.
  slow: true,
  refresh: true,
  options: [
    { name: 'token', type: 'address', description: 'Token address', required: true },
    {
      name: 'interval',
      type: 'choice',
      description: 'Width of one candle (default 15m)',
      required: false,
      choices: Object.keys(CHART_INTERVALS).map((value) => ({ value, label: value })),
    },
    {
      name: 'range',
      type: 'choice',
      description: 'How far back to look (default 24h)',
      required: false,
      choices: Object.keys(CHART_RANGES).map((value) => ({ value, label: value })),
    },
  ],
  run: (args, context) =>
    context.query.chart({
      address: args.token,
      intervalSecs: args.interval === undefined ? undefined : CHART_INTERVALS[args.interval as ChartIntervalName],
      rangeSecs: args.range === undefined ? undefined : CHART_RANGES[args.range as ChartRangeName],
    }),
});
