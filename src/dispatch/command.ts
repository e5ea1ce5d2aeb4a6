/**
 * What a command is: a name, help text, typed options and a `run` that returns a Card. One
 * definition serves every chat: the chat adapters read the options to register slash commands or
 * parse typed text, then call `run` with exact values. Nothing here knows a chat library.
 */
import type { Card } from '../cards/card';
import type { QueryService } from '../query/service';

interface OptionBase {
  /** Lower-case, as Discord requires for option names. */
  name: string;
  /** One line of help, at most 100 characters (Discord's limit). */
  description: string;
  required: boolean;
}

export interface AddressOption extends OptionBase {
  type: 'address';
}
export interface AddressListOption extends OptionBase {
  type: 'addresses';
  /** How many addresses one call may name. */
  max: number;
}
export interface ChoiceOption extends OptionBase {
  type: 'choice';
  choices: ReadonlyArray<{ value: string; label: string }>;
}
export interface NumberOption extends OptionBase {
  type: 'number';
  min?: number;
  max?: number;
  integer?: boolean;
}
/** A duration written as 15m, 4h, 1d (or plain seconds), read as seconds. */
export interface DurationOption extends OptionBase {
  type: 'duration';
  minSecs?: number;
  maxSecs?: number;
}
export interface TextOption extends OptionBase {
  type: 'text';
  maxLength?: number;
}

export type OptionSpec = AddressOption | AddressListOption | ChoiceOption | NumberOption | DurationOption | TextOption;

/** The value an option yields once parsed. */
export type OptionValue<S extends OptionSpec> = S extends AddressListOption
  ? string[]
  : S extends NumberOption | DurationOption
    ? number
    : string;

/** The arguments a command receives: required options always present, optional ones possibly undefined. */
export type ArgsOf<O extends readonly OptionSpec[]> = {
  [S in O[number] as S['name']]: S['required'] extends true ? OptionValue<S> : OptionValue<S> | undefined;
};

/** What a command may use; chats fill it in. */
export interface CommandContext {
  query: QueryService;
  /** Every command, for help. */
  commands: readonly AnyCommand[];
  now(): Date;
}

export interface Command<O extends readonly OptionSpec[]> {
  /** Lower-case letters, digits and dashes, as both Discord and Telegram accept. */
  name: string;
  /** One line, at most 100 characters. */
  description: string;
  /** Longer help shown by `/help name`: what it answers, with an example. */
  help: string;
  options: O;
  run(args: ArgsOf<O>, context: CommandContext): Promise<Card>;
}

/**
 * A command whose options are not known statically, as the registry and the chats hold them.
 * Its `run` takes the loose record the option parser builds.
 */
export interface AnyCommand {
  name: string;
  description: string;
  help: string;
  options: readonly OptionSpec[];
  run(args: Record<string, string | number | string[] | undefined>, context: CommandContext): Promise<Card>;
}

/**
 * Declares a command with exact argument types. The returned value is the loose form chats use;
 * the option parser guarantees the record matches the declared options before `run` is called.
 */
export function defineCommand<const O extends readonly OptionSpec[]>(command: Command<O>): AnyCommand {
  return command as unknown as AnyCommand;
}
