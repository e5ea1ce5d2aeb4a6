/**
 * The rule of both migration chains (src/store/migrations/index.ts), read from their SQL: each
 * migration says whether it expands or contracts the schema, an expand only adds (a table, a
 * nullable or defaulted column, an index: on PostgreSQL built CONCURRENTLY on a table that exists,
 * alone in its migration), a contract only removes. The migrations released before the rule that
 * break it are the ones named here, each saying how; no other may.
 */
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, type Migration } from '../../src/store/migrations/index';
import { PG_MIGRATIONS } from '../../src/store/postgres/migrations/index';
import { runsConcurrently, statementsOf } from '../../src/store/postgres/migrate';

type Chain = 'sqlite' | 'postgres';

/** The migrations released before the rule that break it: frozen, never to grow. */
const BEFORE_THE_RULE: Record<Chain, number[]> = { sqlite: [3], postgres: [2, 5, 8] };

/** Splits at the commas outside parentheses and quotes: an ALTER TABLE's clauses. */
function clauses(text: string): string[] {
  const found: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === "'") quoted = !quoted;
    else if (!quoted && char === '(') depth += 1;
    else if (!quoted && char === ')') depth -= 1;
    else if (!quoted && depth === 0 && char === ',') {
      found.push(text.slice(start, index).trim());
      start = index + 1;
    }
  }
  found.push(text.slice(start).trim());
  return found;
}

/** What in one expand statement is not an addition a running process of the release before survives; null when nothing. */
function notAnAddition(statement: string, chain: Chain, madeHere: Set<string>): string | null {
  const table = /^CREATE TABLE (\w+)/i.exec(statement);
  if (table !== null) {
    if (/^CREATE TABLE IF NOT EXISTS/i.test(statement)) return 'CREATE TABLE IF NOT EXISTS would mix into a table that is not ours';
    madeHere.add((table[1] as string).toLowerCase());
    return null;
  }
  const index = /^CREATE (?:UNIQUE )?INDEX (CONCURRENTLY )?(?:IF NOT EXISTS )?\w+ ON (\w+)/i.exec(statement);
  if (index !== null) {
    if (/CONCURRENTLY/i.test(statement) && chain === 'sqlite') return 'SQLite has no CONCURRENTLY';
    if (chain === 'postgres' && index[1] === undefined && !madeHere.has((index[2] as string).toLowerCase()))
      return `builds an index on ${index[2]} while its writes wait: CREATE INDEX CONCURRENTLY, in a migration of its own`;
    return null;
  }
  const alter = /^ALTER TABLE (\w+) (.*)$/i.exec(statement);
  if (alter === null) return `neither a table, a column nor an index added: ${statement.slice(0, 80)}`;
  for (const clause of clauses(alter[2] as string)) {
    const column = /^ADD COLUMN (\w+) (.*)$/i.exec(clause);
    if (column === null) return `not a column added: ${clause.slice(0, 80)}`;
    const definition = column[2] as string;
    if (/\bNOT NULL\b/i.test(definition) && !/\bDEFAULT\b/i.test(definition))
      return `column ${column[1]} is NOT NULL without a default: the release before inserts rows without it`;
    if (/\b(UNIQUE|PRIMARY KEY)\b/i.test(definition)) return `column ${column[1]} brings a unique index, built while writes wait`;
  }
  return null;
}

/** What in one contract statement is not a removal; null when nothing. */
function notARemoval(statement: string, chain: Chain): string | null {
  if (/^DROP TABLE \w+$/i.test(statement)) return null;
  if (/^DROP INDEX (CONCURRENTLY )?(IF EXISTS )?\w+$/i.test(statement)) {
    const concurrently = /CONCURRENTLY/i.test(statement);
    if (chain === 'sqlite' && concurrently) return 'SQLite has no CONCURRENTLY';
    if (chain === 'postgres' && !concurrently) return 'drops an index while its table waits: DROP INDEX CONCURRENTLY';
    return null;
  }
  const alter = /^ALTER TABLE (\w+) (.*)$/i.exec(statement);
  if (alter !== null && clauses(alter[2] as string).every((clause) => /^DROP COLUMN \w+$/i.test(clause))) return null;
  return `neither a table, a column nor an index removed: ${statement.slice(0, 80)}`;
}

