/**
 * Slash command definitions generated from the command definitions in `commands/`: one Discord
 * command per definition, its options typed, described, required or not, with choices and
 * limits, and addresses autocompleted from the channel's follows. Pure, so `npm run register`
 * and the tests build the same JSON.
 */
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  InteractionContextType,
  PermissionFlagsBits,
  type APIApplicationCommandBasicOption,
  type APIApplicationCommandOption,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { AnyCommand, ChoiceOption, OptionSpec } from '../../dispatch/command';
import { CHOICE_TEXT_MAX } from './limits';

type CommandJson = RESTPostAPIChatInputApplicationCommandsJSONBody;

/**
 * Who sees a manager's command by default. Discord shows a command to members who hold every
 * permission in this set, so "Manage Server or Manage Channels" cannot be one set: Manage Channels
 * is the one moderators usually hold (server owners and administrators hold both). A server can
 * widen or narrow it under Server Settings → Integrations; the run-time check accepts either.
 */
export const MANAGER_DEFAULT_PERMISSIONS = PermissionFlagsBits.ManageChannels;

/** Longest text a person may type for one address (Solana 32–44, EVM 42) and a list of them. */
const ADDRESS_MAX = 64;
const DURATION_MAX = 32;
const TEXT_MAX = 6000;

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

function optionJson(option: OptionSpec): APIApplicationCommandBasicOption {
  const base = { name: option.name, description: cut(option.description, 100), required: option.required };
  switch (option.type) {
    case 'address':
      return { ...base, type: ApplicationCommandOptionType.String, min_length: 1, max_length: ADDRESS_MAX, autocomplete: true };
    case 'addresses':
      // Several addresses in one field, separated by spaces or commas, as in a typed command.
      return {
        ...base,
        type: ApplicationCommandOptionType.String,
        min_length: 1,
        max_length: Math.min(TEXT_MAX, option.max * (ADDRESS_MAX + 1)),
      };
    case 'choice':
      return {
        ...base,
        type: ApplicationCommandOptionType.String,
        choices: option.choices
          .slice(0, 25)
          .map((choice) => ({ name: cut(choice.label, CHOICE_TEXT_MAX), value: cut(choice.value, CHOICE_TEXT_MAX) })),
      };
    case 'number': {
      const limits = {
        ...(option.min === undefined ? {} : { min_value: option.min }),
        ...(option.max === undefined ? {} : { max_value: option.max }),
      };
      return option.integer === true
        ? { ...base, type: ApplicationCommandOptionType.Integer, ...limits }
        : { ...base, type: ApplicationCommandOptionType.Number, ...limits };
    }
    case 'duration':
      // Typed as in every chat ("15m", "4h", "7d"), read by the pipeline's one duration grammar.
      return { ...base, type: ApplicationCommandOptionType.String, min_length: 1, max_length: DURATION_MAX };
    case 'text':
      return { ...base, type: ApplicationCommandOptionType.String, max_length: Math.min(TEXT_MAX, option.maxLength ?? TEXT_MAX) };
  }
}

/**
 * The choice that picks a command's form (`/track token …`, `/track wallet …`): a required first
 * option of type choice, when some later option names the forms it belongs to. Null otherwise.
 */
export function formOption(command: Pick<AnyCommand, 'options'>): ChoiceOption | null {
  const [first, ...rest] = command.options;
  if (first === undefined || first.type !== 'choice' || !first.required) return null;
  return rest.some((option) => option.forms !== undefined) ? first : null;
}

/** A command with forms is registered as one subcommand per form, each with its own options. */
function optionsJson(command: AnyCommand): APIApplicationCommandOption[] {
  const form = formOption(command);
  if (form === null) return command.options.map(optionJson);
  const rest = command.options.slice(1);
  return form.choices.map((choice) => ({
    type: ApplicationCommandOptionType.Subcommand,
    name: choice.value,
    description: cut(`${command.description} (${choice.label})`, 100),
    options: rest
      .filter((option) => option.forms === undefined || option.forms.includes(choice.value))
      .map(optionJson) as APIApplicationCommandBasicOption[],
  }));
}

export function slashCommandJson(command: AnyCommand): CommandJson {
  return {
    type: ApplicationCommandType.ChatInput,
    name: command.name,
    description: cut(command.description, 100),
    options: optionsJson(command),
    // In servers, and in a direct message with the bot, where a person follows for themselves.
    contexts: [InteractionContextType.Guild, InteractionContextType.BotDM],
    ...(command.manager === true ? { default_member_permissions: MANAGER_DEFAULT_PERMISSIONS.toString() } : {}),
  };
}

export function slashCommandsJson(commands: readonly AnyCommand[]): CommandJson[] {
  return commands.map(slashCommandJson);
}
