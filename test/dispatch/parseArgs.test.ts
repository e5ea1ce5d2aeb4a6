import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/cards/card';
import { defineCommand, type AnyCommand } from '../../src/dispatch/command';
import { parseCommandLine, parseWords, readOptions, UsageError, usageOf } from '../../src/dispatch/parseArgs';
import { checkCommand, loadCommands } from '../../src/dispatch/registry';

const TOKEN = 'So11111111111111111111111111111111111111112';
const WALLET_A = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const WALLET_B = 'DRpbCBMxVnDK7maPM5tGv6MvB3v1sRMC86PZ8okm21hy';
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';

const card = (): Promise<Card> => Promise.resolve({ title: 't', color: 'info', fields: [], actions: [] });

const chart = defineCommand({
  name: 'chart',
  description: 'A chart',
  help: 'chart',
  options: [
    { name: 'token', type: 'address', description: 'Token address', required: true },
    { name: 'interval', type: 'duration', description: 'Candle size', required: false, minSecs: 60, maxSecs: 86_400 },
    { name: 'limit', type: 'number', description: 'How many', required: false, integer: true, min: 1, max: 100 },
  ],
  run: () => card(),
});
const trades = defineCommand({
  name: 'trades',
  description: 'Trades',
  help: 'trades',
  options: [
    { name: 'token', type: 'address', description: 'Token address', required: true },
    { name: 'wallets', type: 'addresses', description: 'Wallets', required: true, max: 2 },
  ],
  run: () => card(),
});
const holders = defineCommand({
  name: 'holders',
  description: 'Holders',
  help: 'holders',
  options: [
    { name: 'token', type: 'address', description: 'Token address', required: true },
    {
      name: 'sort',
      type: 'choice',
      description: 'Order',
      required: false,
      choices: [
        { value: 'holderSince', label: 'oldest' },
        { value: 'balance', label: 'balance' },
      ],
    },
  ],
  run: () => card(),
});
const commands: AnyCommand[] = [chart, trades, holders];

function usageError(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a UsageError');
}

describe('parseCommandLine', () => {
  it('fills options in order and reads each to its exact type', () => {
    expect(parseCommandLine(`/chart ${TOKEN} 15m 20`, commands)?.args).toEqual({ token: TOKEN, interval: 900, limit: 20 });
  });

  it('accepts name=value for any option and leaves missing optional ones undefined', () => {
    expect(parseCommandLine(`/chart ${TOKEN} limit=5`, commands)?.args).toEqual({ token: TOKEN, interval: undefined, limit: 5 });
  });

  it("reads Telegram's /name@Bot form and a line without the slash", () => {
    expect(parseCommandLine(`/chart@TokenWatchBot ${TOKEN}`, commands)?.command.name).toBe('chart');
    expect(parseCommandLine(`chart ${TOKEN}`, commands)?.command.name).toBe('chart');
  });

  it('lets a trailing list option take every remaining word, commas or spaces, without repeats', () => {
    expect(parseCommandLine(`/trades ${TOKEN} ${WALLET_A}, ${WALLET_B} ${WALLET_A}`, commands)?.args.wallets).toEqual([WALLET_A, WALLET_B]);
  });

  it('matches a choice by value or label, ignoring case', () => {
    expect(parseCommandLine(`/holders ${TOKEN} OLDEST`, commands)?.args.sort).toBe('holderSince');
    expect(parseCommandLine(`/holders ${TOKEN} holdersince`, commands)?.args.sort).toBe('holderSince');
  });

  it('returns null for chatter and refuses an unknown slash command', () => {
    expect(parseCommandLine('hello there', commands)).toBeNull();
    expect(parseCommandLine('   ', commands)).toBeNull();
    expect(usageError(() => parseCommandLine('/nope', commands)).message).toContain('/help');
  });

  it.each([
    [`/chart`, 'token is missing'],
    [`/chart not-an-address`, '"not-an-address" is not a Solana address'],
    [`/chart ${TOKEN} soon`, 'duration'],
    [`/chart ${TOKEN} 30s`, 'interval must be at least 1m and at most 1d, not "30s"'],
    [`/chart ${TOKEN} 2d`, 'at most 1d'],
    [`/chart ${TOKEN} 15m 2.5`, 'whole number'],
    [`/chart ${TOKEN} 15m 500`, 'between'],
    [`/chart ${TOKEN} 15m 5 extra`, 'too many words: "extra"'],
    [`/trades ${TOKEN} ${WALLET_A} ${WALLET_B} 9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin`, 'at most 2'],
    [`/trades ${TOKEN} ${WALLET_A},bogus`, '"bogus" is not a Solana address'],
    [`/holders ${TOKEN} newest`, 'sort must be one of holderSince, balance, not "newest"'],
  ])('%s → a usage error saying "%s"', (line, expected) => {
    const error = usageError(() => parseCommandLine(line, commands));
    expect(error.message).toContain(expected);
  });

  it('refuses a 0x address at once: the bot reads Solana tokens and wallets', () => {
    for (const line of [`/chart ${EVM}`, `/trades ${TOKEN} ${WALLET_A},${EVM}`, `/holders ${EVM.toLowerCase()} balance`]) {
      const error = usageError(() => parseCommandLine(line, commands));
      expect(error.problem, line).toMatch(/^"0x[0-9a-fA-F]{40}" is an EVM \(0x\) address$/);
      expect(error.advice, line).toBe('TokenWatch reads Solana tokens and wallets only: base58, 32–44 letters and digits.');
      expect(error.command?.name).toBe(line.slice(1, line.indexOf(' ')));
    }
  });

  it('sends a word to the option it can only be, in any order, and the rest in order', () => {
    const range = defineCommand({
      name: 'span',
      description: 'Two choices that share a value',
      help: 'span',
      options: [
        { name: 'token', type: 'address', description: 'Token', required: true },
        {
          name: 'interval',
          type: 'choice',
          description: 'Candle',
          required: false,
          choices: [
            { value: '1h', label: '1h' },
            { value: '1d', label: '1d' },
          ],
        },
        {
          name: 'range',
          type: 'choice',
          description: 'Range',
          required: false,
          choices: [
            { value: '1h', label: '1h' },
            { value: '7d', label: '7d' },
          ],
        },
      ],
      run: () => card(),
    });
    // A value both options take fills them in order; one only the second takes goes there.
    expect(parseWords(range, `${TOKEN} 1d 1h`)).toEqual({ token: TOKEN, interval: '1d', range: '1h' });
    expect(parseWords(range, `${TOKEN} 1h`)).toEqual({ token: TOKEN, interval: '1h', range: undefined });
    expect(parseWords(range, `${TOKEN} 7d`)).toEqual({ token: TOKEN, interval: undefined, range: '7d' });
    // A word no option takes goes to the next one, whose reading says what is wrong with it.
    expect(usageError(() => parseWords(range, `${TOKEN} 2w`)).problem).toBe('interval must be one of 1h, 1d, not "2w"');
  });

  it('quotes hostile input shortened, never whole', () => {
    const essay = 'x'.repeat(5000);
    expect(usageError(() => parseCommandLine(`/chart ${essay}`, commands)).message.length).toBeLessThan(250);
  });
});

