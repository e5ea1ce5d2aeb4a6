/**
 * Turns what a person typed into a command's exact arguments, or a UsageError saying what is
 * wrong. Two ways in: named values (Discord's slash options) and a line of text (Telegram and the
 * console: `/holders ADDR share`, or `name=value` for any option).
 *
 * A line is read the way people type it: each word goes to the option it can only be, in any
 * order (`/track wallet ADDR sell 500 dev`: `sell` is the side, `500` the minimum, `dev` the
 * label), and otherwise to the next option in order. Quotes keep a word as text ("500" is a label,
 * "dev wallet" one label of two words).
 */
import { duration } from '../text/format';
import { parseDuration } from '../duration';
import { addressRefusal } from '../market/address';
import { addressOf, readAddressInput } from '../market/addressInput';
import { truncateText } from '../text/sanitize';
import { closestCommand } from '../cards/helpCard';
import { usageOf, UsageError, type CommandUsage, type OptionSpec } from '../usage';
import type { AnyCommand } from './command';
import { FormMissingError } from './formMissing';

export { usageOf, UsageError };

export type ArgValue = string | number | string[] | undefined;
export type Args = Record<string, ArgValue>;

const MAX_SHOWN = 60;

/**
 * Quotes user input in an error message, shortened so a pasted essay does not come back whole; cut
 * between graphemes with an ellipsis, so what comes back never looks damaged.
 */
export function shown(value: string): string {
  return `"${truncateText(value, MAX_SHOWN + 1)}"`;
}

function splitList(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);
}

/** A plain decimal number, as people write one: no exponent, no hex, no blanks. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** The number in `text` for this option ("25%" for a percent), or null when it is none. */
function numberIn(option: Extract<OptionSpec, { type: 'number' }>, text: string): number | null {
  const digits = option.percent === true && text.endsWith('%') ? text.slice(0, -1).trimEnd() : text;
  return DECIMAL.test(digits) ? Number(digits) : null;
}

/**
 * The address in what was typed for an address option: the address itself or a link that carries
 * one (src/market/addressInput.ts); a UsageError saying why when there is none the service reads.
 */
function readAddress(command: AnyCommand, text: string): string {
  const input = readAddressInput(text);
  if (input.kind === 'link-without-address') {
    throw new UsageError(
      `${shown(text)} is a link with no address in it`,
      command,
      'Paste the token’s or wallet’s address, or a link that holds it (DEX Screener, Birdeye, pump.fun, Solscan, …).',
    );
  }
  const address = input.kind === 'address' ? input.address : text;
  const refusal = addressRefusal(address, shown(address));
  if (refusal !== null) throw new UsageError(refusal.problem, command, refusal.advice);
  return address;
}

function readOne(command: AnyCommand, option: OptionSpec, raw: string | number): string | number | string[] {
  const text = String(raw).trim();
  switch (option.type) {
    case 'address':
      return readAddress(command, text);
    case 'addresses': {
      const list = [...new Set(splitList(text).map((item) => readAddress(command, item)))];
      if (list.length === 0) throw new UsageError(`${option.name} holds no address`, command);
      if (list.length > option.max) throw new UsageError(`${option.name}: at most ${option.max} addresses at a time`, command);
      return list;
    }
    case 'choice': {
      const wanted = text.toLowerCase();
      const match = option.choices.find((choice) => choice.value.toLowerCase() === wanted || choice.label.toLowerCase() === wanted);
      if (!match) {
        throw new UsageError(
          `${option.name} must be one of ${option.choices.map((choice) => choice.value).join(', ')}, not ${shown(text)}`,
          command,
        );
      }
      return match.value;
    }
    case 'number': {
      const value = typeof raw === 'number' ? raw : numberIn(option, text);
      if (value === null || !Number.isFinite(value) || (option.integer && !Number.isInteger(value))) {
        throw new UsageError(`${option.name} must be ${option.integer ? 'a whole number' : 'a number'}, not ${shown(text)}`, command);
      }
      if ((option.min !== undefined && value < option.min) || (option.max !== undefined && value > option.max)) {
        throw new UsageError(`${option.name} must be between ${option.min ?? '−∞'} and ${option.max ?? '∞'}, not ${shown(text)}`, command);
      }
      return value;
    }
    case 'duration': {
      const secs = parseDuration(text);
      if (secs === null) throw new UsageError(`${option.name} must be a duration such as 15m, 4h or 1d, not ${shown(text)}`, command);
      if ((option.minSecs !== undefined && secs < option.minSecs) || (option.maxSecs !== undefined && secs > option.maxSecs)) {
        const limits = [
          option.minSecs === undefined ? '' : `at least ${duration(option.minSecs)}`,
          option.maxSecs === undefined ? '' : `at most ${duration(option.maxSecs)}`,
        ];
        throw new UsageError(`${option.name} must be ${limits.filter(Boolean).join(' and ')}, not ${shown(text)}`, command);
      }
      return secs;
    }
    case 'text':
      if (option.maxLength !== undefined && text.length > option.maxLength) {
        throw new UsageError(`${option.name} is too long (at most ${option.maxLength} characters)`, command);
      }
      return text;
  }
}

