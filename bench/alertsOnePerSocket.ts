/**
 * The alert bench's second phase, in a process of its own so that its memory is its own: the bot's
 * stream client and watcher as shipped (`auto`) at 10,000 followed tokens, every kind of alert,
 * against the feeder made strict (one subscription a socket, a second answered with an error and
 * close 4000, as the simulator with `--subscriptions-per-socket 1`). The client falls back to one
 * subscription a socket and opens as many sockets as the open-files limit leaves; the rest wait.
 *
 * Run by bench/alerts.ts with the path of a database holding the follows; reports over IPC:
 * the sockets open and live on both ends, the subscriptions waiting, the process's RSS, the time.
 */
import { performance } from 'node:perf_hooks';
import { silentLogger } from '../src/log';
import { openSqliteStore } from '../src/store/sqliteStore';
import { createWatcher } from '../src/watch/watcher';
import { Feeder, frameTemplates, progress, shippedStreamClient, TOKENS, until } from './alertFeed';
import { runChildPhase } from './childPhase';

export interface OnePerSocketResult {
  rssMb: number;
  /** The V8 heap in use after a full collection. */
  heapUsedMb: number;
  /** Sockets the client holds open, each with its one subscription served. */
  sockets: number;
  /** Subscriptions the feeder holds live, counted at its end. */
  live: number;
  /** Subscriptions waiting for a socket past the limit. */
  waiting: number;
  maxSockets: number | null;
  openFiles: number | null;
  /** From the watcher's start until every subscription the limit allows is live and its snapshot compared. */
  seconds: number;
  evidence: string | null;
}

async function main(): Promise<OnePerSocketResult> {
  const databasePath = process.argv[2];
  if (databasePath === undefined) throw new Error('usage: alertsOnePerSocket.ts DATABASE');
  const feeder = new Feeder(await frameTemplates(), { onePerSocket: true });
  const { port } = await feeder.next('listening');
  const store = openSqliteStore(databasePath);
  const { streams, maxSockets, openFiles } = shippedStreamClient(`ws://127.0.0.1:${String(port)}`);
  const watcher = createWatcher({ store, streams, logger: silentLogger });
  try {
    const started = performance.now();
    await watcher.start();
    const wanted = TOKENS * 2;
    await until(() => streams.status().packing.state === 'refused', 'the fall-back to one subscription a socket');
    progress('one a socket: the client fell back; opening the sockets');
    // Every subscription has a socket or waits for one, and every socket is open.
    await until(() => {
      const status = streams.status();
      return status.sockets.length + status.waitingForRoom === wanted && status.sockets.every((socket) => socket.state === 'open');
    }, 'every socket the limit allows open');
    // The feeder's own count agrees: each open socket holds its subscription live.
    let counted = await feeder.count();
    while (counted.subscriptions !== streams.status().sockets.length) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      counted = await feeder.count();
    }
    await watcher.idle();
    const seconds = (performance.now() - started) / 1000;
    global.gc?.();
    const status = streams.status();
    const memory = process.memoryUsage();
    return {
      rssMb: memory.rss / 1024 / 1024,
      heapUsedMb: memory.heapUsed / 1024 / 1024,
      sockets: status.sockets.length,
      live: counted.subscriptions,
      waiting: status.waitingForRoom,
      maxSockets,
      openFiles,
      seconds,
      evidence: status.packing.evidence,
    };
  } finally {
    await watcher.close();
    await streams.close();
    await store.close();
    await feeder.close();
  }
}

runChildPhase('one-per-socket', main);
