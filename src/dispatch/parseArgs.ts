/**
 * Turns what a person typed into a command's exact arguments, or a UsageError saying what is
 * wrong. Two ways in: named values (Discord's slash options) and a line of text (Telegram and the
 * console: `/holders ADDR share`, or `name=value` for any option).
 */
import { duration } from '../cards/format';
import { parseDuration } from '../duration';
import { isAddress } from '../market/address';
import { usageOf, UsageError, type OptionSpec } from '../usage';
import type { AnyCommand } from './command';

export { usageOf, UsageError };

export type ArgValue = string | number | string[] | undefined;
export type Args = Record<string, ArgValue>;

const MAX_SHOWN = 60;

/** Quotes user input in an error message, shortened so a pasted essay does not come back whole. */
function shown(value: string): string {
  const short = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
  return `"${short}"`;
}

function splitList(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);
}

function readOne(command: AnyCommand, option: OptionSpec, raw: string | number): string | number | string[] {
  const text = String(raw).trim();
  switch (option.type) {
    case 'address':
      if (!isAddress(text)) {
        throw new UsageError(`${shown(text)} is not an address: expected a Solana address (base58, 32–44 characters) or 0x and 40 hex digits.`, command);
      }
      return text;
    case 'addresses': {
      const list = [...new Set(splitList(text))];
      if (list.length === 0) throw new UsageError(`${option.name}: give at least one address.`, command);
      const bad = list.find((item) => !isAddress(item));
      if (bad !== undefined) {
        throw new UsageError(`${shown(bad)} is not an address: expected a Solana address (base58, 32–44 characters) or 0x and 40 hex digits.`, command);
      }
      if (list.length > option.max) throw new UsageError(`${option.name}: at most ${option.max} addresses at a time.`, command);
      return list;
    }
    case 'choice': {
      const wanted = text.toLowerCase();
      const match = option.choices.find((choice) => choice.value.toLowerCase() === wanted || choice.label.toLowerCase() === wanted);
      if (!match) {
        throw new UsageError(`${option.name} must be one of: ${option.choices.map((choice) => choice.value).join(', ')}.`, command);
      }
      return match.value;
    }
    case 'number': {
      const value = typeof raw === 'number' ? raw : Number(text);
      if (!Number.isFinite(value) || text === '' || (option.integer && !Number.isInteger(value))) {
        throw new UsageError(`${option.name} must be ${option.integer ? 'a whole number' : 'a number'}, not ${shown(text)}.`, command);
      }
      if ((option.min !== undefined && value < option.min) || (option.max !== undefined && value > option.max)) {
        throw new UsageError(`${option.name} must be between ${option.min ?? '−∞'} and ${option.max ?? '∞'}.`, command);
      }
      return value;
    }
    case 'duration': {
      const secs = parseDuration(text);
      if (secs === null) throw new UsageError(`${option.name} must be a duration such as 15m, 4h or 1d, not ${shown(text)}.`, command);
      if ((option.minSecs !== undefined && secs < option.minSecs) || (option.maxSecs !== undefined && secs > option.maxSecs)) {
        const limits = [option.minSecs === undefined ? '' : `at least ${duration(option.minSecs)}`, option.maxSecs === undefined ? '' : `at most ${duration(option.maxSecs)}`];
        throw new UsageError(`${option.name} must be ${limits.filter(Boolean).join(' and ')}, not ${shown(text)}.`, command);
      }
      return secs;
    }
    case 'text':
      if (option.maxLength !== undefined && text.length > option.maxLength) {
        throw new UsageError(`${option.name} is too long (at most ${option.maxLength} characters).`, command);
      }
      return text;
  }
}

/** A value as a chat hands it over: Discord's slash options are typed, a line of text is not. */
export type RawValue = string | number | boolean | undefined;

/**
 * The form a command takes, when its first option is a choice that other options' `forms` name:
 * the choice's value as given (by value or label, any case), else undefined.
 */
export function formOf(command: AnyCommand, given: RawValue): string | undefined {
  const first = command.options[0];
  if (first?.type !== 'choice' || given === undefined || !command.options.some((option) => option.forms !== undefined)) return undefined;
  const wanted = String(given).trim().toLowerCase();
  return first.choices.find((choice) => choice.value.toLowerCase() === wanted || choice.label.toLowerCase() === wanted)?.value;
}

/** Whether an option belongs to the form chosen (every option does while no form is known). */
function belongsTo(option: OptionSpec, form: string | undefined): boolean {
  return option.forms === undefined || form === undefined || option.forms.includes(form);
}

function isOptionOf(command: AnyCommand, name: string): boolean {
  for (const option of command.options) if (option.name === name) return true;
  return false;
}

