/**
 * The stream client: the four live streams of spec §4.7 for the rest of the bot. It places each
 * subscription on a socket (one per socket by default, packed when configured, or packed while the
 * service takes it with `auto`: packing.ts), never opens more sockets than `maxSockets` (the rest
 * wait for room, counted and logged), turns frames into typed events for the right subscription,
 * counts what it could not read or had to drop, treats a refused key as an outage reported once
 * and retried slowly, and tells a subscriber once when the server refuses its target (which is
 * then retried slowly too).
 */
import type { RawData } from 'ws';
import { registerSecret, scrubSecrets, silentLogger, type Logger } from '../../log';
import { cleanServiceText } from '../../text/unsafe';
import { systemClock, type Clock } from '../clock';
import { STREAMS, type StreamName } from '../endpoints';
import { looksLikeAuth } from './closeReason';
import { ConnectGate } from './connectGate';
import { Connection } from './connection';
import { decodeText, type Decoded } from './decode';
import { DEFAULT_PACK_PROBE_MS, PackingProbe, type PackingSetting } from './packing';
import { DeliveryQueue, type QueueHooks } from './queue';
import { routeEvent } from './route';
import type { Subscription } from './subscription';
import { checkTarget, describeTarget, publicTarget, routingKeys, type CheckedTarget } from './target';
import type {
  AuthFailureInfo,
  EventHandler,
  StreamClientOptions,
  StreamCounters,
  StreamEvent,
  StreamProtocol,
  StreamStatus,
  StreamTarget,
  SubscribeOptions,
} from './types';

export const STREAM_DEFAULTS = {
  subscriptionsPerSocket: 1,
  heartbeatMs: 15_000,
  reconnectBaseMs: 500,
  reconnectMaxMs: 30_000,
  authRetryMs: 300_000,
  rejectedRetryMs: 300_000,
  queueLimit: 1_000,
  /** 4 MiB of events per subscription waiting for a slow consumer. */
  queueMaxBytes: 4 * 1024 * 1024,
  /** 1 MiB: a pushed Token, Candle, Holder or Trade is a few kilobytes; even a list of them is far below. */
  maxFrameBytes: 1024 * 1024,
  /**
   * Events read from one socket and not yet consumed at which the socket is no longer read until
   * half of them are (connection.ts holdEvent). A batch of a few hundred events is what a consumer
   * such as the watcher handles well in one go; more only costs the heap.
   */
  maxBacklogPerSocket: 256,
  stableMs: 10_000,
  packProbeMs: DEFAULT_PACK_PROBE_MS,
  /**
   * Sockets connecting at once (connectGate.ts): enough to open a thousand in a blink on a near
   * service, few enough to spare its accept queue and this heap.
   */
  maxConnecting: 128,
} as const;

/** A subscription sent this long ago that the service neither confirmed nor served counts as unconfirmed in status(). */
export const UNCONFIRMED_AFTER_MS = 30_000;
/** Messages of unknown kinds are logged at most once in this long (each is counted). */
const UNKNOWN_LOG_MS = 60_000;

/** The least weight given to one event in the delivery queue, for the objects around its payload. */
const MIN_EVENT_BYTES = 256;

type Settings = Required<Omit<StreamClientOptions, 'logger' | 'clock' | 'subscriptionsPerSocket' | 'maxSockets' | 'protocol'>> & {
  subscriptionsPerSocket: PackingSetting;
  /** Null: no limit. */
  maxSockets: number | null;
  logger: Logger;
  clock: Clock;
};

