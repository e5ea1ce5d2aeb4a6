/**
 * The Prometheus metrics of `GET /metrics` (prom-client): Node's and the process's defaults, and
 * the bot's own, named `tokenwatch_…`.
 *
 * Counters and gauges are not kept here: each is read, when scraped, from the counters the parts
 * keep for themselves and `/status` reads (the watcher's, the stream client's, the market client's,
 * delivery's, the Dispatcher's, the reconciliation's, the store's counts), so the two never
 * disagree and the alert path pays nothing for a metric. Only the histograms are recorded here,
 * through the hooks the parts call with a duration (`onDelivered`, `onAttempt`, `onAnswered`,
 * `onRun`): a duration is no counter a part keeps.
 *
 * Labels never carry a chat id, an address or anything a person or the service wrote: platforms,
 * alert kinds, commands and endpoints come from the bot's own lists (a kind or command it does not
 * know is `other` or `unknown`), and statuses from a short list (src/model/statusLabel.ts).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { alertKind } from '../alerts/registry';
import { platformLeaseLabels } from '../chats/platforms';
import type { DrainCounters, SendFailure } from '../delivery/outboxDrain';
import type { CommandCount } from '../dispatch/dispatcher';
import { ENDPOINTS, type EndpointName } from '../market/endpoints';
import type { EndpointStats } from '../market/client';
import type { ConnectionState, StreamStatus } from '../market/stream';
import type { Platform } from '../model/chat';
import type { OutboxEntry } from '../model/follow';
import type { Store } from '../store/store';
import type { WatcherStatus } from '../watch/watcher';

const PREFIX = 'tokenwatch_';
/**
 * The outbox's waiting rows are counted up to this many: past it the gauge reads this figure. The
 * bound keeps a scrape cheap when a backlog runs to hundreds of thousands (a count is a scan).
 */
export const WAITING_COUNT_LIMIT = 50_000;

/** Every state a stream socket can be in, each a series of its own (0 included), so a state that empties reads 0, not gone. */
const SOCKET_STATES: Record<ConnectionState, true> = {
  connecting: true,
  open: true,
  backoff: true,
  'auth-failed': true,
  rejected: true,
  closed: true,
};
const SEND_FAILURES: Record<SendFailure, true> = { throttled: true, error: true, gone: true };

/** What the metrics read when scraped: each part's own counters. */
export interface MetricSources {
  watcher: () => WatcherStatus;
  streams: () => StreamStatus;
  market: () => Record<EndpointName, EndpointStats>;
  /** Delivery's counters for a platform (null: none runs there). */
  delivery: (platform: Platform) => DrainCounters | null;
  commands: () => readonly CommandCount[];
  reconcile: () => { runs: number; rows: number };
  store: {
    outbox: Pick<Store['outbox'], 'waiting'>;
    chats: Pick<Store['chats'], 'pausedCount'>;
    follows: Pick<Store['follows'], 'countByKind'>;
  };
  /** The platforms alerts go out on (one drain each). */
  platforms: () => readonly Platform[];
  /** Each running chat's requests to its platform's API, by status label. */
  platformRequests: () => ReadonlyArray<{ platform: Platform; statuses: Readonly<Record<string, number>> }>;
  /** This process as one of several (TOKENWATCH_ROLES); absent when it runs the bot alone. */
  cluster?: {
    /** Watcher partitions it holds. */
    partitions: () => number;
    /** Whether it holds a named lease (`sender:telegram`…). */
    holds: (lease: string) => boolean;
    /** Live processes of the bot. */
    processes: () => Promise<number>;
  };
  /** Epoch ms; default Date.now. */
  now?: () => number;
}

/**
 * The named leases a process may hold, as the lease metric's label: a fixed list, each chat
 * platform's (its sender's, and Telegram's poller) as its entry in src/chats/platforms.ts names them.
 */
const namedLeases = (): readonly string[] => platformLeaseLabels();

type Labels<L extends string> = Partial<Record<L, string>>;
type Samples<L extends string> = Iterable<readonly [Labels<L>, number]>;

/** An alert kind as a label: one of the kinds the bot knows, or `other`. */
function kindLabel(kind: string): string {
  return alertKind(kind) === undefined ? 'other' : kind;
}

