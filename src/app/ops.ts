/** The ops part: the operators' HTTP server (HTTP_PORT: health, readiness, metrics), reading every part below. */
import type { RunningChat } from '../chats/startChats';
import type { ClusterMember } from '../cluster/member';
import type { Config } from '../config';
import type { Delivery } from '../delivery/delivery';
import type { Dispatcher } from '../dispatch/dispatcher';
import type { ReconcileJob } from '../jobs/reconcile';
import type { Logger } from '../log';
import type { MarketClient } from '../market/client';
import type { StreamClient } from '../market/stream';
import type { OpsServer } from '../ops/httpServer';
import type { Metrics } from '../ops/metrics';
import { startOps } from '../ops/start';
import type { Store } from '../store/store';
import type { Watcher } from '../watch/watcher';
import type { Lifecycle } from './lifecycle';
import { chatPlatformNames } from '../chats/platforms';

export interface OpsDeps {
  config: Config;
  logger: Logger;
  metrics: Metrics | null;
  store: Store;
  client: MarketClient;
  streams: StreamClient;
  watcher: Watcher;
  dispatcher: Dispatcher;
  delivery: Delivery;
  reconcile: ReconcileJob;
  chats: RunningChat[];
  cluster: ClusterMember | null;
  lifecycle: Lifecycle;
}

/** What /readyz and /status read of this process's share of a bot of several. */
function clusterView(cluster: ClusterMember, config: Config) {
  return {
    cluster: {
      joined: cluster.joined,
      processes: cluster.members,
      partitions: () => cluster.coordinator.partitions().length,
      holds: cluster.holds,
    },
    chatsExpected: [...chatPlatformNames(), 'sender'].some((role) => config.roles.set.has(role)),
  };
}

/** Null without HTTP_PORT. Throws OpsServerError (the port taken…): main prints its one line. */
export async function startOpsPart(deps: OpsDeps): Promise<OpsServer | null> {
  const { config, logger, metrics, store, client, streams, watcher, dispatcher, delivery, reconcile, chats, cluster } = deps;
  if (config.http === null || metrics === null) return null;
  const parts = {
    store,
    market: client,
    streams,
    watcher,
    dispatcher,
    delivery,
    reconcile,
    chats,
    ...(cluster === null ? {} : clusterView(cluster, config)),
  };
  const ops = await startOps({ ...config.http, metrics, logger, parts });
  deps.lifecycle.onStop('ops', () => ops.close());
  return ops;
}