export class StreamClient {
  private readonly settings: Settings;
  private readonly connections = new Set<Connection>();
  private readonly owners = new Map<number, Connection>();
  private readonly subscriptions = new Map<number, Subscription>();
  private readonly authListeners = new Set<(info: AuthFailureInfo) => void>();
  private readonly closing = new Set<Promise<void>>();
  private readonly counters: StreamCounters = {
    received: 0,
    delivered: 0,
    unreadable: 0,
    unknown: 0,
    dropped: 0,
    reconnects: 0,
    authFailures: 0,
    oversized: 0,
  };
  /** A subscription's consumer threw or rejected (SubscriptionHooks): logged, and the queue goes on. One function for all. */
  private readonly consumerFailed = (stream: StreamName, target: CheckedTarget, error: unknown): void => {
    this.settings.logger.warn(
      { stream, target: describeTarget(target), error: this.redact(errorMessage(error)) },
      'stream consumer failed; continuing with the next event',
    );
  };
  private nextId = 0;
  private attemptSeq = 0;
  /** Set while the key is refused: the attempt sequence at the time the outage was noticed. */
  private authOutage: { sinceSeq: number } | null = null;
  /** Per socket, the problems warned since it was last served: a refusal repeated at every retry is warned once. */
  private readonly warned = new WeakMap<Connection, Set<string>>();
  /** Sockets whose frame over the size limit was warned of. */
  private readonly oversizeWarned = new WeakSet<Connection>();
  /** Subscriptions whose refusal the subscriber was told of, until the server accepts them again. */
  private readonly rejectionsReported = new Set<number>();
  /** How many subscriptions share a socket, and in `auto` whether the service takes a second one. */
  private readonly packing: PackingProbe;
  /**
   * Sockets whose subscriptions were moved apart when the service showed it takes one a socket:
   * the error and close it sends them next are what was expected, not news (debug lines).
   */
  private readonly split = new WeakSet<Connection>();
  /** Subscriptions that need a socket while `maxSockets` are open, oldest first; true: to be isolated. */
  private readonly waitingForRoom = new Map<Subscription, boolean>();
  /** At most `maxConnecting` sockets connecting at once; the others wait their turn. */
  private readonly gate: ConnectGate<Connection>;
  private ended = false;
  /** How subscription messages are written now (setProtocol). */
  private protocol: StreamProtocol;
  /** The protocol the service's own messages last showed, and who hears when it shows another. */
  private seenProtocol: StreamProtocol | null = null;
  private readonly protocolListeners = new Set<(protocol: StreamProtocol) => void>();
  /** Clock time of the last log line about a message of an unknown kind. */
  private unknownLoggedAt = Number.NEGATIVE_INFINITY;

  constructor(options: StreamClientOptions) {
    this.settings = readOptions(options);
    this.protocol = options.protocol ?? 'spec';
    registerSecret(this.settings.apiKey);
    this.gate = new ConnectGate(this.settings.maxConnecting);
    this.packing = new PackingProbe(this.settings.subscriptionsPerSocket, {
      probeMs: this.settings.packProbeMs,
      clock: this.settings.clock,
      logger: this.settings.logger,
      redact: (text) => this.redact(text),
      onRefused: () => this.unpack(),
    });
  }

  subscribe(stream: StreamName, target: StreamTarget, onEvent: EventHandler, options: SubscribeOptions = {}): () => void {
    if (this.ended) throw new Error('The stream client is closed');
    if (!(STREAMS as readonly string[]).includes(stream))
      throw new Error(`Unknown stream "${String(stream)}"; expected one of ${STREAMS.join(', ')}`);
    if (typeof onEvent !== 'function') throw new Error(`${stream}: onEvent must be a function`);
    if (options === null || typeof options !== 'object') throw new Error(`${stream}: options must be an object`);
    const { onRejected } = options;
    if (onRejected !== undefined && typeof onRejected !== 'function') throw new Error(`${stream}: onRejected must be a function`);
    const checked = checkTarget(stream, target);
    const hooks = new SubscriptionHooks(this.counters, this.consumerFailed, stream, checked, onEvent);
    const queue = new DeliveryQueue<StreamEvent, Connection>(
      { events: this.settings.queueLimit, bytes: this.settings.queueMaxBytes },
      hooks,
    );
    const subscription: Subscription = {
      id: ++this.nextId,
      stream,
      target: checked,
      keys: routingKeys(checked),
      queue,
      onRejected: onRejected ?? null,
    };
    this.subscriptions.set(subscription.id, subscription);
    this.place(subscription, false);
    // Bound, not a closure over this call: a watcher keeps 20,000 of these.
    return this.unsubscribe.bind(this, subscription);
  }

