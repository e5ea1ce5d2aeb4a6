/**
 * Copies what a stopped SQLite store holds into an empty PostgreSQL one, in one transaction: the
 * follows, chat settings (quiet hours and hourly budget among them) and paused chats, the market the
 * store belongs to, the last-seen state of every token and wallet, the alerts (with their events, and
 * why a row was held), and the action keys not yet expired.
 * The alerts already delivered come too: their event keys are what says a day's watchlist or a
 * target was already told, so without them the first start on PostgreSQL would send them again.
 * Every column
 * the two schemas share (read from both, so a column a later migration adds to both is copied with
 * no change here). Ids are kept (a follow's, an alert's), and the target's id sequences moved past
 * them. A target that holds anything is refused, so nothing is ever mixed into a running bot's data.
 */
import type { PoolClient } from 'pg';
import type { SqliteDatabase } from '../openDatabase';
import { unbounded } from './pgDatabase';

export interface CopyCounts {
  follows: number;
  chats: number;
  tokenStates: number;
  walletStates: number;
  pendingAlerts: number;
  /** Alerts delivered, kept as the record of what was sent (see above). */
  sentAlerts: number;
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

/**
 * What is copied of each table, in this order (an outbox row needs its event): the rows SQLite
 * gives for `where` (none: all), and the identity column whose values are kept.
 */
const TABLES: ReadonlyArray<{ table: string; where?: string; order?: string; identity?: string }> = [
  { table: 'follows', order: 'id', identity: 'id' },
  { table: 'chats' },
  { table: 'token_state' },
  { table: 'wallet_state' },
  { table: 'store_market' },
  { table: 'events', order: 'id', identity: 'id' },
  { table: 'outbox', order: 'id', identity: 'id' },
  { table: 'action_keys', where: 'expires_at > @now' },
  { table: 'call_chats' },
  { table: 'calls', order: 'id', identity: 'id' },
];

/**
 * The columns both databases have, with PostgreSQL's type of each: read from both schemas, so that
 * a column a later migration adds to both is copied without a change here.
 */
async function sharedColumns(source: SqliteDatabase, target: PoolClient, table: string): Promise<Array<[name: string, type: string]>> {
  const inSqlite = new Set(
    source
      .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
      .all()
      .map((row) => row.name),
  );
  const { rows } = await target.query<{ column_name: string; data_type: string }>(
    'SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ' +
      'ORDER BY ordinal_position',
    [table],
  );
  return rows.filter((row) => inSqlite.has(row.column_name)).map((row) => [row.column_name, row.data_type]);
}

/** SQLite keeps booleans as 0 and 1. */
function asBoolean(value: Value): boolean | null {
  return value === null ? null : Number(value) !== 0;
}

async function insertAll(
  client: PoolClient,
  table: string,
  columns: ReadonlyArray<[string, string]>,
  rows: readonly Value[][],
  identity: string | undefined,
): Promise<void> {
  const names = columns.map(([name]) => name).join(', ');
  const arrays = columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
  const overriding = identity === undefined ? '' : ' OVERRIDING SYSTEM VALUE';
  const text = `INSERT INTO ${table} (${names})${overriding} SELECT * FROM unnest(${arrays})`;
  for (let first = 0; first < rows.length; first += CHUNK) {
    const chunk = rows.slice(first, first + CHUNK);
    await client.query(
      unbounded(
        text,
        columns.map(([, type], column) =>
          chunk.map((row) => (type === 'boolean' ? asBoolean(row[column] ?? null) : (row[column] ?? null))),
        ),
      ),
    );
  }
  if (identity !== undefined) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence('${table}', '${identity}'), GREATEST((SELECT max(${identity}) FROM ${table}), 1))`,
    );
  }
}

/** Copies `source` into the empty database `target` is connected to; throws TargetNotEmptyError for a database that holds anything. */
export async function copySqliteToPostgres(source: SqliteDatabase, target: PoolClient, nowMs: number): Promise<CopyCounts> {
  const columns = new Map<string, Array<[string, string]>>();
  for (const { table } of TABLES) columns.set(table, await sharedColumns(source, target, table));
  // One read transaction on the source: every table as of one moment.
  const read = source.transaction(() => {
    const found = new Map<string, Value[][]>();
    for (const { table, where, order } of TABLES) {
      const names = (columns.get(table) ?? []).map(([name]) => name).join(', ');
      const sql =
        `SELECT ${names} ` +
        `FROM ${table}${where === undefined ? '' : ` WHERE ${where}`}${order === undefined ? '' : ` ORDER BY ${order}`}`;
      const statement = source.prepare<Record<string, number>, Value[]>(sql).raw(true);
      found.set(table, where?.includes('@now') === true ? statement.all({ now: nowMs }) : statement.all({}));
    }
    const pending = source.prepare<[], { n: number }>('SELECT count(*) AS n FROM outbox WHERE delivered_at IS NULL').get()?.n ?? 0;
    return { found, pending };
  });
  const { found, pending } = read.deferred();
  const count = (table: string) => found.get(table)?.length ?? 0;

  await target.query('BEGIN');
  try {
    // A copy of a large store may take longer than a bot's statement may.
    await target.query('SET LOCAL statement_timeout = 0');
    // Nothing else writes to the tables until this transaction ends: the emptiness seen is the emptiness written into.
    await target.query(unbounded(`LOCK TABLE ${TABLES.map(({ table }) => table).join(', ')} IN EXCLUSIVE MODE`));
    const counted = await target.query<{ n: number }>(
      `SELECT (${TABLES.map(({ table }) => `(SELECT count(*) FROM ${table})`).join(' + ')})::int AS n`,
    );
    const existing = counted.rows[0]?.n ?? 0;
    if (existing > 0) throw new TargetNotEmptyError(existing);
    for (const { table, identity } of TABLES) await insertAll(target, table, columns.get(table) ?? [], found.get(table) ?? [], identity);
    await target.query('COMMIT');
  } catch (error) {
    await target.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return {
    follows: count('follows'),
    chats: count('chats'),
    tokenStates: count('token_state'),
    walletStates: count('wallet_state'),
    pendingAlerts: pending,
    sentAlerts: count('outbox') - pending,
    events: count('events'),
    actionKeys: count('action_keys'),
  };
}