/** Every way the migration breaks the rule of its kind. */
function breaches(migration: Migration, chain: Chain): string[] {
  const madeHere = new Set<string>();
  const found = statementsOf(migration.sql)
    .map((statement) => (migration.kind === 'expand' ? notAnAddition(statement, chain, madeHere) : notARemoval(statement, chain)))
    .filter((breach): breach is string => breach !== null);
  if (chain === 'postgres') {
    try {
      runsConcurrently(migration);
    } catch (error) {
      found.push((error as Error).message);
    }
  }
  return found;
}

const CHAINS: Array<[Chain, readonly Migration[]]> = [
  ['sqlite', MIGRATIONS],
  ['postgres', PG_MIGRATIONS],
];

describe('the migration chains', () => {
  for (const [chain, migrations] of CHAINS) {
    it(`${chain}: numbered from 1 in order, each an expand or a contract that keeps its kind's rule`, () => {
      expect(migrations.map((migration) => migration.version)).toEqual(migrations.map((_, index) => index + 1));
      for (const migration of migrations) {
        expect(['expand', 'contract'], `${chain} ${migration.version} says its kind`).toContain(migration.kind);
        const found = breaches(migration, chain);
        if (BEFORE_THE_RULE[chain].includes(migration.version)) {
          // Released before the rule: it says how it breaks it, and it does.
          expect(migration.beforeTheRule, `${chain} ${migration.version} says how it breaks the rule`).toMatch(/\w/);
          expect(found.length, `${chain} ${migration.version} breaks the rule it says it breaks`).toBeGreaterThan(0);
        } else {
          expect(migration.beforeTheRule, `${chain} ${migration.version}: only a migration released before the rule may`).toBeUndefined();
          expect(found, `${chain} ${migration.version} (${migration.name})`).toEqual([]);
        }
      }
    });
  }

  it('tells what a running process of the release before would not survive', () => {
    const expand = (sql: string): Migration => ({ version: 1, name: 'x', kind: 'expand', sql });
    const contract = (sql: string): Migration => ({ version: 1, name: 'x', kind: 'contract', sql });
    expect(breaches(expand('CREATE TABLE t (a int); CREATE INDEX t_a ON t (a)'), 'postgres')).toEqual([]);
    expect(
      breaches(expand('ALTER TABLE chats ADD COLUMN a text, ADD COLUMN b int NOT NULL DEFAULT 0 CHECK (b IN (0, 1))'), 'postgres'),
    ).toEqual([]);
    expect(breaches(expand('CREATE INDEX CONCURRENTLY outbox_x ON outbox (chat_id)'), 'postgres')).toEqual([]);
    expect(breaches(expand('CREATE INDEX outbox_x ON outbox (chat_id)'), 'sqlite')).toEqual([]);
    expect(breaches(contract('DROP INDEX CONCURRENTLY outbox_x'), 'postgres')).toEqual([]);
    expect(breaches(contract('ALTER TABLE chats DROP COLUMN a, DROP COLUMN b; DROP TABLE calls'), 'postgres')).toEqual([]);
    for (const sql of [
      'ALTER TABLE chats RENAME COLUMN a TO b',
      'ALTER TABLE chats ADD COLUMN a text NOT NULL',
      'ALTER TABLE chats ALTER COLUMN a TYPE bigint',
      'ALTER TABLE follows ADD CONSTRAINT one UNIQUE (a)',
      'CREATE INDEX outbox_x ON outbox (chat_id)',
      'UPDATE chats SET a = 1',
      'DROP TABLE chats',
      'CREATE INDEX CONCURRENTLY outbox_x ON outbox (chat_id); ALTER TABLE chats ADD COLUMN a text',
    ])
      expect(breaches(expand(sql), 'postgres'), sql).not.toEqual([]);
    for (const sql of ['DROP INDEX outbox_x', 'ALTER TABLE chats ADD COLUMN a text', 'ALTER TABLE chats RENAME TO talks'])
      expect(breaches(contract(sql), 'postgres'), sql).not.toEqual([]);
  });
});