  /** Called once per outage of the key (not once per retry), with the stream that noticed it. */
  onAuthFailure(listener: (info: AuthFailureInfo) => void): () => void {
    this.authListeners.add(listener);
    return () => {
      this.authListeners.delete(listener);
    };
  }

  status(): StreamStatus {
    let queuedEvents = 0;
    let queuedBytes = 0;
    for (const subscription of this.subscriptions.values()) {
      queuedEvents += subscription.queue.size;
      queuedBytes += subscription.queue.bytes;
    }
    return {
      sockets: [...this.connections].map((connection) => connection.status()),
      counters: { ...this.counters },
      queuedEvents,
      queuedBytes,
      packing: this.packing.status(),
      maxSockets: this.settings.maxSockets,
      waitingForRoom: this.waitingForRoom.size,
      protocol: this.protocol,
      unconfirmed: this.unconfirmed(),
    };
  }

  /** Writes later subscription messages (and those of every reconnection) in `protocol`'s form. */
  setProtocol(protocol: StreamProtocol): void {
    this.protocol = protocol;
  }

  /**
   * Called when the service's own messages show a protocol other than the one they showed before
   * (a `connected` welcome or a `subscriptionConfirmed`: vendor; a `subscribed`: spec).
   */
  onProtocolSeen(listener: (protocol: StreamProtocol) => void): () => void {
    this.protocolListeners.add(listener);
    return () => this.protocolListeners.delete(listener);
  }

  private unconfirmed(): number {
    const before = this.settings.clock.now() - UNCONFIRMED_AFTER_MS;
    let count = 0;
    for (const connection of this.connections) count += connection.unconfirmedSince(before);
    return count;
  }

  private sawProtocol(protocol: StreamProtocol): void {
    if (this.seenProtocol === protocol) return;
    this.seenProtocol = protocol;
    for (const listener of this.protocolListeners) {
      try {
        listener(protocol);
      } catch (error) {
        this.settings.logger.warn({ error: this.redact(errorMessage(error)) }, 'protocol listener failed');
      }
    }
  }

  /**
   * How many more subscriptions of this stream and kind of target can be placed now without
   * waiting for a socket: room on its sockets, and on the sockets `maxSockets` still allows.
   * None while any subscription waits for room (those come first). Unbounded without `maxSockets`.
   */
  room(stream: StreamName, follows: 'token' | 'wallets'): number {
    const { maxSockets } = this.settings;
    if (maxSockets === null) return Number.POSITIVE_INFINITY;
    if (this.waitingForRoom.size > 0) return 0;
    const limit = this.packing.limit;
    let spare = Math.max(0, maxSockets - this.connections.size) * limit;
    for (const connection of this.connections) {
      if (connection.stream === stream && connection.follows === follows) spare += connection.spare(limit);
    }
    return spare;
  }

  /** Ends every subscription and socket; resolves when all sockets have closed, leaving no timer behind. */
  async close(): Promise<void> {
    this.ended = true;
    this.packing.close();
    for (const subscription of this.subscriptions.values()) subscription.queue.stop();
    this.subscriptions.clear();
    this.owners.clear();
    this.waitingForRoom.clear();
    this.rejectionsReported.clear();
    // Emptied first: a socket that closes must not let a waiting one start connecting now.
    this.gate.clear();
    const pending = [...this.connections].map((connection) => connection.close());
    this.connections.clear();
    await Promise.all([...pending, ...this.closing]);
  }

  private place(subscription: Subscription, isolated: boolean): void {
    const follows = subscription.target.kind;
    const limit = this.packing.limit;
    let connection: Connection | undefined;
    if (!isolated && limit > 1) {
      for (const candidate of this.connections) {
        if (candidate.stream === subscription.stream && candidate.follows === follows && candidate.canTake(subscription.keys, limit)) {
          connection = candidate;
          break;
        }
      }
    }
    if (connection) {
      connection.add(subscription);
    } else {
      if (this.settings.maxSockets !== null && this.connections.size >= this.settings.maxSockets) {
        this.waitForRoom(subscription, isolated);
        return;
      }
      connection = this.openConnection(subscription.stream, follows, isolated);
      connection.add(subscription);
      connection.start();
    }
    this.owners.set(subscription.id, connection);
  }

