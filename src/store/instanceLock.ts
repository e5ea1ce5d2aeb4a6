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
    // In exclusive locking mode the first write's lock is kept until the connection closes.
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE');
    lock.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, since INTEGER NOT NULL)');
    lock.exec('DELETE FROM holder');
    // For an operator who opens the file: which process holds it, since when.
    lock.prepare<[number, number]>('INSERT INTO holder (pid, since) VALUES (?, ?)').run(process.pid, Date.now());
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
