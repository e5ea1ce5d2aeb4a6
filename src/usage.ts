/**
 * What a command looks like from outside, and how a person is told they typed it wrong. A leaf
 * module with no imports: the command definitions (src/dispatch/), the help and error cards
 * (src/cards/) and every chat read it, so none of them has to import another to share it.
 */

interface OptionBase {
  /** Lower-case, as Discord requires for option names. */
  name: string;
  /** One line of help, at most 100 characters (Discord's limit). */
  description: string;
  required: boolean;
  /**
   * The forms of the command this option belongs to: values of the command's first option, a
   * choice (`/track token …` and `/track wallet …`). Absent: every form. Typed text fills only the
   * options of the form chosen; Discord registers one subcommand per form (docs/delivery.md).
   */
  forms?: readonly string[];
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

/** The parts of a command definition that help and usage text are made of. */
export interface CommandUsage {
  name: string;
  description: string;
  /** Longer help shown by `/help name`: what it answers, with an example. */
  help: string;
  options: readonly OptionSpec[];
}

/** `/name <required> [optional]`, for help and error replies. */
export function usageOf(command: CommandUsage): string {
  const [first, ...rest] = command.options;
  const part = (option: OptionSpec) => (option.required ? `<${option.name}>` : `[${option.name}]`);
  // A command with forms reads best one form at a time: "/track token <address> … or /track wallet <address> …".
  if (first?.type === 'choice' && rest.some((option) => option.forms !== undefined)) {
    return first.choices
      .map((choice) => [`/${command.name}`, choice.value, ...rest.filter((option) => option.forms === undefined || option.forms.includes(choice.value)).map(part)].join(' '))
      .join(' or ');
  }
  return [`/${command.name}`, ...command.options.map(part)].join(' ');
}

/** Input a person can fix: the message says what to type instead. `command` is null when no command was recognised. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command: CommandUsage | null,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}