  /**
   * Every socket `maxSockets` allows is open: the subscription waits, in order, until one closes.
   * Never silent: the first to wait is a warning, and status() counts them.
   */
  private waitForRoom(subscription: Subscription, isolated: boolean): void {
    if (this.waitingForRoom.size === 0) {
      this.settings.logger.warn(
        { maxSockets: this.settings.maxSockets, perSocket: this.packing.limit },
        'stream sockets are at their limit (the open-files limit); subscriptions past it wait for a socket and are not watched meanwhile',
      );
    }
    this.waitingForRoom.set(subscription, isolated);
  }

  /** A socket closed for good: subscriptions waiting for room take its place, oldest first. */
  private placeWaiting(): void {
    if (this.waitingForRoom.size === 0 || this.ended) return;
    for (const [subscription, isolated] of this.waitingForRoom) {
      if (this.settings.maxSockets !== null && this.connections.size >= this.settings.maxSockets) break;
      this.waitingForRoom.delete(subscription);
      this.place(subscription, isolated);
    }
    if (this.waitingForRoom.size === 0)
      this.settings.logger.info({ sockets: this.connections.size }, 'every stream subscription has a socket again');
  }

  /**
   * The service showed it takes one subscription a socket: every shared socket keeps one (one the
   * service served, where it did) and the others move to sockets of their own.
   */
  private unpack(): void {
    for (const connection of [...this.connections]) {
      if (connection.size < 2) continue;
      const carried = connection.carried();
      // One the service served stays: its socket comes back like every other. Where none was served
      // yet, the service's next close would be read as a refusal of the first, so all move.
      const kept = carried.find((subscription) => connection.hasServed(subscription));
      this.split.add(connection);
      const moved = carried.filter((subscription) => subscription !== kept);
      for (const subscription of moved) {
        connection.remove(subscription);
        this.owners.delete(subscription.id);
      }
      if (kept === undefined) this.retire(connection);
      for (const subscription of moved) this.place(subscription, false);
    }
  }

  private openConnection(stream: StreamName, follows: 'token' | 'wallets', isolated: boolean): Connection {
    const { settings } = this;
    const connection = new Connection(
      {
        url: `${settings.wsUrl.replace(/\/+$/, '')}/ws/${stream}`,
        stream,
        follows,
        isolated,
        apiKey: settings.apiKey,
        protocol: () => this.protocol,
        heartbeatMs: settings.heartbeatMs,
        reconnectBaseMs: settings.reconnectBaseMs,
        reconnectMaxMs: settings.reconnectMaxMs,
        authRetryMs: settings.authRetryMs,
        rejectedRetryMs: settings.rejectedRetryMs,
        stableMs: settings.stableMs,
        maxFrameBytes: settings.maxFrameBytes,
        maxBacklog: settings.maxBacklogPerSocket,
        clock: settings.clock,
        logger: settings.logger,
        redact: (text) => this.redact(text),
      },
      {
        attempt: (_connection, isReconnect) => {
          if (isReconnect) this.counters.reconnects += 1;
          this.attemptSeq += 1;
          return this.attemptSeq;
        },
        frame: (from, data, isBinary) => this.onFrame(from, data, isBinary),
        authFailed: (from, reason) => this.onAuthFailed(from, reason),
        rejected: (from, code, reason) => this.onRejected(from, code, reason),
        oversized: (from) => this.onOversized(from),
        sent: (from) => this.packing.sent(from),
        mayConnect: (from) => this.gate.enter(from),
        settled: (from) => this.gate.release(from),
        closed: (from, code, reason) => this.packing.closed(from, code, reason),
      },
    );
    this.connections.add(connection);
    return connection;
  }

  private unsubscribe(subscription: Subscription): void {
    // Stopping twice is harmless.
    if (this.subscriptions.get(subscription.id) !== subscription) return;
    subscription.queue.stop();
    this.subscriptions.delete(subscription.id);
    this.rejectionsReported.delete(subscription.id);
    this.waitingForRoom.delete(subscription);
    const connection = this.owners.get(subscription.id);
    this.owners.delete(subscription.id);
    if (!connection) return;
    connection.remove(subscription);
    if (connection.size === 0) this.retire(connection);
  }