/** Validates named values, as a slash command delivers them, against the command's options. */
export function readOptions(command: AnyCommand, named: Record<string, RawValue>): Args {
  const args: Args = {};
  const form = formOf(command, named[command.options[0]?.name ?? '']);
  for (const option of command.options) {
    const raw = named[option.name];
    if (!belongsTo(option, form)) {
      if (raw !== undefined && !(typeof raw === 'string' && raw.trim() === '')) {
        throw new UsageError(`${option.name} belongs to /${command.name} ${(option.forms ?? []).join(' or ')}, not /${command.name} ${form}. Usage: ${usageOf(command)}`, command);
      }
      args[option.name] = undefined;
      continue;
    }
    if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) {
      if (option.required) throw new UsageError(`Missing ${option.name}. Usage: ${usageOf(command)}`, command);
      args[option.name] = undefined;
      continue;
    }
    args[option.name] = readOne(command, option, typeof raw === 'boolean' ? String(raw) : raw);
  }
  for (const name in named) {
    if (!Object.hasOwn(named, name) || isOptionOf(command, name)) continue;
    throw new UsageError(`/${command.name} has no option ${shown(name)}. Usage: ${usageOf(command)}`, command);
  }
  return args;
}

const ANY_BLANK = /\s/;

/** Whether some option of the command belongs to only some of its forms (see formOf). */
function hasForms(command: AnyCommand): boolean {
  for (const option of command.options) if (option.forms !== undefined) return true;
  return false;
}

export interface ParsedLine {
  command: AnyCommand;
  args: Args;
}

/**
 * Reads the words after a command's name: positional words fill the options in order, and
 * `name=value` sets any option; a list option that comes last takes every remaining word.
 */
export function parseWords(command: AnyCommand, text: string): Args {
  const trimmed = text.trim();
  // One word, no `name=` in it, for a command without forms (`/token ADDR`, most lines typed): it
  // fills the first option, as the general reading below would.
  const first = command.options[0];
  if (first !== undefined && trimmed !== '' && !trimmed.includes('=') && !ANY_BLANK.test(trimmed) && !hasForms(command)) {
    return readOptions(command, { [first.name]: trimmed });
  }
  const words = trimmed.split(/\s+/).filter(Boolean);
  const named: Record<string, string> = {};
  const positional: string[] = [];
  for (const word of words) {
    const match = /^([a-z][a-z0-9-]*)=(.*)$/.exec(word);
    if (match && command.options.some((option) => option.name === match[1])) named[match[1] ?? ''] = match[2] ?? '';
    else positional.push(word);
  }

  // The first option fills first, so a command with forms knows its form before the rest fill.
  if (hasForms(command) && first !== undefined && named[first.name] === undefined && positional.length > 0) named[first.name] = positional.shift() ?? '';
  const form = formOf(command, named[first?.name ?? '']);
  const open = command.options.filter((option) => named[option.name] === undefined && belongsTo(option, form));
  open.forEach((option, index) => {
    if (positional.length === 0) return;
    const isLast = index === open.length - 1;
    named[option.name] = option.type === 'addresses' && isLast ? positional.splice(0).join(',') : (positional.shift() ?? '');
  });
  if (positional.length > 0) {
    throw new UsageError(`Too many words: ${shown(positional.join(' '))}. Usage: ${usageOf(command)}`, command);
  }
  return readOptions(command, named);
}

/** The name in `/name`, `name` or `/name@SomeBot` (Telegram's form in groups), lower-cased. */
export function commandNameOf(head: string): string {
  return head.replace(/^\//, '').replace(/@\w+$/, '').toLowerCase();
}

/**
 * Reads `/name arg arg name=value`. A leading slash is optional; `/name@SomeBot` is accepted.
 * Returns null for a line that is not a command at all.
 */
export function parseCommandLine(line: string, commands: readonly AnyCommand[]): ParsedLine | null {
  const trimmed = line.trim();
  const head = trimmed.split(/\s+/, 1)[0];
  if (head === undefined || head === '') return null;
  const name = commandNameOf(head);
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    if (!head.startsWith('/')) return null;
    throw new UsageError(`Unknown command ${shown(head)}. Try /help.`, null);
  }
  return { command, args: parseWords(command, trimmed.slice(head.length)) };
}

/** Unknown command, with the name as typed shortened and quoted. */
export function unknownCommand(name: string): UsageError {
  return new UsageError(`Unknown command ${shown(`/${name}`)}. Try /help.`, null);
}

/**
 * Parsed arguments written back as words that parseWords reads to the same values, for an action
 * that repeats a command (Refresh): positional while no option is skipped, `name=value` after a
 * gap. Null when a value cannot be written as one word.
 */
export function argWords(command: AnyCommand, args: Args): string[] | null {
  const words: string[] = [];
  let skipped = false;
  for (const option of command.options) {
    const value = args[option.name];
    if (value === undefined) {
      skipped = true;
      continue;
    }
    const text = Array.isArray(value) ? value.join(',') : String(value);
    if (text === '' || /\s/.test(text)) return null;
    words.push(skipped ? `${option.name}=${text}` : text);
  }
  return words;
}