/** A value as a chat hands it over: Discord's slash options are typed, a line of text is not. */
export type RawValue = string | number | boolean | undefined;

/**
 * The form a command takes, when its first option is a choice that other options' `forms` name:
 * the choice's value as given (by value or label, in whatever case), else undefined.
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
        throw new UsageError(
          `${option.name} belongs to /${command.name} ${(option.forms ?? []).join(' or ')}, not /${command.name} ${form}`,
          command,
        );
      }
      args[option.name] = undefined;
      continue;
    }
    if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) {
      if (option.required) throw new UsageError(`${option.name} is missing`, command);
      args[option.name] = undefined;
      continue;
    }
    args[option.name] = readOne(command, option, typeof raw === 'boolean' ? String(raw) : raw);
  }
  for (const name in named) {
    if (!Object.hasOwn(named, name) || isOptionOf(command, name)) continue;
    throw new UsageError(`there is no option ${shown(name)}`, command);
  }
  return args;
}

const ANY_BLANK = /\s/;
const QUOTES = '"“”„';

/** Whether some option of the command belongs to only some of its forms (see formOf). */
function hasForms(command: AnyCommand): boolean {
  for (const option of command.options) if (option.forms !== undefined) return true;
  return false;
}

export interface ParsedLine {
  command: AnyCommand;
  args: Args;
}

/** A word as typed: `quoted` when it was written in quotes, which makes it text whatever it holds. */
interface Word {
  text: string;
  quoted: boolean;
}

/**
 * The words of a line: blanks separate them, except inside quotes (straight or typographic), whose
 * text is kept without them. A quote left open runs to the end of the line.
 */
function wordsOf(line: string): Word[] {
  const words: Word[] = [];
  let index = 0;
  while (index < line.length) {
    while (index < line.length && ANY_BLANK.test(line[index] ?? '')) index += 1;
    if (index >= line.length) break;
    let text = '';
    let quoted = false;
    while (index < line.length && !ANY_BLANK.test(line[index] ?? '')) {
      const char = line[index] ?? '';
      if (!QUOTES.includes(char)) {
        text += char;
        index += 1;
        continue;
      }
      // Only a word quoted from its start is text whatever it holds; `label="dev wallet"` is still a name and a value.
      if (text === '') quoted = true;
      let close = index + 1;
      while (close < line.length && !QUOTES.includes(line[close] ?? '')) close += 1;
      text += line.slice(index + 1, close);
      index = close + 1;
    }
    words.push({ text, quoted });
  }
  return words;
}

/** Whether a word typed in a line could be this option's value: what sends it there out of order. */
function fits(option: OptionSpec, word: Word): boolean {
  if (word.quoted) return option.type === 'text';
  switch (option.type) {
    case 'address':
    case 'addresses':
      return addressOf(word.text) !== null;
    case 'choice':
      return option.choices.some(
        (choice) => choice.value.toLowerCase() === word.text.toLowerCase() || choice.label.toLowerCase() === word.text.toLowerCase(),
      );
    case 'number':
      return numberIn(option, word.text) !== null;
    case 'duration':
      return parseDuration(word.text) !== null;
    case 'text':
      return !(option.quoteNumbers === true && DECIMAL.test(word.text));
  }
}