  private retire(connection: Connection): void {
    this.connections.delete(connection);
    this.packing.forget(connection);
    const done = connection.close();
    this.closing.add(done);
    void done.finally(() => this.closing.delete(done));
    this.placeWaiting();
  }

  private onFrame(connection: Connection, data: RawData, isBinary: boolean): void {
    this.counters.received += 1;
    if (isBinary) {
      this.unreadable(connection, 'a binary frame');
      return;
    }
    const text = frameText(data);
    const items = decodeText(connection.stream, text);
    // Each event weighs its share of the frame: the parsed objects are about the size of their text, or more.
    let events = 0;
    for (const item of items) if (item.type === 'event') events += 1;
    const eventBytes = Math.max(MIN_EVENT_BYTES, Math.ceil(text.length / Math.max(1, events)));
    for (const item of items) {
      switch (item.type) {
        case 'unreadable':
          this.unreadable(connection, item.reason, item.count);
          break;
        case 'subscribed': {
          this.sawProtocol(item.vendor ? 'vendor' : 'spec');
          const accepted = this.confirmed(connection, item);
          if (accepted === null) break;
          // Accepted now, so a later refusal of the same target is news again.
          for (const subscription of accepted) this.rejectionsReported.delete(subscription.id);
          this.served(connection);
          this.packing.served(connection);
          break;
        }
        case 'welcome':
          this.sawProtocol('vendor');
          break;
        case 'unknown':
          this.unknownMessage(connection, item.reason);
          break;
        case 'error': {
          const message = this.redact(item.message);
          connection.noteError(message);
          this.packing.errorFrame(connection, message);
          // A refused key is reported once per outage by onAuthFailed, not at every retry's error message.
          if (looksLikeAuth(message))
            this.settings.logger.debug({ url: connection.shownUrl, error: message }, 'stream server refused the key');
          // A socket just split apart was expected to hear this: the service's refusal of its second subscription.
          else if (this.split.has(connection))
            this.settings.logger.debug({ url: connection.shownUrl, error: message }, 'stream server refused a packed subscription');
          else this.warnOnce(connection, message, 'stream server reported an error');
          break;
        }
        case 'event': {
          this.served(connection);
          const routed = routeEvent(item, connection);
          if (routed.type === 'matched') {
            connection.holdEvent();
            routed.subscription.queue.push(routed.event, eventBytes, connection);
            // An event shows the subscription was taken, as a confirmation would (the vendor sends no snapshot).
            connection.markServed(routed.subscription);
            // Only while `auto` waits for the service's answer.
            if (this.packing.checking) this.packing.served(connection);
          } else if (routed.type === 'unroutable') this.unreadable(connection, 'an event naming no token or wallet on a shared socket');
          break;
        }
        case 'unsubscribed':
        case 'ignored':
          break;
      }
    }
  }

  /**
   * The subscriptions a confirmation accepts: those it names, or, for a vendor confirmation that
   * names no token it can be read for (token-feed's "Filters applied"), the socket's oldest one not
   * yet confirmed. Null, counted as unknown, for a confirmation of a token not asked for here.
   */
  private confirmed(connection: Connection, item: Extract<Decoded, { type: 'subscribed' }>): Subscription[] | null {
    const accepted = connection.acknowledge(item.tokenAddress, item.wallets);
    if (accepted.length > 0 || !item.vendor) return accepted;
    if (item.tokenAddress !== null) {
      this.unknownMessage(connection, 'a confirmation of a token not asked for');
      return null;
    }
    const [oldest] = connection.unacknowledged();
    if (oldest === undefined) return [];
    connection.markServed(oldest);
    return [oldest];
  }

  /** A message of a kind not known here: counted each time, logged at most once a minute, the socket kept. */
  private unknownMessage(connection: Connection, reason: string): void {
    this.counters.unknown += 1;
    const now = this.settings.clock.now();
    if (now - this.unknownLoggedAt < UNKNOWN_LOG_MS) return;
    this.unknownLoggedAt = now;
    this.settings.logger.warn(
      { url: connection.shownUrl, reason, unknown: this.counters.unknown },
      'stream message of an unknown kind dropped (logged at most once a minute)',
    );
  }

