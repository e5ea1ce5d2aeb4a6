/** /caller [me|name]: one caller's record in this chat, with their calls (docs/calls.md). */
import { callerCard } from '../src/cards/callCards';
import { callerRecord } from '../src/cards/callStats';
import { defineCommand } from '../src/dispatch/command';
import { callsOf } from '../src/dispatch/services';

export default defineCommand({
  name: 'caller',
  description: 'One caller’s record here: median and best multiple, hit rate, their calls',
  help: [
    'Without a name, or with `me`, your own record in this chat; with a name (as the chat shows it, with or without @), that caller’s.',
    'Lists their calls newest first with the peak and the multiple now.',
    'Example: /caller @alice',
  ].join('\n'),
  options: [{ name: 'who', type: 'text', description: 'me, or a caller’s name', required: false, maxLength: 64 }],
  async run(args, ctx) {
    const all = await callsOf(ctx).calls.list(ctx.chat, null);
    const asked = (args.who ?? 'me').trim().replace(/^[@＠]+/u, '');
    const own =
      asked.toLowerCase() === 'me'
        ? all.filter((call) => call.userId === ctx.userId)
        : all.filter((call) => call.userName.replace(/^[@＠]+/u, '').toLowerCase() === asked.toLowerCase() || call.userId === asked);
    return callerRecordCard(own, asked.toLowerCase() === 'me' ? (ctx.userName ?? 'you') : asked, ctx.now());
  },
});

function callerRecordCard(calls: Parameters<typeof callerRecord>[0], who: string, now: Date) {
  return callerCard(callerRecord(calls), who, now);
}
