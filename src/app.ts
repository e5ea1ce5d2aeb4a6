/**
 * The bot wired once, in the order each part needs the one before it:
 *
 *   settings → market data (the service, checked once, or the built-in simulator) → store
 *   (DATABASE_URL or DATABASE_PATH) → live streams → this process's part of a bot of several
 *   (TOKENWATCH_ROLES, src/cluster/) → watcher → commands (dispatcher) → chats → delivery
 *   → reconciliation → joining the other processes → the operators' HTTP server (HTTP_PORT:
 *   health, readiness, metrics)
 *
 * The roles decide what runs: without the watcher role the watcher holds no partition and
 * subscribes nothing; without the sender role delivery has no sender; without a chat's role its
 * starter makes only its alert sender, or nothing. Unset, every role runs, as one process.
 *
 * On the simulator, every reply and every alert is marked "simulated data" on its way to a chat
 * (src/cards/simulatedData.ts), so simulated prices never pass for real ones.
 *
 * Each part starts in its own function in src/app/ and registers its stop once with the lifecycle
 * (src/app/lifecycle.ts), whose layers fix the stop order. Every part takes its neighbours as
 * arguments, so a test starts the whole bot in-process with a temporary database and the
 * simulator, or any part alone. `stop()` takes it down in the lifecycle's order: leases given
 * back, no new commands, no new alerts, sends under way finished (for SHUTDOWN_TIMEOUT at most),
 * sockets and the database closed.
 */
import type { ChatStarter, PlatformEnv, RunningChat } from './chats/startChats';
import type { ConsoleIo } from './chats/console/start';
import type { ClusterMember } from './cluster/member';
import type { Config } from './config';
import type { Delivery } from './delivery/delivery';
import type { Dispatcher } from './dispatch/dispatcher';
import type { CallPeaks } from './jobs/callPeaks';
import type { DailyDigests } from './jobs/dailyDigest';
import type { ReconcileJob } from './jobs/reconcile';
import type { Logger } from './log';
import type { MarketClient } from './market/client';
import type { StreamClient } from './market/stream';
import type { OpsServer } from './ops/httpServer';
import { Metrics } from './ops/metrics';
import { plainAddressWarning } from './plainAddresses';
import { platformAddresses } from './chats/platforms';
import type { RunningSimulator } from 'tmds-simulator';
import type { Store } from './store/store';
import type { Watcher } from './watch/watcher';
import { startChatsPart } from './app/chats';
import { createCluster, joinCluster } from './app/cluster';
import { startCommands } from './app/commands';
import { createDeliveryPart } from './app/delivery';
import { startJobs } from './app/jobs';
import { Lifecycle } from './app/lifecycle';
import { startMarket } from './app/market';
import { startOpsPart } from './app/ops';
import { OutboxSignal } from './app/outboxSignal';
import { RunningChats } from './app/runningChats';
import { startStore } from './app/store';
import { startStreams } from './app/streams';
import { createWatching, startWatching } from './app/watching';

export interface AppOptions {
  config: Config;
  logger: Logger;
  /** The console chat's input and output, used when no platform is configured. */
  console: ConsoleIo;
  /**
   * The chats to try instead of the registry's platforms (src/chats/platforms.ts: the built-in
   * ones and those registered with `registerChatPlatform`); tests give fakes of their own.
   */
  platforms?: readonly ChatStarter[];
  /** Where a chat platform's own settings section reads its variables (default: the process's environment). */
  env?: PlatformEnv;
  now?: () => Date;
}