  private unreadable(connection: Connection, reason: string, count = 1): void {
    this.counters.unreadable += count;
    this.settings.logger.debug({ url: connection.shownUrl, reason, count }, 'unreadable stream frame dropped');
  }

  /**
   * A frame broke maxFrameBytes: counted every time, warned once per socket for good (being served
   * again does not make it news: the server that sent it will likely send it again).
   */
  private onOversized(connection: Connection): void {
    this.counters.oversized += 1;
    const level = this.oversizeWarned.has(connection) ? 'debug' : 'warn';
    this.oversizeWarned.add(connection);
    this.settings.logger[level](
      { url: connection.shownUrl, maxFrameBytes: this.settings.maxFrameBytes, oversized: this.counters.oversized },
      'stream frame over the size limit; the socket closes and backs off',
    );
  }

  private onAuthFailed(connection: Connection, reason: string): void {
    this.counters.authFailures += 1;
    if (this.authOutage) {
      this.settings.logger.debug({ url: connection.shownUrl, reason }, 'stream key still refused');
      return;
    }
    this.authOutage = { sinceSeq: this.attemptSeq };
    this.settings.logger.error(
      { stream: connection.stream, reason, retryMs: this.settings.authRetryMs },
      'the market data service refused the API key on a stream; retrying slowly',
    );
    for (const listener of this.authListeners) {
      try {
        listener({ stream: connection.stream, reason });
      } catch (error) {
        this.settings.logger.warn({ error: this.redact(errorMessage(error)) }, 'auth failure listener failed');
      }
    }
  }

  private warnOnce(connection: Connection, problem: string, message: string): void {
    const { logger } = this.settings;
    let problems = this.warned.get(connection);
    if (problems?.has(problem)) {
      logger.debug({ url: connection.shownUrl, problem }, message);
      return;
    }
    if (!problems) this.warned.set(connection, (problems = new Set()));
    problems.add(problem);
    logger.warn({ url: connection.shownUrl, problem }, message);
  }

  /**
   * The socket was served (an acknowledgement or an event): its backoff starts afresh, its next
   * problem is news again, and if it opened after a key outage began, the key works again and a
   * later refusal is a new outage.
   */
  private served(connection: Connection): void {
    connection.served();
    this.warned.delete(connection);
    this.split.delete(connection);
    if (!this.authOutage || connection.sequence <= this.authOutage.sinceSeq) return;
    this.authOutage = null;
    this.settings.logger.info({ stream: connection.stream }, 'the market data service accepts the API key again');
  }

  /**
   * The server refused a subscription and closed the socket. On a shared socket the culprit cannot
   * be told apart from the subscriptions sent after it, so every one not yet acknowledged moves to
   * a socket of its own: the refused one then fails alone (and is reported there), and the others
   * stop being cut with it. A socket's only, unacknowledged subscription is the culprit: its
   * subscriber is told (once), and the connection retries it slowly.
   */
  private onRejected(connection: Connection, code: number, reason: string): void {
    if (this.split.has(connection))
      this.settings.logger.debug({ url: connection.shownUrl, code, reason }, 'stream server closed a socket split apart');
    else this.warnOnce(connection, `closed ${code}: ${reason}`, 'stream server refused a subscription');
    if (connection.size > 1) {
      for (const subscription of connection.unacknowledged()) {
        connection.remove(subscription);
        this.place(subscription, true);
      }
      if (connection.size === 0) {
        this.retire(connection);
        return;
      }
    }
    const refused = connection.refusedSubscription();
    if (refused) this.reportRejection(refused, code, reason === '' ? `closed ${code}` : reason);
  }

  private reportRejection(subscription: Subscription, code: number, reason: string): void {
    if (this.rejectionsReported.has(subscription.id)) return;
    this.rejectionsReported.add(subscription.id);
    if (!subscription.onRejected) return;
    try {
      subscription.onRejected({ stream: subscription.stream, target: publicTarget(subscription.target), code, reason });
    } catch (error) {
      this.settings.logger.warn({ stream: subscription.stream, error: this.redact(errorMessage(error)) }, 'onRejected callback failed');
    }
  }

