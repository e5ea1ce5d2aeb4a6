/**
 * Turns what a person typed into a command's exact arguments, or a UsageError saying what is
 * wrong. Two ways in: named values (Discord's slash options) and a line of text (Telegram and the
 * console: `/holders ADDR share`, or `name=value` for any option).
 */
import { isAddress } from '../market/address';
import { duration, parseDuration } from '../cards/format';
import type { AnyCommand, OptionSpec } from './command';

export type ArgValue = string | number | string[] | undefined;
export type Args = Record<string, ArgValue>;

export class UsageError extends Error {
  constructor(
    message: string,
    readonly command: AnyCommand | null,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** `/name <required> [optional]`, for help and error replies. */
export function usageOf(command: AnyCommand): string {
  const parts = command.options.map((option) => (option.required ? `<${option.name}>` : `[${option.name}]`));
  return [`/${command.name}`, ...parts].join(' ');
}

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

/** Validates named values, as a slash command delivers them, against the command's options. */
export function readOptions(command: AnyCommand, named: Record<string, string | number | undefined>): Args {
  const args: Args = {};
  for (const option of command.options) {
    const raw = named[option.name];
    if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) {
      if (option.required) throw new UsageError(`Missing ${option.name}. Usage: ${usageOf(command)}`, command);
      args[option.name] = undefined;
      continue;
    }
    args[option.name] = readOne(command, option, raw);
  }
  for (const name of Object.keys(named)) {
    if (!command.options.some((option) => option.name === name)) {
      throw new UsageError(`/${command.name} has no option ${shown(name)}. Usage: ${usageOf(command)}`, command);
    }
  }
  return args;
}

export interface ParsedLine {
  command: AnyCommand;
  args: Args;
}

/**
 * Reads `/name arg arg name=value`. A leading slash is optional; `/name@SomeBot` (Telegram's form in
 * groups) is accepted. Positional words fill the options in order; a list option that comes last
 * takes every remaining word. Returns null for a line that is not a command at all.
 */
export function parseCommandLine(line: string, commands: readonly AnyCommand[]): ParsedLine | null {
  const words = line.trim().split(/\s+/).filter(Boolean);
  const head = words.shift();
  if (head === undefined) return null;
  const name = head.replace(/^\//, '').replace(/@\w+$/, '').toLowerCase();
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    if (!head.startsWith('/')) return null;
    throw new UsageError(`Unknown command ${shown(head)}. Try /help.`, null);
  }

  const named: Record<string, string> = {};
  const positional: string[] = [];
  for (const word of words) {
    const match = /^([a-z][a-z0-9-]*)=(.*)$/.exec(word);
    if (match && command.options.some((option) => option.name === match[1])) named[match[1] ?? ''] = match[2] ?? '';
    else positional.push(word);
  }

  const open = command.options.filter((option) => named[option.name] === undefined);
  open.forEach((option, index) => {
    if (positional.length === 0) return;
    const isLast = index === open.length - 1;
    named[option.name] = option.type === 'addresses' && isLast ? positional.splice(0).join(',') : (positional.shift() ?? '');
  });
  if (positional.length > 0) {
    throw new UsageError(`Too many words: ${shown(positional.join(' '))}. Usage: ${usageOf(command)}`, command);
  }
  return { command, args: readOptions(command, named) };
}
