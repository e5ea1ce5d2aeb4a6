/**
 * The operators' side of a running bot, started by src/app.ts when HTTP_PORT is set: the metrics
 * read from the running parts, readiness, and the HTTP server that serves both.
 */
import type { RunningChat } from '../chats/startChats';
import type { Delivery } from '../delivery/delivery';
import type { Dispatcher } from '../dispatch/dispatcher';
import type { ReconcileJob } from '../jobs/reconcile';
import type { Logger } from '../log';
import type { MarketClient } from '../market/client';
import type { StreamClient } from '../market/stream';
import { isPlatform, type Platform } from '../model/chat';
import type { Store } from '../store/store';
import type { Watcher } from '../watch/watcher';
import { startOpsServer, type OpsServer } from './httpServer';
import type { MetricSources, Metrics } from './metrics';
import { createReadiness, type ReadinessSources } from './readiness';

export interface OpsParts {
  store: Store;
  market: Pick<MarketClient, 'stats'>;
  streams: Pick<StreamClient, 'status'>;
  watcher: Pick<Watcher, 'status'>;
  dispatcher: Pick<Dispatcher, 'counters'>;
  delivery: Pick<Delivery, 'counters'>;
  reconcile: Pick<ReconcileJob, 'status'>;
  chats: readonly RunningChat[];
  /** This process as one of several; absent when it runs the bot alone. */
  cluster?: NonNullable<ReadinessSources['cluster']> & { partitions: () => number; holds: (lease: string) => boolean };
  /** False when this process runs no chat (roles without discord, telegram or sender). */
  chatsExpected?: boolean;
}

/** A running chat's platform, when its name is one (the console's is). */
function platformOf(chat: RunningChat): Platform | null {
  return isPlatform(chat.name) ? chat.name : null;
}

function clusterMetrics(cluster: NonNullable<OpsParts['cluster']>): NonNullable<MetricSources['cluster']> {
  return { partitions: cluster.partitions, holds: cluster.holds, processes: async () => (await cluster.processes()).length };
}

/** Has `metrics` read each part's counters when scraped (once per Metrics). */
export function watchParts(metrics: Metrics, parts: OpsParts): void {
  const platforms = parts.chats.flatMap((chat) => (chat.sender === null ? [] : [chat.sender.platform]));
  metrics.watch({
    watcher: () => parts.watcher.status(),
    streams: () => parts.streams.status(),
    market: () => parts.market.stats(),
    delivery: (platform) => parts.delivery.counters(platform),
    commands: () => parts.dispatcher.counters(),
    reconcile: () => parts.reconcile.status(),
    store: parts.store,
    platforms: () => platforms,
    ...(parts.cluster === undefined ? {} : { cluster: clusterMetrics(parts.cluster) }),
    platformRequests: () =>
      parts.chats.flatMap((chat) => {
        const platform = platformOf(chat);
        return platform === null || chat.requests === undefined ? [] : [{ platform, statuses: chat.requests() }];
      }),
  });
}

/** The server on `host:port`, serving `metrics` (already watching the parts) and the parts' readiness. */
export function serveOps(options: { host: string; port: number; metrics: Metrics; parts: OpsParts; logger: Logger }): Promise<OpsServer> {
  const { parts } = options;
  const readiness = createReadiness({
    store: parts.store,
    chats: () => parts.chats,
    streams: () => parts.streams.status(),
    ...(parts.cluster === undefined ? {} : { cluster: { joined: parts.cluster.joined, processes: parts.cluster.processes } }),
    ...(parts.chatsExpected === undefined ? {} : { chatsExpected: parts.chatsExpected }),
  });
  return startOpsServer({
    host: options.host,
    port: options.port,
    readiness,
    metrics: () => options.metrics.scrape(),
    logger: options.logger,
  });
}

export async function startOps(options: {
  host: string;
  port: number;
  metrics: Metrics;
  parts: OpsParts;
  logger: Logger;
}): Promise<OpsServer> {
  watchParts(options.metrics, options.parts);
  return serveOps(options);
}
