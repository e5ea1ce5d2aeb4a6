/**
 * /calls [on|off|24h|7d|30d|all|export|forget|clear] [7d|30d|all|me]: a chat's calls (docs/calls.md).
 * Anyone lists them, exports them and forgets their own; turning calls on or off and clearing the
 * chat's records are a manager's.
 */
import { callsCsv } from '../src/cards/callsCsv';
import { callsListCard, callsSettingCard, clearedCard, exportCard, forgottenCard } from '../src/cards/callCards';
import { isCallWindow, windowStart, windowText, type CallWindow } from '../src/cards/callWindow';
import { managerOnlyCard } from '../src/cards/noticeCard';
import { defineCommand } from '../src/dispatch/command';
import { callsOf } from '../src/dispatch/services';
import { UsageError } from '../src/usage';

const WHAT = ['on', 'off', '24h', '7d', '30d', 'all', 'export', 'forget', 'clear'] as const;
const MORE = ['7d', '30d', 'all', '24h', 'me'] as const;

export default defineCommand({
  name: 'calls',
  description: 'This chat’s calls: turn them on or off, list, export as CSV, forget yours',
  help: [
    'With calls on, the first post of a token in this chat (a pasted address or link, or /token) is the poster’s call: who, when, and the price and market cap then.',
    'Its peak since is read from the closes of its traded candles (never a lone wick), and when it first reaches ×2, ×5, ×10, ×25, ×50 or ×100 the bot replies to the post.',
    '`/calls on` and `/calls off` (a manager’s) turn them on or off; `/calls 24h|7d|30d|all` lists the calls, newest first, with ×peak, ×now and the caller;',
    '`/calls export 7d|30d|all` sends them as a CSV file; `/calls forget me` removes your own calls here; `/calls clear` (a manager’s) removes every call here.',
    'See also /leaderboard, /caller and /pnl.',
    'Example: /calls 7d',
  ].join('\n'),
  // Each reads the chat's whole record: a person asks at most this often.
  cooldown: '5s',
  options: [
    {
      name: 'what',
      type: 'choice',
      description: 'on, off, a window (24h, 7d, 30d, all), export, forget or clear',
      required: false,
      choices: WHAT.map((value) => ({ value, label: value })),
    },
    {
      name: 'more',
      type: 'choice',
      description: 'export: the window (7d, 30d, all); forget: me',
      required: false,
      choices: MORE.map((value) => ({ value, label: value })),
    },
  ],
  async run(args, ctx) {
    const calls = callsOf(ctx).calls;
    const now = ctx.now();
    const isManager = async () => (ctx.isManager === undefined ? false : ctx.isManager());
    switch (args.what) {
      case 'on':
      case 'off':
        if (!(await isManager())) return managerOnlyCard('calls');
        await calls.setEnabled(ctx.chat, args.what === 'on', now);
        return callsSettingCard(args.what === 'on', true);
      case 'clear':
        if (!(await isManager())) return managerOnlyCard('calls');
        return clearedCard(await calls.clear(ctx.chat));
      case 'forget':
        if (args.more !== 'me')
          throw new UsageError('Forget what? Write /calls forget me to remove your own calls from this chat’s records', null);
        return forgottenCard(await calls.forget(ctx.chat, ctx.userId));
      case 'export': {
        const window: CallWindow = isCallWindow(args.more) ? args.more : 'all';
        const list = await calls.list(ctx.chat, windowStart(window, now));
        const data = new TextEncoder().encode(callsCsv(list));
        return exportCard(list.length, windowText(window), {
          filename: `calls-${window}.csv`,
          contentType: 'text/csv',
          data,
          description: 'Calls as CSV',
        });
      }
      case undefined:
        if (!(await calls.enabled(ctx.chat))) return callsSettingCard(false, false);
        return callsListCard(await calls.list(ctx.chat, windowStart('7d', now)), windowText('7d'), now);
      default: {
        const window: CallWindow = isCallWindow(args.what) ? args.what : '7d';
        return callsListCard(await calls.list(ctx.chat, windowStart(window, now)), windowText(window), now);
      }
    }
  },
});
