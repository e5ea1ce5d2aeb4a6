/**
 * The alert bench's memory phase, compiled as the bot ships (bench/compiled.ts) and run by plain
 * `node` with the Dockerfile's heap cap, in a process of its own: 10,000 followed tokens, every
 * kind of alert, the stream client as shipped (`auto`), the watcher and the SQLite store holding
 * the follows, against the feeder (bench/alertFeed.ts). Once every baseline is read and committed,
 * after a full collection, it reports over IPC the process's RSS and what holds it: the V8 heap
 * by space (held and in use), the memory outside it that V8 knows of (buffers), and the rest.
 * With BENCH_HEAP_SNAPSHOT=FILE it writes a heap snapshot there.
 *
 * Run by bench/alerts.ts with the path of a database holding the follows, and the feeder's frame
 * templates in BENCH_FRAME_TEMPLATES (JSON), so that this process loads no simulator.
 */
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { silentLogger } from '../src/log';
import { openSqliteStore } from '../src/store/sqliteStore';
import { createWatcher } from '../src/watch/watcher';
import { Feeder, shippedStreamClient, SNAPSHOT_HOLDERS, TOKENS, until, type FrameTemplates } from './alertFeed';
import { runChildPhase } from './childPhase';

export interface MemoryResult {
  rssMb: number;
  heapUsedMb: number;
  heapHeldMb: number;
  externalMb: number;
  buffersMb: number;
  /** Per V8 space: held and in use, MB. */
  spaces: Array<{ name: string; heldMb: number; usedMb: number }>;
  /** RSS before anything was loaded or started beyond this file's imports. */
  startRssMb: number;
  /** Linux's split of the RSS (/proc/self/status): anonymous memory, and pages of mapped files (the node binary, native libraries); null elsewhere. */
  anonMb: number | null;
  fileMb: number | null;
}

/** A `kB` line of /proc/self/status, in MB; null where there is none. */
function statusMb(status: string | null, field: string): number | null {
  const match = status === null ? null : new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match?.[1] === undefined ? null : Number(match[1]) / 1024;
}

function procStatus(): string | null {
  try {
    return readFileSync('/proc/self/status', 'utf8');
  } catch {
    // Not Linux: the split is not known.
    return null;
  }
}

const MB = 1024 * 1024;

async function main(): Promise<MemoryResult> {
  const startRssMb = process.memoryUsage().rss / MB;
  const databasePath = process.argv[2];
  if (databasePath === undefined) throw new Error('usage: alertsMemory.js DATABASE');
  const templates = JSON.parse(process.env.BENCH_FRAME_TEMPLATES ?? 'null') as FrameTemplates | null;
  if (templates === null) throw new Error('BENCH_FRAME_TEMPLATES is not set');
  const feeder = new Feeder(templates, { onePerSocket: false });
  const { port } = await feeder.next('listening');
  const store = openSqliteStore(databasePath);
  const { streams } = shippedStreamClient(`ws://127.0.0.1:${String(port)}`);
  const watcher = createWatcher({ store, streams, logger: silentLogger });
  try {
    await watcher.start();
    await until(() => watcher.status().processed >= TOKENS * (1 + SNAPSHOT_HOLDERS), 'every token and holders snapshot');
    await watcher.idle();
    global.gc?.();
    const memory = process.memoryUsage();
    const status = procStatus();
    const spaces = getHeapSpaceStatistics();
    // After the figures: writing a snapshot collects garbage and shrinks the heap.
    if (process.env.BENCH_HEAP_SNAPSHOT !== undefined) writeHeapSnapshot(process.env.BENCH_HEAP_SNAPSHOT);
    return {
      rssMb: memory.rss / MB,
      heapUsedMb: memory.heapUsed / MB,
      heapHeldMb: memory.heapTotal / MB,
      externalMb: memory.external / MB,
      buffersMb: memory.arrayBuffers / MB,
      spaces: spaces
        .filter((space) => space.space_size >= MB)
        .map((space) => ({ name: space.space_name, heldMb: space.space_size / MB, usedMb: space.space_used_size / MB })),
      startRssMb,
      anonMb: statusMb(status, 'RssAnon'),
      fileMb: statusMb(status, 'RssFile'),
    };
  } finally {
    await watcher.close();
    await streams.close();
    await store.close();
    await feeder.close();
  }
}

runChildPhase('memory', main);