/**
 * The option a word goes to, among those still open (in the command's order): the first whose
 * values it can only be (an address, a choice, a number, a duration), else the first text option
 * that takes it, else the next open option, whose reading then says what is wrong with it.
 */
function optionFor(open: readonly OptionSpec[], word: Word): OptionSpec | undefined {
  return (
    open.find((option) => option.type !== 'text' && fits(option, word)) ??
    open.find((option) => option.type === 'text' && fits(option, word)) ??
    open[0]
  );
}

/**
 * Reads the words after a command's name: each positional word goes to its option (optionFor),
 * and `name=value` sets any option; a list option that is the last one open takes every
 * remaining word.
 */
export function parseWords(command: AnyCommand, text: string): Args {
  const trimmed = text.trim();
  // One word, no `name=` and no quote in it, for a command without forms (`/token ADDR`, most lines
  // typed): it fills the first option, as the general reading below would.
  const first = command.options[0];
  if (
    first !== undefined &&
    trimmed !== '' &&
    !trimmed.includes('=') &&
    !ANY_BLANK.test(trimmed) &&
    ![...QUOTES].some((quote) => trimmed.includes(quote)) &&
    !hasForms(command)
  ) {
    return readOptions(command, { [first.name]: trimmed });
  }
  const named: Record<string, string> = {};
  const positional: Word[] = [];
  for (const word of wordsOf(trimmed)) {
    const match = word.quoted ? null : /^([a-z][a-z0-9-]*)=(.*)$/s.exec(word.text);
    if (match && command.options.some((option) => option.name === match[1])) named[match[1] ?? ''] = match[2] ?? '';
    else positional.push(word);
  }

  // The first option fills first, so a command with forms knows its form before the rest fill.
  if (hasForms(command) && first !== undefined && named[first.name] === undefined && positional.length > 0) {
    const head = positional.shift()?.text ?? '';
    // `/track ADDR`: the form was left out, and the address is all there is to go on. The Dispatcher
    // asks the service which form the address is (FormMissingError) and suggests the whole line.
    const address = formOf(command, head) === undefined ? addressOf(head) : null;
    if (address !== null)
      throw new FormMissingError(
        command,
        address,
        positional.map((word) => word.text),
      );
    named[first.name] = head;
  }
  const form = formOf(command, named[first?.name ?? '']);
  const open = command.options.filter((option) => named[option.name] === undefined && belongsTo(option, form));
  while (positional.length > 0 && open.length > 0) {
    const word = positional[0] as Word;
    const option = optionFor(open, word) as OptionSpec;
    open.splice(open.indexOf(option), 1);
    if (option.type === 'addresses' && open.length === 0) {
      named[option.name] = positional
        .splice(0)
        .map((item) => item.text)
        .join(',');
      break;
    }
    positional.shift();
    if (option.type === 'text' && option.quoteNumbers === true && !word.quoted && DECIMAL.test(word.text)) {
      throw new UsageError(
        `${option.name} cannot be the bare number ${shown(word.text)}`,
        command,
        `A number here is read as another option; a ${option.name} that is a number goes in quotes: ${shown(word.text)}.`,
      );
    }
    named[option.name] = word.text;
  }
  if (positional.length > 0) {
    throw new UsageError(`too many words: ${shown(positional.map((word) => word.text).join(' '))}`, command);
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
    throw unknownCommand(commandNameOf(head), commands);
  }
  return { command, args: parseWords(command, trimmed.slice(head.length)) };
}

/**
 * Unknown command, with the name as typed shortened and quoted, and the command it is nearest
 * to, as `/help name` finds it (closestCommand), when there is one.
 */
export function unknownCommand(name: string, commands: readonly CommandUsage[]): UsageError {
  const guess = closestCommand(commands, name);
  const advice =
    guess === null ? 'Try /help for the commands there are.' : `Did you mean /${guess.name}? Try /help ${guess.name} for how to use it.`;
  return new UsageError(`Unknown command ${shown(`/${name}`)}`, null, advice);
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
