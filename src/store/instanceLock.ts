/**
 * One TokenWatch per database file. The lock is SQLite's own file lock on a small companion file
 * (`<database>-lock`), taken for writing and kept until release: a second TokenWatch, in this
 * process or another, is refused at once with SQLITE_BUSY, and the operating system drops the lock
 * when a process dies, so a crash leaves nothing to clean up.
 *
 * The database itself is then opened in SQLite's normal locking mode, so that a second connection
 * of this process (the WAL checkpointer, walCheckpointer.ts) can work beside the writer.
 */
import Database from 'better-sqlite3';

export interface InstanceLock {
  release(): void;
}

function lockPathOf(databasePath: string): string {
  return `${databasePath}-lock`;
}

/** Takes the lock for `databasePath`; throws SQLite's SQLITE_BUSY error when another TokenWatch holds it. */
export function takeInstanceLock(databasePath: string): InstanceLock {
  const lock = new Database(lockPathOf(databasePath), { timeout: 0 });
  try {
    // In exclusive locking mode a lock, once taken, is kept until the connection closes: an
    // exclusive transaction takes it, and nothing needs writing.
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE');
    lock.exec('COMMIT');
  } catch (error) {
    lock.close();
    throw error;
  }
  let held = true;
  return {
    release: () => {
      if (!held) return;
      held = false;
      lock.close();
    },
  };
}
