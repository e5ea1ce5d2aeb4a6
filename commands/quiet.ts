/**
 * /quiet HH:MM-HH:MM [zone] [strict], /quiet off, /quiet: a chat's quiet hours. In those hours its
 * alerts are held and sent as one digest when they end (src/delivery/alertControls.ts); a status
 * change to DANGER still goes at once, unless `strict`.
 */
import { code, field, rich, type Card } from '../src/cards/card';
import { defineCommand } from '../src/dispatch/command';
import { ServiceMissingError } from '../src/dispatch/services';
import type { QuietSetting } from '../src/store/store';
import { timeOfDay, zoneNamed } from '../src/text/zonedTime';
import { UsageError } from '../src/usage';

function quietCard(quiet: QuietSetting | null, changed: boolean): Card {
  const title = changed ? (quiet === null ? 'Quiet hours off' : 'Quiet hours set') : 'Quiet hours';
  return {
    title,
    description: rich(
      'Set them with ',
      code('/quiet 23:00-07:00 Europe/Paris'),
      ' (the zone defaults to UTC; add ',
      code('strict'),
      ' to hold DANGER too), stop them with ',
      code('/quiet off'),
      '.',
    ),
    color: 'info',
    fields:
      quiet === null
        ? [field('Quiet hours', 'off')]
        : [
            field('Quiet hours', `${quiet.from} to ${quiet.to} (${quiet.zone})`),
            field('Alerts then', 'held, and sent as one digest when the hours end'),
            field('A change to DANGER', quiet.strict ? 'held too (strict)' : 'sent at once'),
          ],
    actions: [],
  };
}

export default defineCommand({
  name: 'quiet',
  description: 'Quiet hours: alerts held and sent as one digest when they end',
  help: [
    'Without options, shows this chat’s quiet hours. `HH:MM-HH:MM [timezone] [strict]` holds the chat’s alerts in those hours (23:00-07:00 runs across midnight)',
    'and sends them as one digest when they end. A status change to DANGER still goes at once, unless `strict` is added. The zone is an IANA name such as',
    'Europe/Paris (default UTC). `off` ends them. Only someone who manages the chat may run it.',
    'Example: /quiet 23:00-07:00 Europe/Paris',
  ].join('\n'),
  manager: true,
  options: [
    { name: 'hours', type: 'text', description: 'HH:MM-HH:MM, or off', required: false, maxLength: 11 },
    { name: 'timezone', type: 'text', description: 'IANA time zone, such as Europe/Paris (default UTC)', required: false, maxLength: 64 },
    { name: 'strict', type: 'text', description: 'strict: hold a change to DANGER too', required: false, maxLength: 6 },
  ],
  async run(args, ctx) {
    const settings = ctx.chatSettings;
    if (settings === undefined) throw new ServiceMissingError('Chat settings');
    if (args.hours === undefined) return quietCard((await settings.settings(ctx.chat)).quiet ?? null, false);
    if (args.hours.toLowerCase() === 'off') {
      await settings.updateSettings(ctx.chat, { quiet: null });
      return quietCard(null, true);
    }
    const [fromText, toText, extra] = args.hours.split('-');
    const from = fromText === undefined ? null : timeOfDay(fromText);
    const to = toText === undefined ? null : timeOfDay(toText);
    if (from === null || to === null || extra !== undefined) {
      throw new UsageError(
        `hours must be two times of day such as 23:00-07:00, not "${args.hours.slice(0, 11)}"`,
        null,
        'Write /quiet 23:00-07:00, with a zone if not UTC: /quiet 23:00-07:00 Europe/Paris.',
      );
    }
    if (from === to)
      throw new UsageError('quiet hours must start and end at different times', null, 'Write /quiet 23:00-07:00, or /quiet off.');
    // `strict` may come in the zone's place when the zone is left at UTC.
    const words = [args.timezone, args.strict].filter((word): word is string => word !== undefined);
    const strict = words.some((word) => word.toLowerCase() === 'strict');
    const zoneWord = words.find((word) => word.toLowerCase() !== 'strict');
    if (words.filter((word) => word.toLowerCase() !== 'strict').length > 1)
      throw new UsageError('only one time zone, then strict', null, 'Write /quiet 23:00-07:00 Europe/Paris strict.');
    const zone = zoneWord === undefined ? 'UTC' : zoneNamed(zoneWord);
    if (zone === null)
      throw new UsageError(
        `"${(zoneWord ?? '').slice(0, 40)}" is not a time zone`,
        null,
        'Use an IANA name such as Europe/Paris, America/New_York or UTC (names are case-sensitive).',
      );
    const quiet: QuietSetting = { from, to, zone, strict };
    await settings.updateSettings(ctx.chat, { quiet });
    return quietCard(quiet, true);
  },
});