describe('parseWords with one word', () => {
  // One word fills the first option, read at once for commands without forms: the same as naming that option.
  const outcome = (read: () => unknown) => {
    try {
      return { args: read() };
    } catch (error) {
      return { error: error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error) };
    }
  };
  it('reads it as the same word given by name, for every command', async () => {
    const commands = await loadCommands();
    const words = [
      '646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25',
      `0x${'ab'.repeat(20)}`,
      'token',
      'wallet',
      '15m',
      '1h',
      'balance',
      '7',
      'not-an-address',
      'x'.repeat(70),
    ];
    for (const command of commands) {
      const first = command.options[0];
      if (first === undefined) continue;
      for (const word of words) {
        const typed = outcome(() => parseWords(command, ` ${word} `));
        // `/track ADDR` typed is a form left out, answered with the whole line to type (formMissing.ts).
        if ('error' in typed && typed.error?.startsWith('FormMissingError') === true) {
          expect(typed.error, `/${command.name} ${word}`).toContain(`Did you mean /${command.name} `);
          continue;
        }
        expect(typed, `/${command.name} ${word}`).toEqual(outcome(() => parseWords(command, `${first.name}=${word}`)));
      }
    }
  });
});

describe('readOptions', () => {
  it('validates named values as a slash command delivers them', () => {
    expect(readOptions(chart, { token: TOKEN, limit: 3 })).toEqual({ token: TOKEN, interval: undefined, limit: 3 });
    expect(usageError(() => readOptions(chart, { token: TOKEN, colour: 'red' })).message).toContain('no option');
  });

  it('writes usage with required and optional options', () => {
    expect(usageOf(chart)).toBe('/chart <token> [interval] [limit]');
  });
});

describe('checkCommand', () => {
  it('refuses definitions a chat could not register', () => {
    const bad = { ...chart, name: 'Chart!' };
    expect(() => checkCommand(bad, 'chart.ts')).toThrow(/lower-case/);
    const order = { ...chart, options: [chart.options[1]!, chart.options[0]!] };
    expect(() => checkCommand(order, 'chart.ts')).toThrow(/after an optional/);
    expect(() => checkCommand(chart, 'chart.ts')).not.toThrow();
  });
});
