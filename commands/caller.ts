/** /caller [me|name]: one caller's record in this chat, with their calls (docs/calls.md). */
import { callerCard, sameNameCard } from '../src/cards/callCards';
import { callerRecord } from '../src/cards/callStats';
import { defineCommand } from '../src/dispatch/command';
import { callsOf } from '../src/dispatch/services';

export default defineCommand({
  name: 'caller',
  description: 'One caller’s record here: median and best multiple, hit rate, their calls',
  help: [
    'Without a name, or with `me`, your own record in this chat; with a name (as the chat shows it, with or without @) or an id, that caller’s.',
    'Where several callers go by the name, they are listed, each with its id, rather than counted as one.',
    'Lists their calls newest first with the peak and the multiple now.',
    'Example: /caller @alice',
  ].join('\n'),
  // Each reads the chat's whole record: a person asks at most this often.
  cooldown: '10s',
  options: [{ name: 'who', type: 'text', description: 'me, or a caller’s name', required: false, maxLength: 64 }],
  async run(args, ctx) {
    const all = await callsOf(ctx).calls.list(ctx.chat, null);
    const asked = (args.who ?? 'me').trim().replace(/^[@＠]+/u, '');
    if (asked.toLowerCase() === 'me')
      return callerRecordCard(
        all.filter((call) => call.userId === ctx.userId),
        ctx.userName ?? 'you',
        ctx.now(),
      );
    const byId = all.filter((call) => call.userId === asked);
    if (byId.length > 0) return callerRecordCard(byId, asked, ctx.now());
    const named = all.filter((call) => call.userName.replace(/^[@＠]+/u, '').toLowerCase() === asked.toLowerCase());
    // A name is whatever a person chose: two who chose the same are two callers, never one record.
    const people = new Map<string, { userId: string; userName: string; calls: number }>();
    for (const call of named) {
      const person = people.get(call.userId);
      if (person === undefined) people.set(call.userId, { userId: call.userId, userName: call.userName, calls: 1 });
      else person.calls += 1;
    }
    if (people.size > 1) return sameNameCard(asked, [...people.values()]);
    return callerRecordCard(named, asked, ctx.now());
  },
});

function callerRecordCard(calls: Parameters<typeof callerRecord>[0], who: string, now: Date) {
  return callerCard(callerRecord(calls), who, now);
}
