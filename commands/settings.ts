/**
 * /settings [setting] [on|off]: a chat's settings, shown or changed by someone who manages it.
 * One setting so far, `detect`: whether an address pasted in the chat is answered with the token
 * card (chats that read every message, such as Telegram, do it; on by default in private chats,
 * off in groups until switched on).
 */
import { code, field, rich, type Card } from '../src/cards/card';
import { defineCommand } from '../src/dispatch/command';

function shown(value: boolean | null): string {
  if (value === null) return 'default (on in private chats, off in groups)';
  return value ? 'on' : 'off';
}

function settingsCard(detect: boolean | null, changed: boolean): Card {
  return {
    title: changed ? 'Settings changed' : 'Settings',
    description: rich('Change one with ', code('/settings detect on'), ' or ', code('/settings detect off'), '.'),
    color: 'info',
    fields: [field('Pasted addresses answered with the token card (detect)', shown(detect))],
    actions: [],
  };
}

export default defineCommand({
  name: 'settings',
  description: 'Show or change this chat’s settings, such as answering pasted addresses',
  help: [
    'Without options, shows this chat’s settings. `detect on` answers every token address pasted in the chat (bare, or inside a Solscan, DEX Screener, Birdeye, pump.fun or similar link) with its card; `detect off` stops it.',
    'Only someone who manages the chat may run it.',
    'Example: /settings detect on',
  ].join('\n'),
  manager: true,
  options: [
    { name: 'setting', type: 'choice', description: 'The setting to change: detect', required: false, choices: [{ value: 'detect', label: 'detect' }] },
    { name: 'value', type: 'choice', description: 'on or off', required: false, choices: [{ value: 'on', label: 'on' }, { value: 'off', label: 'off' }] },
  ],
  async run(args, context) {
    const settings = context.chatSettings;
    if (settings === undefined) throw new Error('chat settings are not set up in this installation');
    if (args.setting !== undefined && args.value !== undefined) {
      await settings.updateSettings(context.chat, { detectAddresses: args.value === 'on' });
      return settingsCard(args.value === 'on', true);
    }
    return settingsCard((await settings.settings(context.chat)).detectAddresses, false);
  },
});
