/**
 * The database cannot do its work right now: a PostgreSQL server restarting or out of reach, or a
 * disk with no room for what is to be written. The store says so with this error instead of a
 * driver's, so that a command answers "try again" rather than failing with an error id, delivery
 * waits for the next round without a log line of its own, and the watcher forgets what it could
 * not write and finds it again later (the store logs the outage itself, not each statement).
 *
 * `reason` tells the two apart:
 *
 * - `unreachable`: the server does not answer (src/store/postgres/connectionErrors.ts);
 * - `full`: the database refuses to write for lack of room. SQLite's `SQLITE_FULL` (a full disk:
 *   SQLite reads ENOSPC as this, and `PRAGMA max_page_count` reached), and `SQLITE_IOERR_WRITE`
 *   (a write the system refused: a file-size limit, EFBIG); PostgreSQL's class 53, insufficient
 *   resources (53100 disk_full, 53200 out_of_memory, 53000, 53400), but 53300 too_many_connections,
 *   which is a connection refused and counts as unreachable.
 */
export type UnavailableReason = 'unreachable' | 'full';

export class StoreUnavailableError extends Error {
  constructor(
    readonly detail: string,
    readonly reason: UnavailableReason = 'unreachable',
    /** The database's own code of the refusal (`SQLITE_FULL`, `53100`), without its words; '' when it gave none. */
    readonly code = '',
  ) {
    super(
      reason === 'full'
        ? `The database has no room to write right now (${detail})`
        : `The database cannot be reached right now (${detail})`,
    );
    this.name = 'StoreUnavailableError';
  }
}

export function isStoreUnavailable(error: unknown): error is StoreUnavailableError {
  return error instanceof StoreUnavailableError;
}

function codeOf(error: unknown): string {
  if (error === null || typeof error !== 'object' || !('code' in error)) return '';
  return typeof error.code === 'string' ? error.code : '';
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').slice(0, 200);
}

/** SQLite's result codes of a write refused for lack of room (better-sqlite3's `code`). */
const SQLITE_NO_ROOM = new Set(['SQLITE_FULL', 'SQLITE_IOERR_WRITE']);

/** The store's error for a SQLite error of a write refused for lack of room; null for any other. */
export function sqliteNoRoom(error: unknown): StoreUnavailableError | null {
  if (isStoreUnavailable(error)) return error;
  const code = codeOf(error);
  return SQLITE_NO_ROOM.has(code) ? new StoreUnavailableError(`${code}: ${messageOf(error)}`, 'full', code) : null;
}

/** PostgreSQL's SQLSTATEs of a server out of room: class 53 but 53300 (too many connections: unreachable). */
export function isPostgresNoRoom(code: string): boolean {
  return code.startsWith('53') && code.length === 5 && code !== '53300';
}

/** The store's error for a PostgreSQL error of a server out of room (disk full, out of memory); null for any other. */
export function postgresNoRoom(error: unknown): StoreUnavailableError | null {
  if (isStoreUnavailable(error)) return error;
  const code = codeOf(error);
  return isPostgresNoRoom(code) ? new StoreUnavailableError(`${code}: ${messageOf(error)}`, 'full', code) : null;
}
