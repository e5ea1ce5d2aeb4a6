/**
 * Opens the SQLite file and brings its schema up to date, or stops with one clear line naming the
 * path. Nothing is written to a file that is not ours: the header is read (and the lock taken)
 * first, the migrations run in one transaction that rolls back whole, and only then is WAL mode
 * switched on.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { takeInstanceLock, type InstanceLock } from './instanceLock';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations/index';
import { StoreOpenError } from './storeOpenError';
import { MARKET_RESET_STATEMENTS, OtherMarketError, decideMarket, type MarketOutcome, type StoreMarket } from './storeMarket';

export { StoreOpenError, type StoreOpenReason } from './storeOpenError';

export type SqliteDatabase = Database.Database;

export interface OpenOptions {
  /**
   * How long start-up waits for the file held by another program (a `sqlite3` shell) before
   * failing; another TokenWatch is refused at once.
   */
  busyTimeoutMs?: number;
  /**
   * Reads every page once at start (`PRAGMA quick_check`), so that damage inside the file stops
   * start-up instead of failing some later write. Default true; it takes about a second for a
   * file of 40 MB (100,000 follows and 200,000 alert rows).
   */
  checkIntegrity?: boolean;
  /**
   * The market this start runs on: recorded in a new store, checked against an old one's
   * (storeMarket.ts). Absent: not looked at (tools, tests).
   */
  market?: StoreMarket;
}

function sqliteCode(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return '';
}

function describe(path: string, error: unknown): StoreOpenError {
  if (error instanceof StoreOpenError) return error;
  if (error instanceof OtherMarketError) return new StoreOpenError(path, 'other-market', error.message);
  const code = sqliteCode(error);
  const text = error instanceof Error ? error.message : String(error);
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return new StoreOpenError(
      path,
      'corrupt',
      `the file is not a SQLite database or is damaged (${text}); it was left untouched: restore a backup or move it away`,
    );
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new StoreOpenError(path, 'locked', 'it is locked by another process (is TokenWatch already running on it?)');
  }
  if (code.startsWith('SQLITE_ERROR') && /already exists/.test(text)) {
    return new StoreOpenError(path, 'foreign', `it holds tables that are not TokenWatch's (${text}); it was left untouched`);
  }
  return new StoreOpenError(path, 'unreadable', text);
}

/** An open, migrated database and the lock that makes it this process's. */
export interface OpenedDatabase {
  db: SqliteDatabase;
  /** What opening did about the market; null when none was asked for. */
  market: MarketOutcome | null;
  /** Closes the connection, then gives up the instance lock. */
  close(): void;
}

/**
 * Opens (creating the folder and the file when missing) and migrates. The instance lock
 * (instanceLock.ts) is taken first, so a second TokenWatch on the same file stops at start instead
 * of sending every alert twice; WAL with synchronous=NORMAL keeps each commit to an append.
 */
export function openDatabase(path: string, options: OpenOptions = {}): OpenedDatabase {
  let db: SqliteDatabase | null = null;
  let lock: InstanceLock | null = null;
  try {
    if (path !== ':memory:') {
      mkdirSync(dirname(path), { recursive: true });
      lock = takeInstanceLock(path);
    }
    db = new Database(path, { timeout: options.busyTimeoutMs ?? 5_000 });
    // The first read: a file that is not a database, or one locked by someone else, fails here.
    const found = Number(db.pragma('user_version', { simple: true }));
    if (found > SCHEMA_VERSION) {
      throw new StoreOpenError(
        path,
        'newer-schema',
        `it has schema version ${found}, newer than this TokenWatch knows (${SCHEMA_VERSION}); upgrade TokenWatch or restore a backup`,
      );
    }
    if (options.checkIntegrity !== false) checkIntegrity(path, db);
    // Migrations before WAL: switching to WAL rewrites the header, and a file whose tables turn
    // out not to be ours must be left exactly as it was found (the transaction rolls back whole).
    const market = migrate(db, options.market ?? null);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    const opened = db;
    const held = lock;
    return {
      db: opened,
      market,
      close: () => {
        if (opened.open) opened.close();
        held?.release();
      },
    };
  } catch (error) {
    db?.close();
    lock?.release();
    throw describe(path, error);
  }
}

function checkIntegrity(path: string, db: SqliteDatabase): void {
  // quick_check reports damage as rows of text (or throws SQLITE_CORRUPT on the worst): 'ok' is the one good answer.
  const rows = db.prepare<[], { quick_check: string }>('PRAGMA quick_check(3)').all();
  const problems = rows.map((row) => row.quick_check).filter((text) => text !== 'ok');
  if (problems.length > 0) {
    const first = (problems[0] ?? '').replace(/\s+/g, ' ').slice(0, 200);
    throw new StoreOpenError(path, 'corrupt', `the file is damaged (${first}); it was left untouched: restore a backup or move it away`);
  }
}

function migrate(db: SqliteDatabase, market: StoreMarket | null): MarketOutcome | null {
  // BEGIN EXCLUSIVE even when there is nothing to apply: a connection outside TokenWatch holding
  // the file (a backup tool, a shell) is found now, at start, not at the first alert.
  db.exec('BEGIN EXCLUSIVE');
  try {
    const current = Number(db.pragma('user_version', { simple: true }));
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }
    // In the same transaction: a refused start leaves the file as it was found.
    const outcome = market === null ? null : checkMarket(db, market);
    db.exec('COMMIT');
    return outcome;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/** Records the market in a store that has none, or checks it against the recorded one (storeMarket.ts). */
function checkMarket(db: SqliteDatabase, market: StoreMarket): MarketOutcome {
  const recorded = db.prepare<[], { market: string }>('SELECT market FROM store_market WHERE one = 1').get()?.market ?? null;
  const decision = decideMarket(recorded, market, 'DATABASE_PATH');
  if (decision === 'same') return { kind: 'same', market: market.id };
  if (decision === 'reset') for (const statement of MARKET_RESET_STATEMENTS) db.exec(statement);
  db.prepare(
    'INSERT INTO store_market (one, market, recorded_at) VALUES (1, ?, ?) ON CONFLICT (one) DO UPDATE ' +
      'SET market = excluded.market, recorded_at = excluded.recorded_at',
  ).run(market.id, Date.now());
  return decision === 'reset' && recorded !== null
    ? { kind: 'reset', market: market.id, from: recorded }
    : { kind: 'recorded', market: market.id };
}
