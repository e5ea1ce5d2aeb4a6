/**
 * Every form of /track that the README, the docs and /help show, read by the real command
 * definition as a chat hands it over: each form found there must be in the table below (so no
 * page can show a form no test reads), and each line of the table must read as it says.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnyCommand } from '../../src/dispatch/command';
import { parseCommandLine, type Args } from '../../src/dispatch/parseArgs';
import { loadCommands } from '../../src/dispatch/registry';
import { kindsOfFamily } from '../../src/alerts/registry';
import { UsageError, usageOf } from '../../src/usage';

const ROOT = join(__dirname, '..', '..');
const ADDR = '646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25';
const BASE58 = /\b[1-9A-HJ-NP-Za-km-z]{32,44}\b/g;

/** A line's options, with the form and address left out: what each form means. */
type Wanted = Record<string, string | number | undefined>;
const TOKEN_NONE: Wanted = { events: undefined, threshold: undefined, direction: undefined };
const WALLET_NONE: Wanted = { label: undefined, minusd: undefined, side: undefined };

/**
 * Forms as the pages write them (any address written as ADDR) → a line to run and what it means.
 * Placeholders (`[threshold%]`) are run with a value.
 */
const FORMS: Record<string, { line: string; wanted: Wanted }> = {
  '/track token ADDR': { line: '/track token ADDR', wanted: TOKEN_NONE },
  '/track token ADDR all': { line: '/track token ADDR all', wanted: { events: 'all', threshold: undefined, direction: undefined } },
  '/track token ADDR risk,price 25': { line: '/track token ADDR risk,price 25', wanted: { events: 'risk,price', threshold: 25 } },
  '/track token ADDR price 25': { line: '/track token ADDR price 25', wanted: { events: 'price', threshold: 25 } },
  '/track token ADDR 25': { line: '/track token ADDR 25', wanted: { events: undefined, threshold: 25 } },
  '/track token ADDR 25%': { line: '/track token ADDR 25%', wanted: { events: undefined, threshold: 25 } },
  '/track token ADDR [threshold%]': { line: '/track token ADDR 25%', wanted: { events: undefined, threshold: 25 } },
  '/track token ADDR 25 price': { line: '/track token ADDR 25 price', wanted: { events: 'price', threshold: 25 } },
  '/track token ADDR risk,price 25 down': {
    line: '/track token ADDR risk,price 25 down',
    wanted: { events: 'risk,price', threshold: 25, direction: 'down' },
  },
  '/track token ADDR up 25': { line: '/track token ADDR up 25', wanted: { events: undefined, threshold: 25, direction: 'up' } },
  '/track wallet ADDR': { line: '/track wallet ADDR', wanted: WALLET_NONE },
  '/track wallet ADDR dev 500 sell': { line: '/track wallet ADDR dev 500 sell', wanted: { label: 'dev', minusd: 500, side: 'sell' } },
  '/track wallet ADDR whale 500 buy': { line: '/track wallet ADDR whale 500 buy', wanted: { label: 'whale', minusd: 500, side: 'buy' } },
  '/track wallet ADDR 500': { line: '/track wallet ADDR 500', wanted: { label: undefined, minusd: 500, side: undefined } },
  '/track wallet ADDR "500"': { line: '/track wallet ADDR "500"', wanted: { label: '500', minusd: undefined, side: undefined } },
  '/track wallet ADDR sell 500 dev': { line: '/track wallet ADDR sell 500 dev', wanted: { label: 'dev', minusd: 500, side: 'sell' } },
  '/track wallet ADDR buy': { line: '/track wallet ADDR buy', wanted: { label: undefined, minusd: undefined, side: 'buy' } },
  '/track wallet ADDR "dev wallet" 500 both': {
    line: '/track wallet ADDR "dev wallet" 500 both',
    wanted: { label: 'dev wallet', minusd: 500, side: 'both' },
  },
};

/** Forms the pages show as refused → the problem the refusal names. */
const REFUSED: Record<string, string> = {
  '/track wallet ADDR 500 600': 'label cannot be the bare number "600"',
};

