/**
 * Copies what a stopped SQLite store holds into an empty PostgreSQL one, in one transaction: the
 * follows, chat settings and paused chats, the last-seen state of every token and wallet, the
 * alerts not yet delivered (with their events), and the action keys not yet expired. Ids are kept
 * (a follow's, an alert's), and the target's id sequences moved past them. A target that holds
 * anything is refused, so nothing is ever mixed into a running bot's data.
 */
import type { PoolClient } from 'pg';
import type { SqliteDatabase } from '../openDatabase';

export interface CopyCounts {
  follows: number;
  chats: number;
  tokenStates: number;
  walletStates: number;
  pendingAlerts: number;
  events: number;
  actionKeys: number;
}

/** The target is not empty: its message is the one line to print. */
export class TargetNotEmptyError extends Error {
  constructor(readonly rows: number) {
    super(`it is not empty (${rows.toLocaleString('en-US')} rows of TokenWatch's tables); copy into an empty database`);
    this.name = 'TargetNotEmptyError';
  }
}

/** Rows per INSERT: arrays of this many values per column, one round trip each. */
const CHUNK = 5_000;

type Value = string | number | boolean | null;

interface TableCopy {
  table: string;
  /** Columns in the target, with their PostgreSQL array types. */
  columns: Array<[name: string, type: string]>;
  /** The rows to copy, one array of values per row, in `columns` order. */
  rows: Value[][];
  /** An identity column whose values are kept (OVERRIDING SYSTEM VALUE), and its sequence moved past them. */
  identity?: string;
}

const TABLES = ['follows', 'chats', 'token_state', 'wallet_state', 'events', 'outbox', 'action_keys'];

async function insertAll(client: PoolClient, copy: TableCopy): Promise<void> {
  const names = copy.columns.map(([name]) => name).join(', ');
  const arrays = copy.columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
  const overriding = copy.identity === undefined ? '' : ' OVERRIDING SYSTEM VALUE';
  const text = `INSERT INTO ${copy.table} (${names})${overriding} SELECT * FROM unnest(${arrays})`;
  for (let first = 0; first < copy.rows.length; first += CHUNK) {
    const chunk = copy.rows.slice(first, first + CHUNK);
    await client.query(text, copy.columns.map((_, column) => chunk.map((row) => row[column] ?? null)));
  }
  if (copy.identity !== undefined) {
    await client.query(`SELECT setval(pg_get_serial_sequence('${copy.table}', '${copy.identity}'), GREATEST((SELECT max(${copy.identity}) FROM ${copy.table}), 1))`);
  }
}

function rows(source: SqliteDatabase, sql: string, ...params: Value[]): Value[][] {
  return source.prepare<Value[], Value[]>(sql).raw(true).all(...params);
}

function asBoolean(value: Value): boolean | null {
  return value === null ? null : Number(value) !== 0;
}

/** Copies `source` into the empty database `target` is connected to; throws TargetNotEmptyError for a database that holds anything. */
export async function copySqliteToPostgres(source: SqliteDatabase, target: PoolClient, nowMs: number): Promise<CopyCounts> {
  // One read transaction on the source: every table as of one moment.
  const read = source.transaction(() => ({
    follows: rows(source, 'SELECT id, platform, chat_id, thread_id, scope_id, kind, address, label, events, min_usd, threshold_pct, side, muted_until, added_by, added_at FROM follows ORDER BY id'),
    chats: rows(source, 'SELECT platform, chat_id, paused_at, pause_reason, detect_addresses FROM chats').map((row): Value[] => [...row.slice(0, 4), asBoolean(row[4] ?? null)]),
    tokenStates: rows(source, 'SELECT address, snapshot, updated_at FROM token_state'),
    walletStates: rows(source, 'SELECT address, snapshot, updated_at FROM wallet_state'),
    events: rows(source, 'SELECT id, key, kind, event, created_at FROM events e WHERE EXISTS (SELECT 1 FROM outbox o WHERE o.event_id = e.id AND o.delivered_at IS NULL) ORDER BY id'),
    outbox: rows(
      source,
      'SELECT id, event_id, platform, chat_id, thread_id, scope_id, label, attempts, created_at, next_attempt_at, last_error FROM outbox WHERE delivered_at IS NULL ORDER BY id',
    ),
    actionKeys: rows(source, 'SELECT key, platform, chat_id, thread_id, command, args, refresh, expires_at FROM action_keys WHERE expires_at > ?', nowMs).map((row): Value[] => [
      ...row.slice(0, 6),
      asBoolean(row[6] ?? null),
      row[7] ?? null,
    ]),
  }));
  const found = read.deferred();

  await target.query('BEGIN');
  try {
    // Nothing else writes to the tables until this transaction ends: the emptiness seen is the emptiness written into.
    await target.query(`LOCK TABLE ${TABLES.join(', ')} IN EXCLUSIVE MODE`);
    const counted = await target.query<{ n: number }>(`SELECT (${TABLES.map((table) => `(SELECT count(*) FROM ${table})`).join(' + ')})::int AS n`);
    const existing = counted.rows[0]?.n ?? 0;
    if (existing > 0) throw new TargetNotEmptyError(existing);
    const text = 'text';
    const bigint = 'bigint';
    await insertAll(target, {
      table: 'follows',
      identity: 'id',
      columns: [
        ['id', bigint],
        ['platform', text],
        ['chat_id', text],
        ['thread_id', text],
        ['scope_id', text],
        ['kind', text],
        ['address', text],
        ['label', text],
        ['events', text],
        ['min_usd', 'double precision'],
        ['threshold_pct', 'double precision'],
        ['side', text],
        ['muted_until', bigint],
        ['added_by', text],
        ['added_at', bigint],
      ],
      rows: found.follows,
    });
    await insertAll(target, {
      table: 'chats',
      columns: [
        ['platform', text],
        ['chat_id', text],
        ['paused_at', bigint],
        ['pause_reason', text],
        ['detect_addresses', 'boolean'],
      ],
      rows: found.chats,
    });
    const state: Array<[string, string]> = [
      ['address', text],
      ['snapshot', text],
      ['updated_at', bigint],
    ];
    await insertAll(target, { table: 'token_state', columns: state, rows: found.tokenStates });
    await insertAll(target, { table: 'wallet_state', columns: state, rows: found.walletStates });
    await insertAll(target, {
      table: 'events',
      identity: 'id',
      columns: [
        ['id', bigint],
        ['key', text],
        ['kind', text],
        ['event', text],
        ['created_at', bigint],
      ],
      rows: found.events,
    });
    await insertAll(target, {
      table: 'outbox',
      identity: 'id',
      columns: [
        ['id', bigint],
        ['event_id', bigint],
        ['platform', text],
        ['chat_id', text],
        ['thread_id', text],
        ['scope_id', text],
        ['label', text],
        ['attempts', 'integer'],
        ['created_at', bigint],
        ['next_attempt_at', bigint],
        ['last_error', text],
      ],
      rows: found.outbox,
    });
    await insertAll(target, {
      table: 'action_keys',
      columns: [
        ['key', text],
        ['platform', text],
        ['chat_id', text],
        ['thread_id', text],
        ['command', text],
        ['args', text],
        ['refresh', 'boolean'],
        ['expires_at', bigint],
      ],
      rows: found.actionKeys,
    });
    await target.query('COMMIT');
  } catch (error) {
    await target.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return {
    follows: found.follows.length,
    chats: found.chats.length,
    tokenStates: found.tokenStates.length,
    walletStates: found.walletStates.length,
    pendingAlerts: found.outbox.length,
    events: found.events.length,
    actionKeys: found.actionKeys.length,
  };
}
