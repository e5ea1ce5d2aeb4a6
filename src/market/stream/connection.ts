/**
 * One socket to one stream, and its life: connect, send every subscription it carries once per
 * opening, ping on an interval and terminate a link that stops answering, and come back after a
 * loss (full-jitter backoff), or slowly after a refused key or a refused target. What frames mean
 * is the client's business; this file only keeps the link and the list of subscriptions it must
 * re-establish.
 *
 * Every wait is armed on the settings' clock (../clock.ts) and every jitter drawn from it, so a
 * test on a manual clock sees the exact schedule of reconnections.
 *
 * The backoff starts afresh only after a socket proved itself: a pong (a full heartbeat after
 * opening), or having been served (an acknowledgement or an event) and then staying up for
 * `stableMs`. A server that acknowledges and then dies within seconds, again and again (say, at
 * every frame over maxPayload), meets a backoff that keeps growing instead of a reconnection a
 * second forever.
 */
import WebSocket, { type RawData } from 'ws';
import type { Logger } from '../../log';
import type { Clock, Timer } from '../clock';
import type { StreamName } from '../endpoints';
import { backoffDelay, slowRetryDelay } from './backoff';
import { errorCode } from '../errors';
import { CLOSE_TOO_BIG, classifyClose, isAuthError } from './closeReason';
import type { RouteTable } from './route';
import type { Subscription } from './subscription';
import { addressKey, subscribeMessage, unsubscribeMessage } from './target';
import type { ConnectionState, SocketStatus, StreamProtocol } from './types';

/** How long a polite close may take before the socket is cut. */
const CLOSE_GRACE_MS = 1_000;
/** The opening handshake may take one heartbeat interval, but never less than this (TLS over a slow link). */
const MIN_HANDSHAKE_MS = 5_000;
/**
 * Reading never stays paused longer than this for a backlog: a consumer stuck for good must not
 * silence the socket (its heartbeat included); the delivery queues' own bounds then apply.
 */
const MAX_READ_PAUSE_MS = 1_000;
/** Openings of sockets so far, in this process: each opening's events carry its number (`served`). */
let servings = 0;

export interface ConnectionSettings {
  url: string;
  stream: StreamName;
  follows: 'token' | 'wallets';
  /** Set for a subscription moved out of a shared socket after the server refused it: it stays alone. */
  isolated: boolean;
  apiKey: string;
  /** How subscription messages are written, read at each send (the protocol may be learnt after the socket was made). */
  protocol: () => StreamProtocol;
  heartbeatMs: number;
  reconnectBaseMs: number;
  reconnectMaxMs: number;
  authRetryMs: number;
  rejectedRetryMs: number;
  /** How long a served socket must stay up before its loss starts the backoff afresh. */
  stableMs: number;
  /** The largest frame accepted (ws maxPayload); a larger one closes the socket with 1009. */
  maxFrameBytes: number;
  /** Events read from this socket and not yet consumed at which reading pauses (see holdEvent). */
  maxBacklog: number;
  clock: Clock;
  logger: Logger;
  redact: (text: string) => string;
}

export interface ConnectionEvents {
  /** A connection attempt starts; returns its sequence number, unique over the client. */
  attempt(connection: Connection, isReconnect: boolean): number;
  frame(connection: Connection, data: RawData, isBinary: boolean): void;
  authFailed(connection: Connection, reason: string): void;
  /**
   * The server refused a subscription and closed (4000/4004); called before the connection decides
   * when to come back, so the client may first move subscriptions elsewhere.
   */
  rejected(connection: Connection, code: number, reason: string): void;
  /** A frame over maxFrameBytes arrived; the socket closes (1009) and comes back after the backoff. */
  oversized(connection: Connection): void;
  /** A subscription message went out (see sentThisOpening). */
  sent(connection: Connection): void;
  /**
   * An attempt wants to start: true when it may connect now (connectGate.ts); otherwise it waits
   * and the client calls `admitted()` when a place frees.
   */
  mayConnect(connection: Connection): boolean;
  /** The attempt ended (the socket opened, or failed before opening), or the connection did: its place frees. */
  settled(connection: Connection): void;
  /**
   * The server or the link ended the socket (not the client): called first, before the
   * connection decides when to come back, so the client may first move subscriptions elsewhere.
   */
  closed(connection: Connection, code: number, reason: string): void;
}

