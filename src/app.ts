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
 * Every part takes its neighbours as arguments, so a test starts the whole bot in-process with a
 * temporary database and the simulator, or any part alone. `stop()` takes it down in the other
 * order: leases given back, no new commands, no new alerts, sends under way finished (for
 * SHUTDOWN_TIMEOUT at most), sockets and the database closed.
 */
import { randomBytes } from 'node:crypto';
import { alertCardWithChart } from './alerts/alertCard';
import { withSimulatedData } from './cards/simulatedData';
import { createConsoleChat } from './chats/console/start';
import { PLATFORM_CHATS, startChats, type ChatStarter, type RunningChat } from './chats/startChats';
import type { Config } from './config';
import { createDelivery, type Delivery } from './delivery/delivery';
import { FollowService } from './follows/followService';
import { simulatedDataSender } from './delivery/simulatedDataSender';
import { usdAtSend } from './delivery/usdAtSend';
import { createStatusSource } from './follows/status';
import { streamRoom } from './follows/streamRoom';
import { streamShareOf } from './follows/followLimits';
import { Dispatcher } from './dispatch/dispatcher';
import { loadCommands } from './dispatch/registry';
import { registerSecret, silentLogger, type Logger } from './log';
import { redactUrl } from './urlCredentials';
import { plainAddressWarning } from './plainAddresses';
import { MarketClient, type MarketClientOptions } from './market/client';
import { checkService } from './market/serviceCheck';
import { StreamClient } from './market/stream';
import { raiseOpenFilesLimit, streamSocketsAllowed, type OpenFilesLimit } from './openFiles';
import { startReconcileJob, type ReconcileJob } from './jobs/reconcile';
import { startUsdRateRefresh } from './jobs/usdRateRefresh';
import { createDailyDigests, type DailyDigests } from './jobs/dailyDigest';
import { CallPeaks } from './jobs/callPeaks';
import { CallBook } from './query/callBook';
import { QueryService } from './query/service';
import { knownSolUsdRate, solUsdRate } from './query/usdRate';
import { startSimulator, type RunningSimulator } from './simulator/server';
import { LIFELIKE_PACE } from './simulator/pace';
import { openStore } from './store/openStore';
import type { Store } from './store/store';
import { createWatcher, type Watcher } from './watch/watcher';
import { createWalletClusters } from './jobs/walletClusters';
import type { OpsServer } from './ops/httpServer';
import { Metrics } from './ops/metrics';
import { startOps } from './ops/start';
import { CALL_PEAKS_LEASE, createClusterMember, senderLease, type ClusterMember } from './cluster/member';
import { memberParts } from './cluster/parts';
import { PostgresStore } from './store/postgres/postgresStore';
import { PgDiscordGateway } from './store/postgres/pgDiscordGateway';
import type { Platform } from './model/chat';

export interface AppOptions {
  config: Config;
  logger: Logger;
  /** The console chat's input and output, used when no platform is configured. */
  console: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; interactive: boolean; outDir: string; logs?: string };
  /** The platform chats to try (default: Discord and Telegram); tests add their own. */
  platforms?: readonly ChatStarter[];
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

/** A watcher's stream sockets as the other processes see them in /status: sockets, open ones, subscriptions. */
function streamFigures(streams: StreamClient): { sockets: number; open: number; subscriptions: number } {
  const sockets = streams.status().sockets;
  return { sockets: sockets.length, open: sockets.filter((socket) => socket.state === 'open').length, subscriptions: sockets.reduce((sum, socket) => sum + socket.subscriptions, 0) };
}

/** Runs `close` steps in order, each even when one before it failed; the first failure is thrown at the end. */
async function closeAll(steps: Array<() => Promise<unknown> | undefined>): Promise<void> {
  let first: unknown = null;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      first ??= error;
    }
  }
  if (first !== null) throw first;
}

