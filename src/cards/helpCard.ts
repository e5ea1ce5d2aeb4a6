/**
 * The help card, from the command definitions themselves: every command on one line, or one
 * command's usage, options, help text and example. An unknown name gets the list and a guess at
 * what was meant, never a bare refusal.
 *
 * A command's example is the line of its help text that starts with "Example:", so the example a
 * person reads is the one the tests run.
 */
import { usageOf, type CommandUsage, type OptionSpec } from '../usage';
import { code, field, joinRich, rich, type Card, type CardField } from './card';
import { duration } from '../text/format';

const EXAMPLE_LINE = /^\s*Example:\s*(\/\S.*?)\s*$/im;

/** The example command line of a command's help text, or null when it has none. */
export function exampleOf(command: CommandUsage): string | null {
  return EXAMPLE_LINE.exec(command.help)?.[1] ?? null;
}

/** The help text without its example line, which the card shows on its own. */
function helpWithoutExample(command: CommandUsage): string {
  return command.help
    .replace(EXAMPLE_LINE, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** What values an option takes, in words. */
export function optionKind(option: OptionSpec): string {
  switch (option.type) {
    case 'address':
      return 'an address';
    case 'addresses':
      return option.max === 1 ? 'an address' : `up to ${option.max} addresses, separated by spaces or commas`;
    case 'choice':
      return `one of ${option.choices.map((choice) => choice.value).join(', ')}`;
    case 'number': {
      const what = option.integer ? 'a whole number' : 'a number';
      const unit = option.percent === true ? ', in percent (25 or 25%)' : '';
      if (option.min !== undefined && option.max !== undefined) return `${what} from ${option.min} to ${option.max}${unit}`;
      if (option.min !== undefined) return `${what}, at least ${option.min}${unit}`;
      if (option.max !== undefined) return `${what}, at most ${option.max}${unit}`;
      return `${what}${unit}`;
    }
    case 'duration': {
      const bounds =
        option.minSecs !== undefined && option.maxSecs !== undefined
          ? ` from ${duration(option.minSecs)} to ${duration(option.maxSecs)}`
          : '';
      return `a duration such as 15m, 4h or 1d${bounds}`;
    }
    case 'text':
      return option.quoteNumbers === true ? 'a word, or text in quotes ("500", "dev wallet")' : 'text';
  }
}

function optionLine(option: OptionSpec): string {
  return `${option.name}${option.required ? '' : ' (optional)'}: ${option.description}; ${optionKind(option)}.`;
}

function commandFields(commands: readonly CommandUsage[]): CardField[] {
  return [...commands].sort((a, b) => a.name.localeCompare(b.name)).map((command) => field(usageOf(command), command.description));
}

/** Every command, one line each. */
export function helpListCard(commands: readonly CommandUsage[]): Card {
  return {
    title: 'Commands',
    description: rich('Type a command with its options. ', code('/help command'), ' shows its options and an example.'),
    color: 'info',
    fields: commandFields(commands),
    actions: [],
  };
}

/** One command: usage, what it answers, its options and an example. */
export function commandHelpCard(command: CommandUsage): Card {
  const fields: CardField[] = [field('Usage', code(usageOf(command)))];
  if (command.options.length > 0) fields.push(field('Options', joinRich(command.options.map(optionLine), '\n')));
  const example = exampleOf(command);
  if (example !== null) fields.push(field('Example', code(example)));
  const help = helpWithoutExample(command);
  return {
    title: `/${command.name}`,
    description: rich(command.description, help === '' ? '' : `\n\n${help}`),
    color: 'info',
    fields,
    actions: [],
  };
}

/** Edit distance, to guess a mistyped name. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The command a person probably meant: a prefix of a name, or a name at most two edits away. */
export function closestCommand(commands: readonly CommandUsage[], name: string): CommandUsage | null {
  if (name === '') return null;
  const prefixed = commands.filter((command) => command.name.startsWith(name));
  if (prefixed.length === 1) return prefixed[0] ?? null;
  let best: CommandUsage | null = null;
  let bestDistance = 3;
  for (const command of commands) {
    const d = distance(name, command.name);
    if (d < bestDistance) {
      best = command;
      bestDistance = d;
    }
  }
  return best;
}

/** A name as typed: "/Chart", "chart@SomeBot" and "chart" are the same command. */
function normalizeName(name: string): string {
  return name.trim().replace(/^\/+/, '').replace(/@\w*$/, '').toLowerCase();
}

/** Help for `name`, or the list of every command when no name is given. */
export function helpCard(commands: readonly CommandUsage[], name?: string): Card {
  if (name === undefined || name.trim() === '') return helpListCard(commands);
  const wanted = normalizeName(name);
  const command = commands.find((candidate) => candidate.name === wanted);
  if (command) return commandHelpCard(command);
  // Only a name that could be a command is repeated back; anything else may be markup or a mention.
  const shown = /^[a-z0-9-]{1,32}$/.test(wanted) ? `/${wanted}` : null;
  const guess = closestCommand(commands, wanted);
  return {
    title: shown === null ? 'No such command' : `No command ${shown}`,
    description:
      guess === null
        ? rich('There is no such command. These are the commands there are:')
        : rich('Did you mean ', code(`/${guess.name}`), '? These are the commands there are:'),
    color: 'error',
    fields: commandFields(commands),
    actions: guess === null ? [] : [{ label: `Help ${guess.name}`, command: 'help', args: [guess.name] }],
  };
}
