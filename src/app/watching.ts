/**
 * The watching part: the watcher over the live streams, the follow services that change what it
 * watches, and /status's source; started (subscriptions, the USD rate, the reconciliation) once
 * delivery listens for its alerts.
 */
import type { ClusterMember } from '../cluster/member';
import type { Config } from '../config';
import { FollowService } from '../follows/followService';
import { streamShareOf } from '../follows/followLimits';
import { createStatusSource, type PollsView, type StatusSource } from '../follows/status';
import { streamRoom } from '../follows/streamRoom';
import { startReconcileJob, type ReconcileJob } from '../jobs/reconcile';
import { startRestPolls, type RestPolls } from '../jobs/restPolls';
import { startUsdRateRefresh } from '../jobs/usdRateRefresh';
import type { Logger } from '../log';
import type { MarketClient } from '../market/client';
import type { Metrics } from '../ops/metrics';
import { knownSolUsdRate } from '../query/usdRate';
import type { Store } from '../store/store';
import { createWatcher, type Watcher } from '../watch/watcher';
import type { Lifecycle } from './lifecycle';
import type { RunningChats } from './runningChats';
import type { StreamsPart } from './streams';

export interface WatchingDeps {
  config: Config;
  logger: Logger;
  now: () => Date;
  store: Store;
  client: MarketClient;
  live: StreamsPart;
  cluster: ClusterMember | null;
  chats: RunningChats;
  lifecycle: Lifecycle;
}

export interface WatchingPart {
  watcher: Watcher;
  /** The vendor protocol's REST polls, once started (startWatching). */
  polls: { current: RestPolls | null };
  follows: FollowService;
  status: StatusSource;
  /** Re-reads the followers of an address, or of all (null), here and in the other watchers. */
  resync(address: string | null): Promise<void>;
}

export function createWatching({ config, logger, now, store, client, live, cluster, chats, lifecycle }: WatchingDeps): WatchingPart {
  const polls: WatchingPart['polls'] = { current: null };
  const { streams, openFiles, maxSockets, protocol } = live;
  const watcher = createWatcher({
    store,
    streams,
    logger,
    // Read at each sync: trades-live and chart-live per token on the vendor's protocol, token-feed on the spec's.
    protocol: () => protocol.current,
    now: () => now().getTime(),
    describeToken: async (address) => client.token(address),
    readHolders: async (token) => client.holders(token),
    // USD on alerts and targets: the rate the look-ups derived, kept fresh by the USD rate refresh.
    solUsd: () => knownSolUsdRate(client),
    // With several processes, the targets of the partitions this one holds (none without the watcher role).
    ...(cluster === null ? {} : { scope: cluster.scope }),
  });
  lifecycle.onStop('watcher', () => watcher.close(), 'drains');
  // A protocol learnt from the sockets after start: every target is subscribed again on its streams.
  protocol.onChange(() => void watcher.resync());
  // A follow change re-reads that address's followers only; null (a chat resumed) re-reads them all.
  // With several processes, the other watchers hear of it too.
  const resync = async (address: string | null): Promise<void> => {
    cluster?.followsChanged(address);
    await watcher.resync(address ?? undefined);
  };
  const { shares } = config;
  const streamShare =
    'targets' in shares.streamSharePerChat
      ? shares.streamSharePerChat.targets
      : streamShareOf(shares.streamSharePerChat.percent, maxSockets);
  const follows = new FollowService({
    store,
    logger,
    resync,
    room: streamRoom({ store, streams, openFiles }),
    limits: { perChat: shares.followsPerChat, perServer: shares.followsPerServer, streamShare },
  });
  const status = createStatusSource({
    store,
    streams: () => streams.status(),
    protocol: () => protocol.describe(),
    polls: () => pollsView(polls.current),
    startedAt: now().getTime(),
    openFiles,
    shards: () => chats.shards(),
    ...(cluster === null ? {} : { processes: cluster.members }),
  });
  return { watcher, follows, status, resync, polls };
}

/** The polls as /status shows them. */
function pollsView(polls: RestPolls | null): PollsView | null {
  if (polls === null) return null;
  const { active, tokens, wallets } = polls.status();
  const view = (name: string, loop: typeof tokens) => ({ name, pauseMs: loop.pauseMs, intervalMs: loop.intervalMs, slowed: loop.slowed });
  return { active, polls: [view('token-data', tokens), view('wallet-tracker', wallets)] };
}

/**
 * Learns the streams' protocol, subscribes the watcher, then starts what keeps it right: the USD
 * rate, the vendor protocol's REST polls and the reconciliation.
 */
export async function startWatching(
  deps: Pick<WatchingDeps, 'config' | 'logger' | 'client' | 'lifecycle' | 'live'>,
  watching: WatchingPart,
  metrics: Metrics | null,
): Promise<ReconcileJob> {
  const { config, logger, client, lifecycle, live } = deps;
  const { watcher, follows } = watching;
  await live.protocol.decide();
  await watcher.start();
  const polls = startRestPolls({
    watcher,
    market: client,
    tokenIntervalMs: config.tokenPollMs,
    walletIntervalMs: config.walletPollMs,
    active: () => live.protocol.current === 'vendor',
    logger,
  });
  watching.polls.current = polls;
  lifecycle.onStop('polls', () => polls.stop(), 'drains');
  // Targets told while the bot was stopped, before it could remove them.
  void follows.endReachedTargets();
  const usdRate = startUsdRateRefresh({ market: client, tokens: () => watcher.targets().tokens, logger });
  lifecycle.onStop('usdRate', () => usdRate.stop());
  const reconcile = startReconcileJob({
    watcher,
    market: client,
    cron: config.reconcileCron,
    logger,
    ...(metrics === null ? {} : { onRun: metrics.reconciled }),
  });
  lifecycle.onStop('reconciliation', () => reconcile.stop(), 'drains');
  return reconcile;
}
