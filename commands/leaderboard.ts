/** /leaderboard [7d|30d|all]: this chat's callers ranked by the median peak multiple of their calls (docs/calls.md). */
import { leaderboardCard } from '../src/cards/callCards';
import { rankCallers } from '../src/cards/callStats';
import { isCallWindow, windowStart, windowText, type CallWindow } from '../src/cards/callWindow';
import { defineCommand } from '../src/dispatch/command';
import { callsOf } from '../src/dispatch/services';

const WINDOWS = ['7d', '30d', 'all'] as const;

export default defineCommand({
  name: 'leaderboard',
  description: 'This chat’s callers ranked by the median peak multiple of their calls',
  help: [
    'Ranks the callers of this chat with at least 3 calls in the window (7d unless given) by the median of their calls’ peak multiples,',
    'so one lucky call does not carry a record and a token that died counts. Each line: hit rate (calls that reached ×2), number of calls, best call.',
    'Example: /leaderboard 30d',
  ].join('\n'),
  // Each reads the chat's whole record: a person asks at most this often.
  cooldown: '10s',
  options: [
    {
      name: 'window',
      type: 'choice',
      description: '7d, 30d or all',
      required: false,
      choices: WINDOWS.map((value) => ({ value, label: value })),
    },
  ],
  async run(args, ctx) {
    const now = ctx.now();
    const window: CallWindow = isCallWindow(args.window) ? args.window : '7d';
    const calls = await callsOf(ctx).calls.list(ctx.chat, windowStart(window, now));
    return leaderboardCard(rankCallers(calls), windowText(window), now);
  },
});
