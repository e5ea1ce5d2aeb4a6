/**
 * The delivery part: the outbox drained through the chats' alert senders, woken by every write to
 * it. Started after the watcher, so alerts seen at the watcher's start find it listening.
 */
import { alertCardWithChart } from '../alerts/alertCard';
import type { RunningChat } from '../chats/startChats';
import { senderLease, type ClusterMember } from '../cluster/member';
import type { Config } from '../config';
import { createDelivery, type Delivery } from '../delivery/delivery';
import { simulatedDataSender } from '../delivery/simulatedDataSender';
import { usdAtSend } from '../delivery/usdAtSend';
import type { Dispatcher } from '../dispatch/dispatcher';
import type { Logger } from '../log';
import type { MarketClient } from '../market/client';
import type { Platform } from '../model/chat';
import type { Metrics } from '../ops/metrics';
import { knownSolUsdRate, solUsdRate } from '../query/usdRate';
import type { Store } from '../store/store';
import type { JobsPart } from './jobs';
import type { Lifecycle } from './lifecycle';
import type { OutboxSignal } from './outboxSignal';
import type { WatchingPart } from './watching';

export interface DeliveryDeps {
  config: Config;
  logger: Logger;
  now: () => Date;
  store: Store;
  client: MarketClient;
  simulated: boolean;
  metrics: Metrics | null;
  cluster: ClusterMember | null;
  dispatcher: Dispatcher;
  chats: readonly RunningChat[];
  watching: WatchingPart;
  jobs: JobsPart;
  outbox: OutboxSignal;
  lifecycle: Lifecycle;
}

export function createDeliveryPart(deps: DeliveryDeps): Delivery {
  const { logger, now, store, client, simulated, metrics, cluster, dispatcher, chats, watching, lifecycle } = deps;
  const senders = chats.flatMap((chat) => (chat.sender === null ? [] : [simulated ? simulatedDataSender(chat.sender) : chat.sender]));
  const delivery = createDelivery({
    store,
    // On the simulator every alert says so, on every platform. Only a process with the sender role sends.
    senders: deps.config.roles.set.has('sender') ? senders : [],
    // With several processes, a platform's alerts go out from the one holding its sender lease.
    ...(cluster === null ? {} : { active: (platform: Platform) => cluster.holds(senderLease(platform)) }),
    buttonsFor: (card, chat) => dispatcher.buttonsFor(card, chat),
    // A price move carries the picture of its window. USD is filled in at send time: an alert seen
    // before the SOL→USD rate was known waits for one (bounded) rather than going out in SOL alone.
    alertCard: usdAtSend(alertCardWithChart, async (address) => knownSolUsdRate(client) ?? solUsdRate(client, address)),
    logger,
    now,
    // A paused chat's follows leave the watcher's targets.
    onPaused: () => void watching.resync(null).catch((error: unknown) => logger.warn({ err: error }, 'resync after a pause failed')),
    ...(metrics === null ? {} : { onDelivered: metrics.delivered }),
  });
  deps.outbox.onWritten(() => delivery.notify());
  const offAlerts = watching.watcher.onAlerts(() => {
    deps.outbox.written();
    void deps.jobs.walletClusters.runNow();
    // A target told is done: it leaves the store and the watcher.
    void watching.follows.endReachedTargets();
  });
  lifecycle.onStop('alertHook', async () => offAlerts());
  // Sends under way finish and are recorded; nothing new starts.
  lifecycle.onStop('delivery', () => delivery.stop(), 'drains');
  return delivery;
}
