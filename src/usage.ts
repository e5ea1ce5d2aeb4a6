/**
 * What a command looks like from outside, and how a person is told they typed it wrong (or that
 * a share their chat holds of a budget is spent). A leaf module with no imports: the command
 * definitions (src/dispatch/), the help and error cards (src/cards/) and every chat read it, so
 * none of them has to import another to share it.
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
  /** In percent: typed text may write it with its sign, "25%". */
  percent?: true;
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
  /**
   * In typed text, a bare number is never this text: it is the command's number (`/track wallet
   * ADDR 500` is a minimum, not a label), and a number meant as this text is quoted ("500").
   * Given by name (`label=500`, a slash command's field) it is what it says.
   */
  quoteNumbers?: true;
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
      .map((choice) =>
        [
          `/${command.name}`,
          choice.value,
          ...rest.filter((option) => option.forms === undefined || option.forms.includes(choice.value)).map(part),
        ].join(' '),
      )
      .join(' or ');
  }
  return [`/${command.name}`, ...command.options.map(part)].join(' ');
}

/**
 * Input a person can fix. `problem` says what is wrong in one sentence, which titles the answer
 * ("/track: …"); `advice`, what to type instead. `command` is the command it was typed for: null
 * only while no command was recognised, and the Dispatcher gives the one it ran to an error thrown
 * without one (see withCommand).
 */
export class UsageError extends Error {
  constructor(
    readonly problem: string,
    readonly command: CommandUsage | null,
    readonly advice = '',
  ) {
    const sentence = /[.!?]$/.test(problem) ? problem : `${problem}.`;
    super(advice === '' ? sentence : `${sentence} ${advice}`);
    this.name = 'UsageError';
  }

  /** The same error, about `command` when it names none yet. */
  withCommand(command: CommandUsage): UsageError {
    return this.command === null ? new UsageError(this.problem, command, this.advice) : this;
  }
}

/**
 * A refusal because a budget the bot shares between chats is spent for this chat: its follows, its
 * share of the live streams, its technicals of the minute. Nothing was typed wrong, so the answer
 * is a title and a message of its own, not a usage card; it is still the person's to act on (no
 * error id, counted as a usage refusal).
 */
export class ShareFullError extends UsageError {
  constructor(
    /** The answer's title: whose share is full ("This chat’s share of the live streams is full"). */
    readonly title: string,
    /** What the limit is, and what frees it. */
    readonly explanation: string,
  ) {
    super(title, null, explanation);
    this.name = 'ShareFullError';
  }

  /** The refusal stays as it is: its own words say all, whatever command it came from. */
  override withCommand(): UsageError {
    return this;
  }
}
