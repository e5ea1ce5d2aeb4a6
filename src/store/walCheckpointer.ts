/**
 * Copies the write-ahead log back into the database file from a worker thread, with a connection of
 * its own, so that the event loop never waits for it.
 *
 * SQLite's automatic checkpoint runs inside the commit that crosses 1,000 WAL pages and ends in an
 * fsync: on the alert path that was one commit in a few hundred taking 15 ms or more, while the
 * others take a fraction of one. Here the writer's automatic checkpoint is off and this thread runs
 * a PASSIVE checkpoint (it never blocks the writer) every CHECKPOINT_MS. If the thread cannot start
 * or stops, the writer's automatic checkpoint is switched back on: the log never grows unchecked.
 *
 * The worker's code is plain JavaScript evaluated in the thread, so it runs the same under tsx, the
 * test runner and the built `dist/` alike; it loads the same better-sqlite3 as the writer.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { SqliteDatabase } from './openDatabase';

/** How often the log is checkpointed; at 10,000 alert rows a second it holds a few MB by then. */
export const CHECKPOINT_MS = 1_000;
/** SQLite's own default, restored when the checkpointer is not running. */
const AUTO_CHECKPOINT_PAGES = 1_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: 1000 });
// A checkpoint copies pages from the log to the file; it needs no page cache of its own to speak of.
db.pragma('cache_size = -256');
// A failure is told once, not every interval while it lasts; a success ends it.
let failing = '';
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    failing = '';
  } catch (error) {
    const message = error && error.message ? String(error.message) : String(error);
    if (message !== failing) parentPort.postMessage({ type: 'error', message });
    failing = message;
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointerOptions {
  intervalMs?: number;
  /** Told of a failed checkpoint or of the thread's end (the writer's own checkpoint is back on then). */
  onProblem?: (message: string) => void;
}

export class WalCheckpointer {
  private readonly worker: Worker;
  private stopped = false;
  private readonly exited: Promise<void>;

  constructor(
    private readonly db: SqliteDatabase,
    path: string,
    options: WalCheckpointerOptions = {},
  ) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path, driver, intervalMs: options.intervalMs ?? CHECKPOINT_MS },
      // The thread runs a few lines: a small heap, so that it costs the process little memory.
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
    });
    // The thread must not keep a finished process alive.
    this.worker.unref();
    db.pragma('wal_autocheckpoint = 0');
    this.worker.on('message', (message: unknown) => {
      if (typeof message === 'object' && message !== null && 'type' in message && message.type === 'error' && 'message' in message) {
        options.onProblem?.(`WAL checkpoint failed: ${String(message.message)}`);
      }
    });
    // A thread that fails emits 'error' and then 'exit': one warning, with the error's reason.
    let failure = '';
    this.worker.on('error', (error) => {
      failure = `: ${error.message}`;
    });
    this.exited = new Promise((resolve) => {
      this.worker.once('exit', () => {
        if (!this.stopped) {
          if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
          options.onProblem?.(`WAL checkpointer ended${failure}; SQLite checkpoints on commit again`);
        }
        resolve();
      });
    });
  }

  /**
   * Stops the thread and waits for its connection to close. Called as the store closes: closing
   * the writer's connection then checkpoints what is left, so its automatic checkpoint stays off.
   */
  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      // Waited for now: unreferenced, the thread would let the process end before it closed its connection.
      this.worker.ref();
      this.worker.postMessage('stop');
    }
    await this.exited;
  }
}