/** The pages that show /track forms, and the command's own help. */
function pages(track: AnyCommand): Array<[string, string]> {
  const read = (path: string): [string, string] => [path, readFileSync(join(ROOT, path), 'utf8')];
  return [read('README.md'), read('docs/commands.md'), read('docs/delivery.md'), read('docs/pipeline.md'), ['/help track', track.help]];
}

/**
 * The /track lines a page shows with an address (a real one, ADDR or <address>): the words after
 * the form up to the end of the code span, the line, or a word closing a sentence ("[threshold]:").
 */
function formsIn(text: string): string[] {
  const forms: string[] = [];
  for (const match of text.matchAll(/\/track (?:token|wallet) (?:<address>|ADDR(?:ESS)?\b|[1-9A-HJ-NP-Za-km-z]{32,44})[^`|\n]*/g)) {
    const words: string[] = [];
    for (const word of match[0].trim().split(/\s+/)) {
      const closes = /[:.),;]$/.test(word) && !/^"/.test(word);
      words.push(closes ? word.slice(0, -1) : word);
      if (closes) break;
    }
    forms.push(
      words
        .join(' ')
        .replace(BASE58, 'ADDR')
        .replace(/\bADDRESS\b/, 'ADDR'),
    );
  }
  return forms;
}

function read(line: string, commands: readonly AnyCommand[]): Args {
  const parsed = parseCommandLine(line.replace('ADDR', ADDR), commands);
  if (parsed === null) throw new Error(`not a command: ${line}`);
  return parsed.args;
}

describe('/track as the README, the docs and /help write it', async () => {
  const commands = await loadCommands();
  const track = commands.find((command) => command.name === 'track');
  if (track === undefined) throw new Error('no /track');
  const shown = pages(track).flatMap(([page, text]) => formsIn(text).map((form) => [page, form] as const));

  it('finds the forms the pages show', () => {
    // The usage lines, the help's examples and the README's own examples at least.
    expect(shown.length).toBeGreaterThanOrEqual(8);
  });

  it('shows the usage as the command has it', () => {
    const usage = usageOf(track).split(' or ');
    for (const [page, form] of shown.filter(([, form]) => form.includes('<address>'))) expect(usage, `${page}: ${form}`).toContain(form);
  });

  it('has every concrete form in the tables of forms read below', () => {
    for (const [page, form] of shown.filter(([, form]) => !form.includes('<address>')))
      expect([...Object.keys(FORMS), ...Object.keys(REFUSED)], `${page}: ${form}`).toContain(form);
  });

  it.each(Object.entries(FORMS))('%s reads as it means', (_form, { line, wanted }) => {
    const args = read(line, commands);
    expect(args.kind).toBe(line.split(' ')[1]);
    expect(args.address).toBe(ADDR);
    const { kind: _kind, address: _address, ...rest } = args;
    expect(Object.fromEntries(Object.entries(rest).filter(([name]) => name in wanted))).toEqual(wanted);
  });

  it('never reads a bare number as a label, and says how to write one', () => {
    const refusals: Array<[string, string]> = [
      ...Object.entries(REFUSED),
      ['/track wallet ADDR 500 sell 600', 'label cannot be the bare number "600"'],
    ];
    for (const [line, problem] of refusals) {
      let refused: unknown = null;
      try {
        read(line, commands);
      } catch (error) {
        refused = error;
      }
      expect(refused, line).toBeInstanceOf(UsageError);
      expect((refused as UsageError).problem).toBe(problem);
      expect((refused as UsageError).advice).toContain('"600"');
    }
    expect(read('/track wallet ADDR label=600', commands).label).toBe('600');
  });
});

describe('the events words docs/commands.md lists', () => {
  const row = readFileSync(join(ROOT, 'docs/commands.md'), 'utf8').match(/`events`: any of ([^(]*)\(/)?.[1] ?? '';
  const listed = [...row.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
  const kinds = kindsOfFamily('token');
  const meant = (word: string) => kinds.filter((kind) => kind.words.includes(word) || kind.groups.includes(word)).map((kind) => kind.name);

  it('are words the registry gives a token kind', () => {
    expect(listed.length).toBeGreaterThan(0);
    for (const word of listed) expect(meant(word), word).not.toEqual([]);
  });

  it('name every token kind the registry holds', () => {
    expect(new Set(listed.flatMap(meant))).toEqual(new Set(kinds.map((kind) => kind.name)));
  });
});