/** Whether `work` ended before `deadline` (epoch ms), or throws its failure; past the deadline it goes on unawaited. */
async function settledBy(work: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One `token-data` call before anything starts (src/market/serviceCheck.ts): a refused key throws
 * ServiceKeyRefusedError, which stops start-up; a service that does not answer is one warning.
 * Its own client, without retries and without log lines of its own, so the check waits for one
 * attempt at most and is one line in the log whatever happens.
 */
async function checkServiceAtStart(clientOptions: MarketClientOptions, logger: Logger): Promise<void> {
  const checker = new MarketClient({ ...clientOptions, logger: silentLogger, maxRetries: 0 });
  try {
    const check = await checkService(checker, clientOptions.baseUrl);
    if (check.status === 'ok') {
      logger.info({ baseUrl: redactUrl(clientOptions.baseUrl) }, 'market data service answered; API key accepted');
    } else {
      const { kind, status } = check.error;
      logger.warn(
        { baseUrl: redactUrl(clientOptions.baseUrl), kind, status, reason: check.error.message },
        'market data service did not answer the start-up check; starting anyway, look-ups and alerts resume when it answers',
      );
    }
  } finally {
    await checker.close();
  }
}

/**
 * Raises the soft open-files limit to the hard one (src/openFiles.ts) and says in one line what
 * the stream sockets may use: the limit, and how it came to be.
 */
function openFilesAtStart(logger: Logger, filesPerSocket: 1 | 2): { limit: OpenFilesLimit | null; maxSockets: number | null } {
  const limit = raiseOpenFilesLimit();
  if (limit === null) {
    logger.warn('could not read the open-files limit; the live streams open as many sockets as the system lets them');
    return { limit, maxSockets: null };
  }
  const maxSockets = streamSocketsAllowed(limit, filesPerSocket);
  if (limit.notRaised !== null) {
    logger.warn(
      { soft: limit.soft, hard: limit.hard, streamSockets: maxSockets, reason: limit.notRaised },
      'open-files limit not raised to its hard limit; raise it before start (ulimit -n, systemd LimitNOFILE=) for more live streams',
    );
  } else logger.info({ soft: limit.soft, hard: limit.hard, raisedFrom: limit.raisedFrom, streamSockets: maxSockets }, 'open-files limit');
  return { limit, maxSockets };
}

export async function startApp(options: AppOptions): Promise<App> {
  const { config, logger } = options;
  const now = options.now ?? (() => new Date());
  const closers: Array<() => Promise<unknown> | undefined> = [];
  try {
    let simulator: RunningSimulator | null = null;
    let market = config.market;
    if (market === null) {
      const apiKey = randomBytes(16).toString('hex');
      // A market that trades by itself, so that a tracked token alerts within minutes with nothing forced (src/simulator/pace.ts).
      simulator = await startSimulator({ apiKey, seed: config.simulatorSeed, port: 0, style: config.simulatorStyle, pace: LIFELIKE_PACE });
      closers.unshift(() => simulator?.close());
      market = { baseUrl: simulator.baseUrl, wsUrl: simulator.wsUrl, apiKey };
    }
    registerSecret(market.apiKey);
    const plain = plainAddressWarning(config);
    if (plain !== null) logger.warn(plain);
    const simulated = simulator !== null;

    // Only with the operators' server: without it nothing would read them.
    const metrics = config.http === null ? null : new Metrics();

    const clientOptions: MarketClientOptions = {
      baseUrl: market.baseUrl,
      apiKey: market.apiKey,
      logger,
      connectTimeoutMs: config.connectTimeoutMs,
      headersTimeoutMs: config.timeoutMs,
      bodyTimeoutMs: config.timeoutMs,
      maxRetries: config.maxRetries,
      limits: config.rateLimits,
      maxRateLimitWaitMs: config.rateLimitMaxWaitMs,
      cacheTtlMs: config.cacheTtlMs,
      tokenBatchSize: config.tokenBatchSize,
      callDeadlineMs: config.callDeadlineMs,
      maxBodyBytes: config.bodyLimits,
      cacheMaxBytes: config.cacheMaxBytes,
    };
    if (!simulated) await checkServiceAtStart(clientOptions, logger);
    const client = new MarketClient({ ...clientOptions, ...(metrics === null ? {} : { onAttempt: metrics.requested }) });
    closers.unshift(() => client.close());

    // PostgreSQL at DATABASE_URL, else the SQLite file at DATABASE_PATH. Throws StoreOpenError (one
    // line naming the file, or the address without its password): main prints it.
    const store = await openStore(config, { logger });
    closers.unshift(() => store.close());

    // Every stream socket is an open file; the built-in simulator's end of it is one more.
    const { limit: openFiles, maxSockets } = openFilesAtStart(logger, simulated ? 2 : 1);
    const streams = new StreamClient({
      wsUrl: market.wsUrl,
      apiKey: market.apiKey,
      logger,
      maxFrameBytes: config.wsMaxFrameBytes,
      queueMaxBytes: config.wsQueueMaxBytes,
      subscriptionsPerSocket: config.wsSubscriptionsPerSocket,
      ...(maxSockets === null ? {} : { maxSockets }),
    });
    closers.unshift(() => streams.close());
    // The chats start after the commands they serve; /status and the other processes read their shards once they run.
    let running: readonly RunningChat[] = [];
    // Several processes (TOKENWATCH_ROLES): each takes its share under leases in PostgreSQL.
    const roles = config.roles.set;
    let cluster: ClusterMember | null = null;
    const pgStore = store instanceof PostgresStore ? store : null;
    if (config.roles.clustered) {
      if (pgStore === null || config.databaseUrl === null) throw new Error('TOKENWATCH_ROLES needs DATABASE_URL');
      const senderPlatforms = [...(config.telegram === null ? [] : (['telegram'] as const)), ...(config.discord === null ? [] : (['discord'] as const))];
      cluster = createClusterMember({
        store: pgStore,
        databaseUrl: config.databaseUrl,
        roles,
        senderPlatforms,
        poller: roles.has('telegram') && config.telegram !== null && config.telegram.webhook === null,
        // The others read these for /status and /readyz: this process's shards and, as a watcher, its streams.
        info: () => ({
          shards: running.flatMap((chat) => chat.shards?.().map((shard) => shard.id) ?? []),
          pid: process.pid,
          streams: roles.has('watcher') ? streamFigures(streams) : null,
        }),
        logger,
      });
      const member = cluster;
      closers.unshift(() => member.stop());
    }

    const watcher = createWatcher({
      store,
      streams,
      logger,
      now: () => now().getTime(),
      describeToken: async (address) => client.token(address),
      // USD on alerts and targets: the rate the look-ups derived, kept fresh by usdRate below.
      solUsd: () => knownSolUsdRate(client),
      // With several processes, the targets of the partitions this one holds (none without the watcher role).
      ...(cluster === null ? {} : { scope: cluster.scope }),
    });
    closers.unshift(() => watcher.close());

    // A follow change re-reads that address's followers only; null (a chat resumed) re-reads them all.
    // With several processes, the other watchers hear of it too.
    const resync = async (address: string | null): Promise<void> => {
      cluster?.followsChanged(address);
      await watcher.resync(address ?? undefined);
    };
    const { shares } = config;
    const follows = new FollowService({
      store,
      logger,
      resync,
      room: streamRoom({ store, streams, openFiles }),
      limits: {
        perChat: shares.followsPerChat,
        perServer: shares.followsPerServer,
        streamShare: 'targets' in shares.streamSharePerChat ? shares.streamSharePerChat.targets : streamShareOf(shares.streamSharePerChat.percent, maxSockets),
      },
    });
    const status = createStatusSource({
      store,
      streams: () => streams.status(),
      startedAt: now().getTime(),
      openFiles,
      shards: () => (running.some((chat) => chat.shards !== undefined) ? running.flatMap((chat) => chat.shards?.() ?? []) : null),
      ...(cluster === null ? {} : { processes: cluster.members }),
    });
    // Daily watchlists: written to the outbox on their schedules, sent by delivery (made below).
    let notifyDelivery = (): void => undefined;
    const outboxWritten = (): void => {
      notifyDelivery();
      cluster?.outboxWritten();
    };
    const digests = createDailyDigests({ store, market: client, logger, now, onWritten: outboxWritten });
    closers.unshift(() => digests.stop());
    // Wallets moving together: checked from the outbox after the watcher writes alerts (below).
    const walletClusters = createWalletClusters({ store, now, logger, onWritten: outboxWritten });
    closers.unshift(() => walletClusters.stop());
    // Calls' peaks: one process reads them (the one holding the lease, or this one alone), on its timer.
    const callPeaks = new CallPeaks({
      calls: store.calls,
      market: client,
      now,
      logger,
      onWritten: outboxWritten,
      milestones: config.calls.milestones,
      requestsPerMinute: config.calls.peakRequestsPerMinute,
      live: store.state,
      active: () => (cluster === null ? true : cluster.holds(CALL_PEAKS_LEASE)),
    });
    callPeaks.start();
    closers.unshift(() => callPeaks.stop());
    const commands = await loadCommands();
    const dispatcher = new Dispatcher({
      commands,
      // With several processes the watchlists are written by the senders: a change here tells them.
      services: {
        query: new QueryService(client, undefined, { technicalsPerChatPerMinute: shares.technicalsPerChatPerMinute }),
        follows,
        status,
        chatSettings: store.chats,
        alertHistory: store.outbox,
        calls: new CallBook(store.calls, now),
        // /testalert's samples go through the asking chat's platform sender (the chats start below).
        sendToChat: async (chat, card) => {
          const sender = running.find((each) => each.sender?.platform === chat.platform)?.sender ?? null;
          if (sender === null) return { status: 'gone', reason: 'this process sends nothing to that platform' };
          return sender.send(chat, simulated ? withSimulatedData(card) : card, []);
        },
        digests: {
          changed: async () => {
            cluster?.digestsChanged();
            if (roles.has('sender')) await digests.changed();
          },
        },
      },
      actionKeys: store.actionKeys,
      actionKeyBudget: { perPerson: shares.actionKeysPerPerson, perChat: shares.actionKeysPerChat },
      logger,
      now,
      // On the simulator every answer says so, whatever chat shows it.
      ...(simulated ? { markCard: withSimulatedData } : {}),
      ...(metrics === null ? {} : { onAnswered: metrics.answered }),
    });

    // Several gateway processes pace their IDENTIFYs and share their sessions through the database.
    const gateway = cluster !== null && pgStore !== null ? new PgDiscordGateway(pgStore.db) : null;
    const pausesChanged = (): void => void resync(null).catch((error: unknown) => logger.warn({ err: error }, 'resync after a chat was paused or resumed failed'));
    const chats = await startChats({ config, logger, dispatcher, store, roles: config.roles.set, gateway, pausesChanged }, options.platforms ?? PLATFORM_CHATS, createConsoleChat(options.console, simulator, market.baseUrl));
    running = chats;
    closers.unshift(async () => {
      await Promise.allSettled(chats.map((chat) => chat.stop()));
    });

    const delivery = createDelivery({
      store,
      // On the simulator every alert says so, on every platform. Only a process with the sender role sends.
      senders: roles.has('sender') ? chats.flatMap((chat) => (chat.sender === null ? [] : [simulated ? simulatedDataSender(chat.sender) : chat.sender])) : [],
      // With several processes, a platform's alerts go out from the one holding its sender lease.
      ...(cluster === null ? {} : { active: (platform: Platform) => cluster.holds(senderLease(platform)) }),
      buttonsFor: (card, chat) => dispatcher.buttonsFor(card, chat),
      // A price move carries the picture of its window. USD is filled in at send time: an alert seen
      // before the SOL→USD rate was known waits for one (bounded) rather than going out in SOL alone.
      alertCard: usdAtSend(alertCardWithChart, async (address) => knownSolUsdRate(client) ?? solUsdRate(client, address)),
      logger,
      now,
      // A paused chat's follows leave the watcher's targets.
      onPaused: () => void resync(null).catch((error: unknown) => logger.warn({ err: error }, 'resync after a pause failed')),
      ...(metrics === null ? {} : { onDelivered: metrics.delivered }),
    });
    notifyDelivery = () => delivery.notify();
    const offAlerts = watcher.onAlerts(() => {
      outboxWritten();
      void walletClusters.runNow();
      // A target told is done: it leaves the store and the watcher.
      void follows.endReachedTargets();
    });
    closers.unshift(() => delivery.stop());

    await watcher.start();
    // Targets told while the bot was stopped, before it could remove them.
    void follows.endReachedTargets();
    const usdRate = startUsdRateRefresh({ market: client, tokens: () => watcher.targets().tokens, logger });
    closers.unshift(() => usdRate.stop());
    const reconcile = startReconcileJob({ watcher, market: client, cron: config.reconcileCron, logger, ...(metrics === null ? {} : { onRun: metrics.reconciled }) });
    closers.unshift(() => reconcile.stop());
    delivery.start();
    // With several processes, the daily watchlists are written where alerts are sent (a second sender writing one is skipped by its event key).
    if (roles.has('sender')) await digests.start();
    // Joins the bot's other processes: its first partitions and leases are taken before it goes on.
    if (cluster !== null && pgStore !== null) {
      const pollers = chats.flatMap((chat) => (chat.poller === undefined ? [] : [chat.poller]));
      await cluster.start(memberParts({ roles, store: pgStore, watcher, reconcile, delivery, digests, pollers, logger }));
    }

    // Throws OpsServerError (the port taken…): main prints its one line.
    const ops =
      config.http === null || metrics === null
        ? null
        : await startOps({ ...config.http, metrics, logger, parts: { store, market: client, streams, watcher, dispatcher, delivery, reconcile, chats, ...(cluster === null ? {} : { cluster: { joined: cluster.joined, processes: cluster.members, partitions: () => cluster.coordinator.partitions().length, holds: cluster.holds }, chatsExpected: (['discord', 'telegram', 'sender'] as const).some((role) => roles.has(role)) }) } });

    const stop = async (): Promise<void> => {
      logger.info({ timeoutMs: config.shutdownTimeoutMs }, 'shutting down');
      // What finishes work under way waits at most until then; the closes after it run regardless.
      const deadline = Date.now() + config.shutdownTimeoutMs;
      const bounded = (what: string, step: () => Promise<unknown>) => async () => {
        if (!(await settledBy(step(), deadline))) logger.warn({ step: what, timeoutMs: config.shutdownTimeoutMs }, 'shutdown timeout reached; closing the rest anyway');
      };
      await closeAll([
        () => ops?.close(),
        // The leases given back first: the other processes take this one's share at once.
        () => cluster?.stop(),
        // No new commands; answers under way finish.
        bounded('chats', async () => Promise.allSettled(chats.map((chat) => chat.stop()))),
        bounded('reconciliation', () => reconcile.stop()),
        () => usdRate.stop(),
        () => digests.stop(),
        // The watcher commits what it holds; delivery stops after it, so those alerts are kept for the next start.
        bounded('watcher', () => watcher.close()),
        async () => offAlerts(),
        // Sends under way finish and are recorded; nothing new starts. One cut short by the
        // timeout is not recorded, and goes out again at the next start.
        bounded('delivery', () => delivery.stop()),
        () => streams.close(),
        () => client.close(),
        () => store.close(),
        () => simulator?.close(),
      ]);
    };
    // Never resolves when no chat ends by itself (Discord, Telegram): those run until a signal.
    const ended = Promise.race(chats.flatMap((chat) => (chat.ended === null ? [] : [chat.ended])));
    return { store, market: client, streams, watcher, dispatcher, delivery, reconcile, digests, callPeaks, chats, simulator, baseUrl: market.baseUrl, ops, cluster, ended, stop };
  } catch (error) {
    await closeAll(closers).catch(() => undefined);
    throw error;
  }
}
