/** The cluster part: this process as one of several (TOKENWATCH_ROLES), each taking its share under leases in PostgreSQL. */
import type { Config } from '../config';
import type { Logger } from '../log';
import type { StreamClient } from '../market/stream';
import { createClusterMember, type ClusterMember } from '../cluster/member';
import { memberParts } from '../cluster/parts';
import type { DailyDigests } from '../jobs/dailyDigest';
import type { ReconcileJob } from '../jobs/reconcile';
import type { Delivery } from '../delivery/delivery';
import type { RunningChat } from '../chats/startChats';
import { platformLeases } from '../chats/platforms';
import { PostgresStore } from '../store/postgres/postgresStore';
import type { Store } from '../store/store';
import type { Watcher } from '../watch/watcher';
import type { Lifecycle } from './lifecycle';
import type { RunningChats } from './runningChats';

/** A watcher's stream sockets as the other processes see them in /status: sockets, open ones, subscriptions. */
function streamFigures(streams: StreamClient): { sockets: number; open: number; subscriptions: number } {
  const sockets = streams.status().sockets;
  const open = sockets.filter((socket) => socket.state === 'open').length;
  return { sockets: sockets.length, open, subscriptions: sockets.reduce((sum, socket) => sum + socket.subscriptions, 0) };
}

export interface ClusterDeps {
  config: Config;
  logger: Logger;
  store: Store;
  streams: StreamClient;
  chats: RunningChats;
  lifecycle: Lifecycle;
}

/** The member, made before the parts it steers; null when this process runs every role alone. */
export function createCluster({ config, logger, store, streams, chats, lifecycle }: ClusterDeps): ClusterMember | null {
  if (!config.roles.clustered) return null;
  if (!(store instanceof PostgresStore) || config.databaseUrl === null) throw new Error('TOKENWATCH_ROLES needs DATABASE_URL');
  const roles = config.roles.set;
  const cluster = createClusterMember({
    store,
    databaseUrl: config.databaseUrl,
    roles,
    platformLeases: platformLeases(config, roles),
    // The others read these for /status and /readyz: this process's shards and, as a watcher, its streams.
    info: () => ({
      shards: (chats.shards() ?? []).map((shard) => shard.id),
      pid: process.pid,
      streams: roles.has('watcher') ? streamFigures(streams) : null,
    }),
    logger,
  });
  lifecycle.onStop('cluster', () => cluster.stop());
  return cluster;
}

export interface JoinParts {
  config: Config;
  logger: Logger;
  store: Store;
  watcher: Watcher;
  reconcile: ReconcileJob;
  delivery: Delivery;
  digests: DailyDigests;
  chats: readonly RunningChat[];
}

/** Joins the bot's other processes: its first partitions and leases are taken before it goes on. */
export async function joinCluster(cluster: ClusterMember | null, parts: JoinParts): Promise<void> {
  if (cluster === null || !(parts.store instanceof PostgresStore)) return;
  const { config, logger, watcher, reconcile, delivery, digests, chats } = parts;
  const leased = chats.flatMap((chat) => (chat.poller === undefined ? [] : [chat.poller]));
  await cluster.start(memberParts({ roles: config.roles.set, store: parts.store, watcher, reconcile, delivery, digests, leased, logger }));
}