export class Connection implements RouteTable {
  readonly url: string;
  /** The URL as logs and status show it. */
  readonly shownUrl: string;
  readonly stream: StreamName;
  readonly follows: 'token' | 'wallets';
  readonly isolated: boolean;

  private state: ConnectionState = 'connecting';
  private reconnects = 0;
  private lastMessageAt: number | null = null;
  private lastPongAt: number | null = null;
  private lastError: string | null = null;
  /** Sequence number of the current attempt (see ConnectionEvents.attempt). */
  private attemptSeq = 0;
  /** This socket's current opening, numbered across every connection of the process (StreamEvent's `served`). */
  private serving = 0;
  private attempts = 0;
  /** Consecutive losses since the server last served this socket: the backoff exponent. */
  private failures = 0;
  /** The server refused this socket's only subscription and has not served it since: nothing else joins it. */
  private holdsRefused = false;

  private readonly subscriptions = new Map<number, Subscription>();
  private readonly byRoutingKey = new Map<string, Subscription>();
  /** Subscriptions the server acknowledged (or, see markServed, sent an event of) since the current socket opened. */
  private readonly acknowledged = new Set<number>();
  /** Subscription messages sent since the current socket opened. */
  private sent = 0;
  /** When each subscription's message went out on the current socket (clock time): unconfirmedSince reads it. */
  private readonly sentAt = new Map<number, number>();

  private ws: WebSocket | null = null;
  private retryTimer: Timer | null = null;
  private heartbeatTimer: Timer | null = null;
  private killTimer: Timer | null = null;
  private awaitingPong = false;
  /**
   * Per socket: a pong arrived (the link proved healthy), the key was refused on upgrade, lastError
   * was set, a frame broke maxPayload, and when it was first served (clock time; null before).
   */
  private session: { healthy: boolean; authRefused: boolean; noted: boolean; oversized: boolean; servedAt: number | null } = {
    healthy: false,
    authRefused: false,
    noted: false,
    oversized: false,
    servedAt: null,
  };

  /** Events read from this socket that their consumers have not settled yet (see holdEvent). */
  private backlog = 0;
  /** Reading is paused for the backlog, and the timer that resumes it regardless. */
  private readPaused = false;
  private pauseTimer: Timer | null = null;

  private ended = false;
  private endedPromise: Promise<void> | null = null;
  private resolveEnded: (() => void) | null = null;

  constructor(
    private readonly settings: ConnectionSettings,
    private readonly events: ConnectionEvents,
  ) {
    this.url = settings.url;
    this.shownUrl = settings.redact(settings.url);
    this.stream = settings.stream;
    this.follows = settings.follows;
    this.isolated = settings.isolated;
  }

  get size(): number {
    return this.subscriptions.size;
  }

  get sequence(): number {
    return this.attemptSeq;
  }

  get opening(): number {
    return this.serving;
  }

  get closed(): boolean {
    return this.ended;
  }

  get isOpen(): boolean {
    return this.state === 'open' && this.ws !== null;
  }

  get sentThisOpening(): number {
    return this.sent;
  }

  get servedThisOpening(): number {
    return this.acknowledged.size;
  }

  /** Whether this socket can also carry a subscription with these routing keys. */
  canTake(keys: readonly string[], limit: number): boolean {
    if (this.spare(limit) === 0) return false;
    return keys.every((key) => !this.byRoutingKey.has(key));
  }

  /** How many more subscriptions this socket may carry, `limit` a socket (0 for one that takes none). */
  spare(limit: number): number {
    if (this.ended || this.isolated || this.holdsRefused) return 0;
    return Math.max(0, limit - this.subscriptions.size);
  }

  /** The subscriptions this socket carries, in the order they joined it. */
  carried(): Subscription[] {
    return [...this.subscriptions.values()];
  }

  /** Whether the server served this subscription since the socket last opened. */
  hasServed(subscription: Subscription): boolean {
    return this.acknowledged.has(subscription.id);
  }

  /** The server sent an event of this subscription: it took it, as an acknowledgement would say. */
  markServed(subscription: Subscription): void {
    this.acknowledged.add(subscription.id);
  }

  add(subscription: Subscription): void {
    this.subscriptions.set(subscription.id, subscription);
    for (const key of subscription.keys) this.byRoutingKey.set(key, subscription);
    // Before the socket opens, the open handler sends every subscription; after, each is sent here.
    if (this.state === 'open') this.sendSubscription(subscription);
  }