/** Reads `read` for every platform alerts go out on, at once. */
async function perPlatform<T>(sources: MetricSources, read: (platform: Platform) => Promise<T>): Promise<Array<[Platform, T]>> {
  return Promise.all(sources.platforms().map(async (platform): Promise<[Platform, T]> => [platform, await read(platform)]));
}

/** Adds `value` to the sample of `labels` (two kinds that read `other` are one series). */
function addTo<L extends string>(samples: Map<string, [Labels<L>, number]>, labels: Labels<L>, value: number): void {
  const key = JSON.stringify(labels);
  const sample = samples.get(key);
  if (sample === undefined) samples.set(key, [labels, value]);
  else sample[1] += value;
}

export class Metrics {
  readonly registry = new Registry();
  private readonly deliverySeconds: Histogram;
  private readonly requestSeconds: Histogram<'endpoint'>;
  private readonly commandSeconds: Histogram<'command'>;
  private readonly reconcileSeconds: Histogram;
  /** Scrapes so far: what a read shared by two metrics is keyed by. */
  private scrapes = 0;

  constructor(options: { defaults?: boolean } = {}) {
    // The process's CPU, memory and open files, and Node's heap, event loop lag and collections.
    if (options.defaults ?? true) collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    this.deliverySeconds = new Histogram({
      name: `${PREFIX}alert_delivery_seconds`,
      help: 'From the change being seen to the platform accepting its alert.',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: `${PREFIX}service_request_seconds`,
      help: 'One HTTP attempt to the market data service, answered or not.',
      labelNames: ['endpoint'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.commandSeconds = new Histogram({
      name: `${PREFIX}command_seconds`,
      help: 'One command, from the Dispatcher taking it to its answer being ready.',
      labelNames: ['command'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.reconcileSeconds = new Histogram({
      name: `${PREFIX}reconcile_seconds`,
      help: 'One reconciliation run, every target read again over REST.',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    });
  }

  /** Delivery's hook: the platform accepted a message carrying these rows. */
  readonly delivered = (_platform: Platform, rows: readonly OutboxEntry[], at: Date): void => {
    for (const row of rows) this.deliverySeconds.observe(Math.max(0, (at.getTime() - row.event.at) / 1000));
  };

  /** The market client's hook: one HTTP attempt ended. */
  readonly requested = (endpoint: EndpointName, seconds: number): void => {
    this.requestSeconds.observe({ endpoint }, seconds);
  };

  /** The Dispatcher's hook: a command (a loaded one's name, or `unknown`) was answered. */
  readonly answered = (command: string, seconds: number): void => {
    this.commandSeconds.observe({ command }, seconds);
  };

  /** The reconciliation's hook: a run ended. */
  readonly reconciled = (seconds: number): void => {
    this.reconcileSeconds.observe(seconds);
  };

  /** Registers every counter and gauge, each read from `sources` when scraped. Called once, when the parts run. */
  watch(sources: MetricSources): void {
    // Registered in this order, the metrics keep their order on the page.
    this.watchAlerts(sources);
    this.watchOutbox(sources);
    this.watchStreams(sources);
    this.watchService(sources);
    this.watchCommandsAndFollows(sources);
    if (sources.cluster !== undefined) this.watchCluster(sources.cluster);
  }

  /** Alerts found, delivered and failed, by kind and platform. */
  private watchAlerts(sources: MetricSources): void {
    this.counter('alerts_detected_total', 'Alert events found, by kind.', ['kind'], () => {
      const samples = new Map<string, [Labels<'kind'>, number]>();
      for (const [kind, count] of Object.entries(sources.watcher().eventsByKind)) addTo(samples, { kind: kindLabel(kind) }, count);
      return samples.values();
    });
    this.counter(
      'alerts_delivered_total',
      'Alerts a platform accepted (each alert of a digest counted), by platform and kind.',
      ['platform', 'kind'],
      () => {
        const samples = new Map<string, [Labels<'platform' | 'kind'>, number]>();
        for (const platform of sources.platforms()) {
          for (const [kind, count] of Object.entries(sources.delivery(platform)?.sentByKind ?? {}))
            addTo(samples, { platform, kind: kindLabel(kind) }, count);
        }
        return samples.values();
      },
    );
    this.counter(
      'alerts_failed_total',
      'Sends that failed: throttled (the platform asked to wait), error (tried again later), gone (the chat was paused).',
      ['platform', 'reason'],
      () =>
        sources.platforms().flatMap((platform) => {
          const failures = sources.delivery(platform)?.failures;
          return (Object.keys(SEND_FAILURES) as SendFailure[]).map((reason) => [{ platform, reason }, failures?.[reason] ?? 0] as const);
        }),
    );
  }

  /** The outbox's waiting alerts and the paused chats, per platform: each a query to the store. */
  private watchOutbox(sources: MetricSources): void {
    const now = sources.now ?? Date.now;
    // Two gauges read the outbox's waiting rows: one query per scrape serves both.
    let waitingRead: { scrape: number; rows: Promise<Array<[Platform, { count: number; oldest: Date | null }]>> } | null = null;
    const waiting = () => {
      if (waitingRead?.scrape !== this.scrapes)
        waitingRead = {
          scrape: this.scrapes,
          rows: perPlatform(sources, (platform) => sources.store.outbox.waiting(platform, WAITING_COUNT_LIMIT)),
        };
      return waitingRead.rows;
    };
    this.gauge(
      'outbox_pending',
      `Alerts waiting to be sent, in chats not paused (counted up to ${WAITING_COUNT_LIMIT}).`,
      ['platform'],
      async () => (await waiting()).map(([platform, rows]) => [{ platform }, rows.count] as const),
    );
    this.gauge(
      'outbox_oldest_pending_seconds',
      'Age of the oldest alert waiting to be sent, in chats not paused (0 when none waits).',
      ['platform'],
      async () =>
        (await waiting()).map(
          ([platform, rows]) => [{ platform }, rows.oldest === null ? 0 : Math.max(0, (now() - rows.oldest.getTime()) / 1000)] as const,
        ),
    );
    this.gauge(
      'chats_paused',
      'Chats the bot can no longer write to; their alerts wait until /track or /unmute there.',
      ['platform'],
      async () =>
        (await perPlatform(sources, (platform) => sources.store.chats.pausedCount(platform))).map(
          ([platform, count]) => [{ platform }, count] as const,
        ),
    );
  }

  /** The stream sockets by state, their subscriptions, reconnects and frames. */
  private watchStreams(sources: MetricSources): void {
    this.gauge('stream_sockets', 'Live stream sockets, by state.', ['state'], () => {
      const counts = new Map<string, number>(Object.keys(SOCKET_STATES).map((state) => [state, 0]));
      for (const socket of sources.streams().sockets) counts.set(socket.state, (counts.get(socket.state) ?? 0) + 1);
      return [...counts].map(([state, count]) => [{ state }, count] as const);
    });
    this.gauge('stream_subscriptions', 'Live stream subscriptions placed on sockets.', [], () => [
      [{}, sources.streams().sockets.reduce((sum, socket) => sum + socket.subscriptions, 0)],
    ]);
    this.counter('stream_reconnects_total', 'Stream connection attempts after a socket’s first.', [], () => [
      [{}, sources.streams().counters.reconnects],
    ]);
    this.counter(
      'stream_frames_total',
      'Stream frames: read off the sockets, unreadable, of an unknown kind, over the size limit, and events dropped from a full queue.',
      ['result'],
      () => {
        const { received, unreadable, unknown, oversized, dropped } = sources.streams().counters;
        return [
          [{ result: 'read' }, received],
          [{ result: 'unreadable' }, unreadable],
          [{ result: 'unknown' }, unknown],
          [{ result: 'oversized' }, oversized],
          [{ result: 'dropped' }, dropped],
        ];
      },
    );
  }

  /** HTTP attempts to the market data service, cache hits and 429s, by endpoint. */
  private watchService(sources: MetricSources): void {
    this.counter(
      'service_requests_total',
      'HTTP attempts to the market data service, by endpoint and status (error: no answer).',
      ['endpoint', 'status'],
      () => {
        const stats = sources.market();
        return ENDPOINTS.flatMap((endpoint) =>
          Object.entries(stats[endpoint].answers).map(([status, count]) => [{ endpoint, status }, count] as const),
        );
      },
    );
    this.counter('service_cache_hits_total', 'Look-ups answered from the cache, by endpoint.', ['endpoint'], () => {
      const stats = sources.market();
      return ENDPOINTS.map((endpoint) => [{ endpoint }, stats[endpoint].cacheHits] as const);
    });
    this.counter('service_rate_limited_total', '429 answers from the market data service, by endpoint.', ['endpoint'], () => {
      const stats = sources.market();
      return ENDPOINTS.map((endpoint) => [{ endpoint }, stats[endpoint].rateLimited] as const);
    });
  }

  /** Commands run, requests to the platforms' APIs, follows and the reconciliation's finds. */
  private watchCommandsAndFollows(sources: MetricSources): void {
    this.counter(
      'commands_total',
      'Commands run, by command, platform and result (ok, usage, not-manager, cooldown, error).',
      ['command', 'platform', 'result'],
      () =>
        sources
          .commands()
          .map((entry) => [{ command: entry.command, platform: entry.platform, result: entry.result }, entry.count] as const),
    );
    this.counter(
      'platform_requests_total',
      'Requests to Discord’s and Telegram’s APIs, by platform and status (error: no answer).',
      ['platform', 'status'],
      () =>
        sources
          .platformRequests()
          .flatMap(({ platform, statuses }) => Object.entries(statuses).map(([status, count]) => [{ platform, status }, count] as const)),
    );
    this.gauge('follows', 'Follows of tokens and of wallets, over every chat.', ['kind'], async () => {
      const counts = await sources.store.follows.countByKind();
      return [
        [{ kind: 'token' }, counts.token],
        [{ kind: 'wallet' }, counts.wallet],
      ];
    });
    this.counter('reconcile_changes_total', 'Outbox rows the reconciliation added: changes the streams had not brought.', [], () => [
      [{}, sources.reconcile().rows],
    ]);
  }

  /** This process as one of several: its partitions, its named leases, the live processes. */
  private watchCluster(cluster: NonNullable<MetricSources['cluster']>): void {
    this.gauge('cluster_partitions', 'Watcher partitions (of 256) this process holds.', [], () => [[{}, cluster.partitions()]]);
    this.gauge(
      'cluster_lease_held',
      'Named leases this process holds (1) or not (0): a platform’s sender, Telegram’s poller.',
      ['lease'],
      () => namedLeases().map((lease) => [{ lease }, cluster.holds(lease) ? 1 : 0] as const),
    );
    this.gauge('cluster_processes', 'Live processes of the bot (member leases not run out).', [], async () => [
      [{}, await cluster.processes()],
    ]);
  }

  /** A counter read from the parts' own counts when scraped. */
  private counter<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: () => Samples<L> | Promise<Samples<L>>,
  ): void {
    this.mirror('counter', name, help, labelNames, read);
  }

  /** A gauge read from the parts or the store when scraped. */
  private gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: () => Samples<L> | Promise<Samples<L>>,
  ): void {
    this.mirror('gauge', name, help, labelNames, read);
  }

  /** The exposition text, and its content type. */
  async scrape(): Promise<{ text: string; contentType: string }> {
    this.scrapes += 1;
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  /**
   * A counter or gauge whose samples are read when scraped. A read that fails (the store away)
   * leaves the metric without samples for that scrape rather than failing the whole page.
   */
  private mirror<L extends string>(
    type: 'counter' | 'gauge',
    name: string,
    help: string,
    labelNames: readonly L[],
    read: () => Samples<L> | Promise<Samples<L>>,
  ): void {
    const config = { name: `${PREFIX}${name}`, help, labelNames, registers: [this.registry] };
    if (type === 'counter') {
      new Counter<L>({
        ...config,
        async collect() {
          const samples = await readOrNothing(read);
          this.reset();
          for (const [labels, value] of samples) this.inc(labels, value);
        },
      });
    } else {
      new Gauge<L>({
        ...config,
        async collect() {
          const samples = await readOrNothing(read);
          this.reset();
          for (const [labels, value] of samples) this.set(labels, value);
        },
      });
    }
  }
}

async function readOrNothing<L extends string>(read: () => Samples<L> | Promise<Samples<L>>): Promise<Samples<L>> {
  try {
    return await read();
  } catch {
    return [];
  }
}
