/**
 * The WAL checkpointer: a worker thread with its own connection copies the log back into the
 * database file while the writer keeps committing, and the writer's own checkpoint comes back on
 * if the thread ends on its own.
 */
import { statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/openDatabase';
import { WalCheckpointer } from '../../src/store/walCheckpointer';
import { waitFor } from '../market/stream/support/wait';
import { tempDir } from './helpers';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
  cleanups = [];
});

function openTemp() {
  const t = tempDir();
  const opened = openDatabase(t.path);
  cleanups.push(t.cleanup, () => opened.close());
  return { ...t, db: opened.db };
}

/** About 4 MB of rows in one commit: far past the 1,000 pages at which SQLite would checkpoint on its own. */
function writeRows(db: ReturnType<typeof openTemp>['db']): void {
  db.exec('CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare<[string]>('INSERT INTO filler (body) VALUES (?)');
  db.transaction(() => {
    for (let index = 0; index < 4_000; index++) insert.run('x'.repeat(1_000));
  })();
}

describe('the WAL checkpointer', () => {
  it('copies committed pages into the database file from its own thread', async () => {
    const { db, path } = openTemp();
    const checkpointer = new WalCheckpointer(db, path, { intervalMs: 20 });
    cleanups.push(() => void checkpointer.stop());
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const before = statSync(path).size;
    writeRows(db);
    // The writer checkpoints nothing itself now: only the thread can grow the main file.
    await waitFor(() => statSync(path).size > before + 3_000_000, 'the checkpointed pages in the database file');
    await checkpointer.stop();
  });

  it('(the control for the case above) without the thread, the same writes leave the database file as it was', async () => {
    const { db, path } = openTemp();
    db.pragma('wal_autocheckpoint = 0');
    const before = statSync(path).size;
    writeRows(db);
    // The writer works inside its commit: once writeRows returns, all it would do to the file is done,
    // and with no thread nothing else touches it.
    expect(statSync(path).size).toBe(before);
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(3_000_000);
  });

  it('tells once of a thread that cannot work, and the writer checkpoints on its own when the thread ends', async () => {
    const { db, path } = openTemp();
    const problems: string[] = [];
    // A path that is not the database's: the thread cannot open it as one.
    const checkpointer = new WalCheckpointer(db, `${path}-missing-dir/none.db`, {
      intervalMs: 20,
      onProblem: (message) => problems.push(message),
    });
    await waitFor(() => problems.length > 0, 'the problem report');
    await waitFor(() => db.pragma('wal_autocheckpoint', { simple: true }) === 1_000, 'the writer’s own checkpoint back on');
    await checkpointer.stop();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^WAL checkpointer ended: .+; SQLite checkpoints on commit again$/);
  });
});
