/**
 * SQLite's refusals for lack of room, said as the store's own: a method of a repository that fails
 * with `SQLITE_FULL` (a full disk, or `PRAGMA max_page_count` reached) or `SQLITE_IOERR_WRITE` (a
 * file-size limit) fails with StoreUnavailableError, reason `full`, instead. The watcher, delivery
 * and the commands already take that error as "the database cannot write right now": the watcher
 * forgets what it could not write and finds it again, delivery waits for its next round, a command
 * answers "try again". The RoomWatch hears of each refusal, and of each write that added rows.
 *
 * better-sqlite3 rolls a failed transaction back (its `transaction` wrapper, and SQLite itself for
 * a statement alone), so the connection stays usable: reads go on while the disk is full, and
 * writes resume as soon as there is room.
 */
import { dirname } from 'node:path';
import { statfsSync } from 'node:fs';
import type { SqliteDatabase } from './openDatabase';
import type { RoomWatch } from './storeRoom';
import { isStoreUnavailable, sqliteNoRoom } from './storeUnavailable';

/** Methods whose answer is the rows they added: one above zero shows there was room. */
const ROW_ADDING: ReadonlySet<string> = new Set(['commitMany', 'commitToken', 'commitWallet', 'add', 'recordPeaks']);

/** Free space below which the disk counts as still full (beside `max_page_count`). */
export const MIN_FREE_BYTES = 1024 * 1024;

type Method = (...args: unknown[]) => unknown;

/** `repository` with every method's refusals for lack of room said as StoreUnavailableError; the object itself is left as it is. */
export function roomGuarded<T extends object>(repository: T, room: RoomWatch): T {
  // One guard a method, made again when the method is replaced (a test's spy).
  const guards = new Map<PropertyKey, { method: Method; guard: Method }>();
  return new Proxy(repository, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      const method = value as Method;
      let made = guards.get(name);
      if (made === undefined || made.method !== method) {
        made = { method, guard: guarded(method, target, typeof name === 'string' && ROW_ADDING.has(name), room) };
        guards.set(name, made);
      }
      return made.guard;
    },
  });
}

function guarded(method: Method, target: object, addsRows: boolean, room: RoomWatch): Method {
  const said = (error: unknown): unknown => {
    if (isStoreUnavailable(error)) return error;
    const noRoom = sqliteNoRoom(error);
    if (noRoom === null) return error;
    room.refused(noRoom);
    return noRoom;
  };
  return (...args) => {
    let result: unknown;
    try {
      // On the object itself: its calls of its own methods are not said twice.
      result = method.apply(target, args);
    } catch (error) {
      throw said(error);
    }
    if (!(result instanceof Promise)) return result;
    return result.then(
      (value: unknown) => {
        if (addsRows && typeof value === 'number' && value > 0) room.wrote();
        return value;
      },
      (error: unknown) => {
        throw said(error);
      },
    );
  };
}

/**
 * Whether the database can grow now: below its page limit (`PRAGMA max_page_count`), on a file
 * system with MIN_FREE_BYTES free for it. True when it cannot be told (a closed connection, a
 * file system that cannot be asked): the store is then full only while writes are refused.
 */
export function sqliteHasRoom(db: SqliteDatabase, path: string): boolean {
  try {
    const pages = Number(db.pragma('page_count', { simple: true }));
    const most = Number(db.pragma('max_page_count', { simple: true }));
    if (pages >= most) return false;
    if (path === ':memory:') return true;
    const disk = statfsSync(dirname(path));
    return disk.bavail * disk.bsize >= MIN_FREE_BYTES;
  } catch {
    return true;
  }
}
