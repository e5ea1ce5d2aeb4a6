/**
 * One watcher process of the cluster bench (bench/cluster.ts), forked by it: the watcher as a
 * `TOKENWATCH_ROLES=watcher` process runs it (src/cluster/member.ts over PostgreSQL, the stream
 * client as shipped, the watcher with the member's scope), against the bench's feeder. It answers
 * the bench's `status` asks over IPC with what it processed, its partitions and its subscriptions,
 * and stops on `stop`. No chat and no REST: the figures are the watchers' own.
 */
import { createClusterMember } from '../src/cluster/member';
import { memberParts } from '../src/cluster/parts';
import { silentLogger } from '../src/log';
import { openPostgresStore } from '../src/store/postgres/postgresStore';
import { createWatcher } from '../src/watch/watcher';
import { shippedStreamClient, WatcherWorkClock } from './alertFeed';

export interface WatcherReport {
  type: 'status';
  processed: number;
  rows: number;
  partitions: number;
  subscriptions: number;
  queued: number;
  joined: boolean;
  /** Epoch ms of the last input handed to the watcher or the last commit's end, whichever came later. */
  lastWorkAt: number;
}

async function main(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? '';
  const wsUrl = process.env.BENCH_WS_URL ?? '';
  const store = await openPostgresStore(databaseUrl, { logger: silentLogger });
  const { streams } = shippedStreamClient(wsUrl);
  // The time of the last work done, read by the bench when the frames are all processed: its own
  // polls then need not be frequent to time a blast.
  const clock = new WatcherWorkClock(streams, store);
  const member = createClusterMember({
    store,
    databaseUrl,
    roles: new Set(['watcher'] as const),
    platformLeases: [],
    info: () => ({}),
    logger: silentLogger,
  });
  const watcher = createWatcher({ store, streams: clock.streams, logger: silentLogger, scope: member.scope });
  await watcher.start();
  // The parts as app.ts hands them over; a watcher alone has no delivery, watchlists or poller,
  // and the feeder serves no REST, so its reconciliation reads nothing.
  const roles = new Set(['watcher'] as const);
  const reconcile = { runNow: async () => ({ tokens: 0, wallets: 0, requests: 0, failures: 0, rows: 0 }) };
  await member.start(
    memberParts({
      roles,
      store,
      watcher,
      reconcile,
      delivery: { notify: () => undefined, takeOver: async () => 0 },
      digests: { changed: async () => undefined },
      leased: [],
      logger: silentLogger,
    }),
  );
  process.on('message', (message: { type: string }) => {
    if (message.type === 'status') {
      const status = watcher.status();
      const report: WatcherReport = {
        type: 'status',
        processed: status.processed,
        rows: status.rows,
        partitions: member.coordinator.partitions().length,
        subscriptions: Object.values(status.subscriptions).reduce((sum, count) => sum + count, 0),
        queued: status.queued,
        joined: member.joined(),
        lastWorkAt: clock.lastWorkAt,
      };
      process.send?.(report);
    } else if (message.type === 'stop') {
      void (async () => {
        await member.stop();
        await watcher.close();
        await streams.close();
        await store.close();
        process.exit(0);
      })();
    }
  });
  process.send?.({ type: 'ready' });
}

main().catch((error: unknown) => {
  process.stderr.write(`cluster bench watcher failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
