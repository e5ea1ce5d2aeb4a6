/**
 * docs/configuration.md, .env.example and the settings schemas (src/config.ts, and each chat platform's
 * section, src/chats/<name>/settings.ts) name the same
 * variables with the same defaults. The names are taken from the code: every variable the loaders
 * read (seen through an environment that records what is asked of it) and every `process.env.NAME`
 * read anywhere in src/. A default the page writes as one literal value is held to the schema by
 * setting it explicitly: the settings read must be the same as with the variable unset.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDiscordSettings } from '../src/chats/discord/settings';
import { readTelegramSettings } from '../src/chats/telegram/settings';
import { loadConfig } from '../src/config';

const ROOT = process.cwd();
const NAME = /^[A-Z][A-Z0-9_]*$/;

type Env = Record<string, string | undefined>;

/** Chat tokens and a service, so that every part of the settings is read and filled. */
const BASE: Env = {
  TMDS_BASE_URL: 'http://127.0.0.1:9',
  TMDS_API_KEY: 'key',
  TELEGRAM_BOT_TOKEN: '123456:ABC-def',
  DISCORD_TOKEN: 'aaaaaaaaaaaa.bbbbbb.cccccccccccc',
  DISCORD_APP_ID: '123456789012345678',
};

/**
 * Variables whose default the schema leaves unset and a later part applies (the market client's
 * body limits, grammY's API root): setting the documented default gives a different reading of
 * the same behaviour, so they are held only by .env.example and the page.
 */
const APPLIED_ELSEWHERE: Record<string, string> = {
  TMDS_BODY_LIMITS: 'the client keeps its own defaults for endpoints not named (src/market/client.ts)',
  TELEGRAM_API_ROOT: "unset means grammY's own root, the documented address",
  DISCORD_REST_API: "unset means discord.js's own REST base, the documented address",
};

/** The general settings and each built-in platform's section, read from one environment (which is left out: it differs by design). */
function settings(env: Env): unknown {
  const { env: _read, ...config } = loadConfig(env);
  return { config, telegram: readTelegramSettings(loadConfig(env)), discord: readDiscordSettings(env) };
}

/** The variables the loaders ask the environment for. */
function namesTheLoadersRead(): Set<string> {
  const seen = new Set<string>();
  const env = new Proxy<Env>(
    { ...BASE },
    {
      get(target, key) {
        if (typeof key === 'string' && NAME.test(key)) seen.add(key);
        return Reflect.get(target, key) as string | undefined;
      },
    },
  );
  settings(env);
  return seen;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `process.env.NAME` and `process.env['NAME']` anywhere in src/. */
function namesReadFromProcessEnv(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(join(ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\])/g))
      names.add(match[1] ?? match[2] ?? '');
  }
  return names;
}

interface DocRow {
  name: string;
  /** The default when the cell is a single code span (`30`), else null (prose: "unset: …"). */
  literal: string | null;
  cell: string;
}

/** The rows of the page's tables whose first cell is a variable. */
export function docRows(page: string): DocRow[] {
  const rows: DocRow[] = [];
  for (const line of page.split('\n')) {
    const cells = /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|([^|]*)\|/.exec(line);
    if (cells === null) continue;
    const cell = (cells[2] ?? '').trim();
    const literal = /^`([^`]*)`$/.exec(cell);
    rows.push({ name: cells[1] ?? '', literal: literal === null ? null : (literal[1] ?? ''), cell });
  }
  return rows;
}

/** `NAME=value` lines of .env.example, commented out or not. */
export function exampleLines(text: string): Array<{ name: string; value: string }> {
  const lines: Array<{ name: string; value: string }> = [];
  for (const line of text.split('\n')) {
    const match = /^#?\s?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match !== null) lines.push({ name: match[1] ?? '', value: (match[2] ?? '').trim() });
  }
  return lines;
}

/** Whether setting `name` to `value` reads the same settings as leaving it unset. */
function isTheDefault(name: string, value: string): boolean {
  try {
    expect(settings({ ...BASE, [name]: value })).toEqual(settings(BASE));
    return true;
  } catch {
    return false;
  }
}

const page = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
const rows = docRows(page);
const lines = exampleLines(example);
const inCode = new Set([...namesTheLoadersRead(), ...namesReadFromProcessEnv()]);

function duplicates(names: string[]): string[] {
  return names.filter((name, index) => names.indexOf(name) !== index);
}

describe('docs/configuration.md, .env.example and the settings schema', () => {
  it('reads the names from the code', () => {
    // A loader that stopped reading through the given environment would leave this nearly empty.
    expect(inCode.size).toBeGreaterThan(30);
    expect(inCode).toContain('TMDS_BASE_URL');
    expect(inCode).toContain('DISCORD_TOKEN');
  });

  it('lists every variable once on the page, and nothing the code does not read', () => {
    const names = rows.map((row) => row.name);
    expect(duplicates(names), 'listed twice on docs/configuration.md').toEqual([]);
    expect([...inCode].filter((name) => !names.includes(name)).sort(), 'read by the code, missing from docs/configuration.md').toEqual([]);
    expect(names.filter((name) => !inCode.has(name)).sort(), 'on docs/configuration.md, read by no code').toEqual([]);
  });

  it('has every variable once in .env.example, and nothing else', () => {
    const names = lines.map((line) => line.name);
    expect(duplicates(names), 'given twice in .env.example').toEqual([]);
    expect([...inCode].filter((name) => !names.includes(name)).sort(), 'read by the code, missing from .env.example').toEqual([]);
    expect(names.filter((name) => !inCode.has(name)).sort(), 'in .env.example, read by no code').toEqual([]);
  });

  it('gives in .env.example the default the page gives', () => {
    for (const row of rows.filter((each) => each.literal !== null)) {
      const line = lines.find((each) => each.name === row.name);
      expect(line?.value, `${row.name} in .env.example`).toBe(row.literal);
    }
  });

  it('gives the defaults the schema applies', () => {
    const checked = rows.filter((row) => row.literal !== null && !(row.name in APPLIED_ELSEWHERE));
    expect(checked.length).toBeGreaterThan(20);
    for (const row of checked)
      expect(isTheDefault(row.name, row.literal ?? ''), `${row.name}: the page says the default is ${row.cell}`).toBe(true);
  });

  it('would notice a wrong default', () => {
    expect(isTheDefault('TMDS_TOKEN_BATCH_SIZE', '30')).toBe(true);
    expect(isTheDefault('TMDS_TOKEN_BATCH_SIZE', '31')).toBe(false);
    expect(isTheDefault('MAX_STREAM_SHARE_PER_CHAT', '6%')).toBe(false);
    expect(docRows('| `X_Y` | `1` | one |\n| `Z` | unset | two |')).toEqual([
      { name: 'X_Y', literal: '1', cell: '`1`' },
      { name: 'Z', literal: null, cell: 'unset' },
    ]);
  });
});