  /** A text from the server or the socket, fit for the log and status: no key, no control or bidi character. */
  private redact(text: string): string {
    const { apiKey } = this.settings;
    const withoutKey = apiKey === '' ? text : text.split(apiKey).join('[redacted]');
    return cleanServiceText(scrubSecrets(withoutKey));
  }
}

function readOptions(options: StreamClientOptions): Settings {
  if (options === null || typeof options !== 'object') throw new Error('StreamClient needs options {wsUrl, apiKey}');
  const { wsUrl, apiKey } = options;
  if (typeof wsUrl !== 'string' || !/^wss?:\/\/[^/]/i.test(wsUrl)) throw new Error('StreamClient: wsUrl must be a ws:// or wss:// address');
  if (typeof apiKey !== 'string') throw new Error('StreamClient: apiKey must be a string');
  return {
    wsUrl,
    apiKey,
    logger: options.logger ?? silentLogger,
    subscriptionsPerSocket:
      options.subscriptionsPerSocket === 'auto'
        ? 'auto'
        : positiveInteger('subscriptionsPerSocket', options.subscriptionsPerSocket, STREAM_DEFAULTS.subscriptionsPerSocket),
    maxSockets: options.maxSockets === undefined ? null : positiveInteger('maxSockets', options.maxSockets, 1),
    packProbeMs: positiveInteger('packProbeMs', options.packProbeMs, STREAM_DEFAULTS.packProbeMs),
    maxConnecting: positiveInteger('maxConnecting', options.maxConnecting, STREAM_DEFAULTS.maxConnecting),
    heartbeatMs: positiveInteger('heartbeatMs', options.heartbeatMs, STREAM_DEFAULTS.heartbeatMs),
    reconnectBaseMs: positiveInteger('reconnectBaseMs', options.reconnectBaseMs, STREAM_DEFAULTS.reconnectBaseMs),
    reconnectMaxMs: positiveInteger('reconnectMaxMs', options.reconnectMaxMs, STREAM_DEFAULTS.reconnectMaxMs),
    authRetryMs: positiveInteger('authRetryMs', options.authRetryMs, STREAM_DEFAULTS.authRetryMs),
    rejectedRetryMs: positiveInteger('rejectedRetryMs', options.rejectedRetryMs, STREAM_DEFAULTS.rejectedRetryMs),
    queueLimit: positiveInteger('queueLimit', options.queueLimit, STREAM_DEFAULTS.queueLimit),
    queueMaxBytes: positiveInteger('queueMaxBytes', options.queueMaxBytes, STREAM_DEFAULTS.queueMaxBytes),
    maxFrameBytes: positiveInteger('maxFrameBytes', options.maxFrameBytes, STREAM_DEFAULTS.maxFrameBytes),
    stableMs: positiveInteger('stableMs', options.stableMs, STREAM_DEFAULTS.stableMs),
    maxBacklogPerSocket: positiveInteger('maxBacklogPerSocket', options.maxBacklogPerSocket, STREAM_DEFAULTS.maxBacklogPerSocket),
    clock: options.clock ?? systemClock,
  };
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`StreamClient: ${name} must be a whole number, at least 1`);
  return value;
}

function frameText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/**
 * A subscription's queue hooks as one small object: a watcher holds 20,000 subscriptions, and the
 * closures each used to get (with their contexts, and under tsx a name property each) were
 * megabytes of heap.
 */
class SubscriptionHooks implements QueueHooks<StreamEvent, Connection> {
  constructor(
    private readonly counters: StreamCounters,
    private readonly onFailed: (stream: StreamName, target: CheckedTarget, error: unknown) => void,
    private readonly stream: StreamName,
    private readonly target: CheckedTarget,
    readonly deliver: EventHandler,
  ) {}

  delivered(): void {
    this.counters.delivered += 1;
  }

  dropped(): void {
    this.counters.dropped += 1;
  }

  released(connection: Connection): void {
    connection.releaseEvent();
  }

  failed(error: unknown): void {
    this.onFailed(this.stream, this.target, error);
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
