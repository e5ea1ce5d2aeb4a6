/**
 * /settings [setting] [value]: a chat's settings, shown or changed by someone who manages it.
 * `detect on|off`: whether an address pasted in the chat is answered with the token card (chats
 * that read every message, such as Telegram, do it; on by default in private chats, off in groups
 * until switched on). `budget N|off`: alerts sent one by one in a clock hour; past it they wait for
 * the next digest, never dropped (src/delivery/alertControls.ts).
 */
import { code, field, rich, type Card } from '../src/cards/card';
import { defineCommand } from '../src/dispatch/command';
import type { ChatSettings } from '../src/store/store';
import { UsageError } from '../src/usage';

/** A budget above this is no budget a chat could notice; it is refused as a likely typo. */
const MAX_BUDGET = 1_000;

function shown(value: boolean | null): string {
  if (value === null) return 'default (on in private chats, off in groups)';
  return value ? 'on' : 'off';
}

function settingsCard(settings: Pick<ChatSettings, 'detectAddresses' | 'budget'>, changed: boolean): Card {
  return {
    title: changed ? 'Settings changed' : 'Settings',
    description: rich(
      'Change one with ',
      code('/settings detect on'),
      ', ',
      code('/settings detect off'),
      ', ',
      code('/settings budget 30'),
      ' or ',
      code('/settings budget off'),
      '.',
    ),
    color: 'info',
    fields: [
      field('Pasted addresses answered with the token card (detect)', shown(settings.detectAddresses)),
      field(
        'Alerts an hour before the rest wait for a digest (budget)',
        settings.budget === undefined || settings.budget === null ? 'none' : String(settings.budget),
      ),
    ],
    actions: [],
  };
}

function budgetValue(text: string): number | null {
  const word = text.trim().toLowerCase();
  if (word === 'off' || word === 'none' || word === '0') return null;
  if (!/^\d{1,4}$/.test(word))
    throw new UsageError(
      `budget must be a number of alerts or off, not "${text.slice(0, 12)}"`,
      null,
      'Write /settings budget 30, or /settings budget off.',
    );
  const budget = Number(word);
  if (budget > MAX_BUDGET)
    throw new UsageError(
      `budget must be at most ${MAX_BUDGET} alerts an hour`,
      null,
      'Write /settings budget 30, or /settings budget off.',
    );
  return budget;
}

export default defineCommand({
  name: 'settings',
  description: 'Show or change this chat’s settings: pasted addresses, hourly alert budget',
  help: [
    'Without options, shows this chat’s settings. `detect on` answers every token address pasted in the chat (bare, or inside a Solscan, DEX Screener, Birdeye, pump.fun or similar link) with its card; `detect off` stops it.',
    '`budget N` sends at most N alerts one by one in each clock hour; the rest wait and come as one digest at the next hour, never dropped, and the chat is told once that hour. `budget off` (or 0) removes it.',
    'Only someone who manages the chat may run it.',
    'Example: /settings budget 30',
  ].join('\n'),
  manager: true,
  options: [
    {
      name: 'setting',
      type: 'choice',
      description: 'The setting to change: detect or budget',
      required: false,
      choices: [
        { value: 'detect', label: 'detect' },
        { value: 'budget', label: 'budget' },
      ],
    },
    { name: 'value', type: 'text', description: 'detect: on or off; budget: alerts an hour, or off', required: false, maxLength: 12 },
  ],
  async run(args, context) {
    const settings = context.chatSettings;
    if (settings === undefined) throw new Error('chat settings are not set up in this installation');
    if (args.setting !== undefined && args.value !== undefined) {
      if (args.setting === 'budget') {
        await settings.updateSettings(context.chat, { budget: budgetValue(args.value) });
      } else {
        const value = args.value.trim().toLowerCase();
        if (value !== 'on' && value !== 'off')
          throw new UsageError(
            `detect is on or off, not "${args.value.slice(0, 12)}"`,
            null,
            'Write /settings detect on, or /settings detect off.',
          );
        await settings.updateSettings(context.chat, { detectAddresses: value === 'on' });
      }
      return settingsCard(await settings.settings(context.chat), true);
    }
    if (args.setting !== undefined)
      throw new UsageError(
        `${args.setting} needs a value`,
        null,
        args.setting === 'budget'
          ? 'Write /settings budget 30, or /settings budget off.'
          : 'Write /settings detect on, or /settings detect off.',
      );
    return settingsCard(await settings.settings(context.chat), false);
  },
});