  remove(subscription: Subscription): void {
    if (!this.subscriptions.delete(subscription.id)) return;
    for (const key of subscription.keys) {
      if (this.byRoutingKey.get(key) === subscription) this.byRoutingKey.delete(key);
    }
    this.acknowledged.delete(subscription.id);
    this.sentAt.delete(subscription.id);
    // The last subscription ends with the socket itself (the caller closes it).
    if (this.state === 'open' && this.subscriptions.size > 0) this.send(unsubscribeMessage(subscription.target));
  }

  /** Marks the subscriptions an acknowledgement names; returns them. */
  acknowledge(tokenAddress: string | null, wallets: readonly string[]): Subscription[] {
    const keys = tokenAddress !== null ? [tokenAddress] : wallets;
    const found = new Set<Subscription>();
    for (const key of keys) {
      const subscription = this.byRoutingKey.get(addressKey(key));
      if (!subscription) continue;
      this.acknowledged.add(subscription.id);
      found.add(subscription);
    }
    return [...found];
  }

  /**
   * The server accepted a subscription or pushed an event. The link works, but only staying up for
   * `stableMs` from now proves it: the backoff is reset at the loss (onClose), not here, so a server
   * that acknowledges and then dies within seconds is not reconnected to every second forever.
   */
  served(): void {
    this.session.servedAt ??= this.settings.clock.now();
    this.holdsRefused = false;
  }

  /**
   * The subscription a refusal (4000/4004) can be blamed on: the socket's only one, when the server
   * had not acknowledged it. On a shared socket the culprit cannot be told apart (see the client).
   */
  refusedSubscription(): Subscription | null {
    const only = this.single();
    return only && !this.acknowledged.has(only.id) ? only : null;
  }

  /** Subscriptions sent on the open socket at or before `before` (clock time) and not served since. */
  unconfirmedSince(before: number): number {
    if (this.state !== 'open') return 0;
    let count = 0;
    for (const [id, at] of this.sentAt) if (at <= before && !this.acknowledged.has(id)) count += 1;
    return count;
  }

  unacknowledged(): Subscription[] {
    return [...this.subscriptions.values()].filter((subscription) => !this.acknowledged.has(subscription.id));
  }

  byKey(key: string): Subscription | undefined {
    return this.byRoutingKey.get(key);
  }

  single(): Subscription | null {
    if (this.subscriptions.size !== 1) return null;
    const [only] = this.subscriptions.values();
    return only ?? null;
  }

  /**
   * An event read from this socket was handed to a delivery queue. While `maxBacklog` of them wait
   * for their consumers, the socket is not read: the frames behind them stay in the kernel's
   * buffers (and the server's, which then slows down as TCP tells it to) instead of piling up in
   * the heap as decoded objects, which only made the garbage collector copy them again and again.
   */
  holdEvent(): void {
    this.backlog += 1;
    if (this.backlog >= this.settings.maxBacklog && !this.readPaused) this.pauseReading();
  }

  /** An event held by holdEvent left its queue (consumed, dropped or discarded). */
  releaseEvent(): void {
    this.backlog -= 1;
    if (this.readPaused && this.backlog <= this.settings.maxBacklog >> 1) this.resumeReading();
  }