export interface App {
  store: Store;
  market: MarketClient;
  streams: StreamClient;
  watcher: Watcher;
  dispatcher: Dispatcher;
  delivery: Delivery;
  reconcile: ReconcileJob;
  /** The daily watchlists' schedules. */
  digests: DailyDigests;
  /** The calls' peak job (on its timer; tests run it at once). */
  callPeaks: CallPeaks;
  chats: RunningChat[];
  /** The built-in simulator, when no service is configured. */
  simulator: RunningSimulator | null;
  /** The service's base address. */
  baseUrl: string;
  /** The operators' HTTP server (/healthz, /readyz, /metrics); null without HTTP_PORT. */
  ops: OpsServer | null;
  /** This process as one of several (TOKENWATCH_ROLES); null when it runs every role alone. */
  cluster: ClusterMember | null;
  /** Resolves when a chat ended by itself (the console at the end of its input). */
  ended: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The parts the rest stands on, in the order they start: the market data service, the store, the
 * streams, this process's place among several, the watching (made, not yet started) and the jobs.
 */
async function startFoundation(config: Config, logger: Logger, now: () => Date, lifecycle: Lifecycle) {
  const plain = plainAddressWarning(config, platformAddresses(config, config.env));
  if (plain !== null) logger.warn(plain);
  // Only with the operators' server: without it nothing would read them.
  const metrics = config.http === null ? null : new Metrics();
  const market = await startMarket(config, logger, metrics, lifecycle);
  const { client } = market;
  const store = await startStore(config, logger, lifecycle);
  const live = startStreams(config, logger, market, lifecycle);
  const running = new RunningChats();
  const cluster = createCluster({ config, logger, store, streams: live.streams, chats: running, lifecycle });
  const outbox = new OutboxSignal(cluster);
  const watching = createWatching({ config, logger, now, store, client, live, cluster, chats: running, lifecycle });
  const jobs = startJobs({ config, logger, now, store, client, cluster, outbox, lifecycle });
  return {
    metrics,
    market,
    client,
    simulated: market.simulator !== null,
    store,
    streams: live.streams,
    live,
    running,
    cluster,
    outbox,
    watching,
    jobs,
  };
}

export async function startApp(options: AppOptions): Promise<App> {
  const { config, logger } = options;
  const now = options.now ?? (() => new Date());
  const lifecycle = new Lifecycle(logger, config.shutdownTimeoutMs);
  try {
    const foundation = await startFoundation(config, logger, now, lifecycle);
    const { metrics, market, client, simulated, store, streams, live, running, cluster, outbox, watching, jobs } = foundation;
    const { watcher } = watching;
    const { digests, callPeaks } = jobs;
    const dispatcher = await startCommands({
      config,
      logger,
      now,
      store,
      client,
      simulated,
      metrics,
      cluster,
      watching,
      digests,
      chats: running,
    });
    const chats = await startChatsPart({
      ...{ config, logger, store, market, dispatcher, resync: watching.resync, console: options.console },
      ...{ platforms: options.platforms, env: options.env, running, lifecycle },
    });
    const delivery = createDeliveryPart({
      config,
      logger,
      now,
      store,
      client,
      simulated,
      metrics,
      cluster,
      dispatcher,
      chats,
      watching,
      jobs,
      outbox,
      lifecycle,
    });
    const reconcile = await startWatching({ config, logger, client, lifecycle, live }, watching, metrics);
    delivery.start();
    // With several processes, the daily watchlists are written where alerts are sent (a second
    // sender writing one is skipped by its event key).
    if (config.roles.set.has('sender')) await digests.start();
    await joinCluster(cluster, { config, logger, store, watcher, reconcile, delivery, digests, chats });
    const ops = await startOpsPart({
      config,
      logger,
      metrics,
      store,
      client,
      streams,
      watcher,
      dispatcher,
      delivery,
      reconcile,
      chats,
      cluster,
      lifecycle,
    });
    const stop = async (): Promise<void> => {
      logger.info({ timeoutMs: config.shutdownTimeoutMs }, 'shutting down');
      await lifecycle.stop();
    };
    // Never resolves when no chat ends by itself (Discord, Telegram): those run until a signal.
    const ended = Promise.race(chats.flatMap((chat) => (chat.ended === null ? [] : [chat.ended])));
    const simulator = market.simulator;
    const baseUrl = market.endpoints.baseUrl;
    return {
      store,
      market: client,
      streams,
      watcher,
      dispatcher,
      delivery,
      reconcile,
      digests,
      callPeaks,
      chats,
      simulator,
      baseUrl,
      ops,
      cluster,
      ended,
      stop,
    };
  } catch (error) {
    await lifecycle.stop().catch(() => undefined);
    throw error;
  }
}
