/**
 * /digest daily HH:MM [timezone], /digest off, /digest: a chat's daily watchlist. At that time each
 * day (in the IANA zone given, UTC by default) the chat gets one card with each followed token's
 * price, 24h change, volume, liquidity and risk status, sorted by the change, and the followed
 * wallets' trades in the day with their USD total (src/jobs/dailyDigest.ts).
 */
import { code, field, rich, type Card } from '../src/cards/card';
import { defineCommand } from '../src/dispatch/command';
import { ServiceMissingError } from '../src/dispatch/services';
import type { DigestSetting } from '../src/store/store';
import { timeOfDay, zoneNamed } from '../src/text/zonedTime';
import { UsageError } from '../src/usage';

function digestCard(digest: DigestSetting | null, changed: boolean): Card {
  const title = changed ? (digest === null ? 'Daily watchlist off' : 'Daily watchlist set') : 'Daily watchlist';
  const when = digest === null ? 'off' : `every day at ${digest.time} (${digest.zone})`;
  return {
    title,
    description: rich(
      'Set it with ',
      code('/digest daily 09:00 Europe/Paris'),
      ' (the zone defaults to UTC), stop it with ',
      code('/digest off'),
      '.',
    ),
    color: 'info',
    fields: [
      field('Sent', when),
      ...(digest === null
        ? []
        : [
            field(
              'Holds',
              'each followed token’s price, 24h change, volume, liquidity and risk status, by 24h change, and the followed wallets’ trades in the day with their USD total',
            ),
          ]),
    ],
    actions: [],
  };
}

export default defineCommand({
  name: 'digest',
  description: 'A daily watchlist card in this chat at a set time, or off',
  help: [
    'Without options, shows this chat’s daily watchlist setting. `daily HH:MM [timezone]` sends, at that time each day, one card with',
    'each followed token’s price, 24h change, volume, liquidity and risk status (by 24h change) and the followed wallets’ trades in the day.',
    'The time zone is an IANA name such as Europe/Paris or America/New_York (default UTC). `off` stops it. Only someone who manages the chat may run it.',
    'Example: /digest daily 09:00 Europe/Paris',
  ].join('\n'),
  manager: true,
  options: [
    {
      name: 'mode',
      type: 'choice',
      description: 'daily (with a time) or off',
      required: false,
      choices: [
        { value: 'daily', label: 'daily' },
        { value: 'off', label: 'off' },
      ],
    },
    { name: 'time', type: 'text', description: 'Time of day, 24-hour: 09:00', required: false, maxLength: 5 },
    { name: 'timezone', type: 'text', description: 'IANA time zone, such as Europe/Paris (default UTC)', required: false, maxLength: 64 },
  ],
  async run(args, ctx) {
    const settings = ctx.chatSettings;
    if (settings === undefined) throw new ServiceMissingError('Chat settings');
    if (args.mode === undefined) {
      if (args.time !== undefined || args.timezone !== undefined)
        throw new UsageError('a time goes after daily', null, 'Write /digest daily 09:00 Europe/Paris.');
      return digestCard((await settings.settings(ctx.chat)).digest ?? null, false);
    }
    if (args.mode === 'off') {
      if (args.time !== undefined || args.timezone !== undefined) throw new UsageError('off takes no time', null, 'Write /digest off.');
      await settings.updateSettings(ctx.chat, { digest: null });
      await ctx.digests?.changed();
      return digestCard(null, true);
    }
    if (args.time === undefined)
      throw new UsageError(
        'daily needs a time of day',
        null,
        'Write /digest daily 09:00, or with a zone: /digest daily 09:00 Europe/Paris.',
      );
    const time = timeOfDay(args.time);
    if (time === null)
      throw new UsageError(
        `time must be a time of day such as 09:00, not "${args.time.slice(0, 8)}"`,
        null,
        'Hours 00 to 23, then minutes: 09:00, 21:30.',
      );
    const zone = args.timezone === undefined ? 'UTC' : zoneNamed(args.timezone);
    if (zone === null)
      throw new UsageError(
        `"${(args.timezone ?? '').slice(0, 40)}" is not a time zone`,
        null,
        'Use an IANA name such as Europe/Paris, America/New_York or UTC (names are case-sensitive).',
      );
    const digest: DigestSetting = { time, zone, threadId: ctx.chat.threadId, scopeId: ctx.chat.scopeId, since: ctx.now().getTime() };
    await settings.updateSettings(ctx.chat, { digest });
    await ctx.digests?.changed();
    return digestCard(digest, true);
  },
});