  private pauseReading(): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    this.readPaused = true;
    ws.pause();
    this.pauseTimer = this.settings.clock.setTimeout(() => {
      this.pauseTimer = null;
      this.resumeReading();
    }, MAX_READ_PAUSE_MS);
  }

  private resumeReading(): void {
    if (this.pauseTimer) this.settings.clock.clearTimeout(this.pauseTimer);
    this.pauseTimer = null;
    if (!this.readPaused) return;
    this.readPaused = false;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.resume();
  }

  /** An error the server reported in a message; kept for status(). */
  noteError(message: string): void {
    this.lastError = message;
    this.session.noted = true;
  }

  status(): SocketStatus {
    return {
      url: this.shownUrl,
      state: this.state,
      subscriptions: this.subscriptions.size,
      reconnects: this.reconnects,
      failures: this.failures,
      lastMessageAt: this.lastMessageAt,
      lastPongAt: this.lastPongAt,
      lastError: this.lastError,
    };
  }

  start(): void {
    this.connect();
  }

  /** Ends the socket for good: no retry, no timer left. Resolves once the socket has closed. */
  close(): Promise<void> {
    if (this.endedPromise) return this.endedPromise;
    this.ended = true;
    this.events.settled(this);
    this.clearRetry();
    this.stopHeartbeat();
    this.resumeReading();
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) {
      this.ws = null;
      this.state = 'closed';
      this.endedPromise = Promise.resolve();
      return this.endedPromise;
    }
    this.endedPromise = new Promise<void>((resolve) => {
      this.resolveEnded = resolve;
    });
    if (ws.readyState === WebSocket.OPEN) {
      ws.close(1000, 'client closing');
      this.killTimer = this.settings.clock.setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
    } else if (ws.readyState === WebSocket.CONNECTING) {
      ws.terminate();
    } else {
      this.killTimer = this.settings.clock.setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
    }
    return this.endedPromise;
  }

  private connect(): void {
    this.retryTimer = null;
    if (this.ended) return;
    this.state = 'connecting';
    // Past the client's limit on sockets connecting at once, the attempt waits for a place.
    if (this.events.mayConnect(this)) this.openSocket();
  }

  /** The client's gate gave this connection a place: the attempt starts now. */
  admitted(): void {
    if (this.ended) this.events.settled(this);
    else this.openSocket();
  }

  private openSocket(): void {
    const isReconnect = this.attempts > 0;
    this.attempts += 1;
    if (isReconnect) this.reconnects += 1;
    this.attemptSeq = this.events.attempt(this, isReconnect);
    servings += 1;
    this.serving = servings;
    this.state = 'connecting';
    // A new socket is read from the start; the backlog of the old one still counts towards the next pause.
    this.resumeReading();
    this.session = { healthy: false, authRefused: false, noted: false, oversized: false, servedAt: null };
    this.awaitingPong = false;
    this.acknowledged.clear();
    this.sentAt.clear();
    this.sent = 0;

    const ws = new WebSocket(this.url, {
      // The vendor's pages want the key in this header; the spec's reading, in the message: both go.
      headers: { 'x-api-key': this.settings.apiKey },
      handshakeTimeout: Math.max(this.settings.heartbeatMs, MIN_HANDSHAKE_MS),
      // Small JSON frames gain little from compression, and a zlib context per socket costs memory at 1,000 sockets.
      perMessageDeflate: false,
      // A frame is held whole before it is read: past this, ws closes the socket (1009) instead.
      maxPayload: this.settings.maxFrameBytes,
    });
    this.ws = ws;
    ws.on('open', () => this.onOpen(ws));
    ws.on('message', (data, isBinary) => {
      // Frames still arriving while a retired socket closes belong to no subscription.
      if (this.ws !== ws || this.ended) return;
      this.lastMessageAt = this.settings.clock.now();
      this.events.frame(this, data, isBinary);
    });
    ws.on('pong', () => this.onPong(ws));
    ws.on('error', (error) => this.onError(ws, error));
    ws.on('close', (code, reason) => this.onClose(ws, code, reason.toString('utf8')));
    this.settings.logger.debug({ url: this.shownUrl, attempt: this.attempts }, 'stream connecting');
  }

  private onOpen(ws: WebSocket): void {
    if (this.ws !== ws) return;
    this.events.settled(this);
    this.state = 'open';
    this.acknowledged.clear();
    this.sentAt.clear();
    this.sent = 0;
    for (const subscription of this.subscriptions.values()) this.sendSubscription(subscription);
    this.armHeartbeat(ws);
    this.settings.logger.debug({ url: this.shownUrl, subscriptions: this.subscriptions.size }, 'stream open');
  }

  /** The heartbeat is a timer re-armed after each beat (an interval, built on the clock's one-shot timers). */
  private armHeartbeat(ws: WebSocket): void {
    this.heartbeatTimer = this.settings.clock.setTimeout(() => {
      this.heartbeatTimer = null;
      if (this.ws !== ws) return;
      this.beat(ws);
      if (this.ws === ws && ws.readyState === WebSocket.OPEN) this.armHeartbeat(ws);
    }, this.settings.heartbeatMs);
  }

  private beat(ws: WebSocket): void {
    if (this.ws !== ws) return;
    if (this.awaitingPong) {
      this.noteError(`no pong within ${this.settings.heartbeatMs} ms`);
      this.settings.logger.warn({ url: this.shownUrl }, 'stream heartbeat missed; reconnecting');
      ws.terminate();
      return;
    }
    this.awaitingPong = true;
    try {
      ws.ping();
    } catch {
      // The socket is already going; its close event takes over.
    }
  }

  private onPong(ws: WebSocket): void {
    if (this.ws !== ws) return;
    this.awaitingPong = false;
    this.lastPongAt = this.settings.clock.now();
    // A pong a full heartbeat after opening proves the link both ways: its loss starts the backoff afresh (onClose).
    this.session.healthy = true;
  }

  private onError(ws: WebSocket, error: Error): void {
    if (this.ws !== ws) return;
    if (errorCode(error) === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
      this.noteOversized();
      return;
    }
    const message = this.settings.redact(error.message);
    if (isAuthError(message)) this.session.authRefused = true;
    this.noteError(message);
    this.settings.logger.debug({ url: this.shownUrl, error: message }, 'stream socket error');
  }

  private onClose(ws: WebSocket, code: number, rawReason: string): void {
    if (this.ws !== ws) return;
    this.ws = null;
    this.events.settled(this);
    this.stopHeartbeat();
    this.resumeReading();
    if (this.ended) {
      this.state = 'closed';
      if (this.killTimer) this.settings.clock.clearTimeout(this.killTimer);
      this.killTimer = null;
      this.resolveEnded?.();
      return;
    }
    const reason = this.settings.redact(rawReason);
    this.events.closed(this, code, reason);
    if (this.ended) return;
    if (code === CLOSE_TOO_BIG) this.noteOversized();
    // A pong, or served and then up for stableMs: the link proved itself, so this loss starts the
    // backoff afresh. Never after a frame over maxPayload: the server would only send it again.
    const { servedAt, healthy, oversized } = this.session;
    const stable = servedAt !== null && this.settings.clock.now() - servedAt >= this.settings.stableMs;
    if (!oversized && (healthy || stable)) this.failures = 0;
    if (reason !== '' || !this.session.noted) this.lastError = reason === '' ? `closed ${code}` : `closed ${code}: ${reason}`;
    const kind = this.session.authRefused ? 'auth' : classifyClose(code, reason);

    if (kind === 'auth') {
      this.state = 'auth-failed';
      this.events.authFailed(this, this.lastError ?? `closed ${code}`);
      // Jittered, so that a thousand sockets refused together do not retry together.
      this.schedule(slowRetryDelay(this.settings.authRetryMs, () => this.settings.clock.random()));
      return;
    }
    if (kind === 'rejected') {
      this.events.rejected(this, code, reason);
      if (this.ended) return;
      // The target itself is refused: the server will say the same at once, so never retry it fast.
      if (this.refusedSubscription()) {
        this.state = 'rejected';
        this.holdsRefused = true;
        const delay = slowRetryDelay(this.settings.rejectedRetryMs, () => this.settings.clock.random());
        this.settings.logger.debug({ url: this.shownUrl, code, delayMs: delay }, 'stream subscription refused; retrying slowly');
        this.schedule(delay);
        return;
      }
    }
    const step = this.failures;
    const delay = backoffDelay(step, this.settings.reconnectBaseMs, this.settings.reconnectMaxMs, () => this.settings.clock.random());
    this.failures += 1;
    this.state = 'backoff';
    this.settings.logger.debug({ url: this.shownUrl, code, backoffStep: step, delayMs: delay }, 'stream lost; reconnecting after backoff');
    this.schedule(delay);
  }

  private schedule(delayMs: number): void {
    this.clearRetry();
    this.retryTimer = this.settings.clock.setTimeout(() => this.connect(), delayMs);
  }

  /** The socket's frame broke maxPayload: reported once per socket, however ws tells of it. */
  private noteOversized(): void {
    if (this.session.oversized) return;
    this.session.oversized = true;
    this.noteError(`a frame larger than ${this.settings.maxFrameBytes} bytes (closed 1009)`);
    this.events.oversized(this);
  }

  private sendSubscription(subscription: Subscription): void {
    this.sent += 1;
    this.sentAt.set(subscription.id, this.settings.clock.now());
    this.send(subscribeMessage(subscription.target, this.settings.apiKey, this.settings.protocol()));
    this.events.sent(this);
  }

  private send(text: string): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    ws.send(text, (error) => {
      // A failed send means the socket is closing; its close event reconnects and resends.
      if (error) this.settings.logger.debug({ url: this.shownUrl, error: this.settings.redact(error.message) }, 'stream send failed');
    });
  }

  private clearRetry(): void {
    if (this.retryTimer) this.settings.clock.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private stopHeartbeat(): void {
    if (this.heartbeatTimer) this.settings.clock.clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = null;
    this.awaitingPong = false;
  }
}
