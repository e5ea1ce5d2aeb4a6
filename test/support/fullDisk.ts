/**
 * A SQLite store's disk made full, as SQLite itself does it: `PRAGMA max_page_count` on the
 * store's own connection (the limit is per connection), at the pages the file has now. A write that
 * needs one more page then fails with SQLITE_FULL, exactly as on a file system with no room left
 * (SQLite reads ENOSPC as SQLITE_FULL); reads go on. `room()` lifts the limit again.
 */
import type Database from 'better-sqlite3';
import type { SqliteStore } from '../../src/store/sqliteStore';

/** The store's connection: what the bot writes through (a test's reach into the store, not an interface of it). */
export function connectionOf(store: SqliteStore): Database.Database {
  return (store as unknown as { opened: { db: Database.Database } }).opened.db;
}

export interface FullDisk {
  /** Room again: the limit as SQLite's default. */
  room(): void;
}

/** The disk full from now on: no page beyond those the file holds (and `spare` more). */
export function fillDisk(store: SqliteStore, spare = 0): FullDisk {
  const db = connectionOf(store);
  const pages = Number(db.pragma('page_count', { simple: true }));
  const before = Number(db.pragma('max_page_count', { simple: true }));
  db.pragma(`max_page_count = ${pages + spare}`);
  return { room: () => db.pragma(`max_page_count = ${before}`) };
}

/** `PRAGMA integrity_check`'s rows: ['ok'] for a whole file. */
export function integrity(store: SqliteStore): string[] {
  return connectionOf(store)
    .prepare<[], { integrity_check: string }>('PRAGMA integrity_check')
    .all()
    .map((row) => row.integrity_check);
}
