/**
 * The public shapes of the stream client: what a caller subscribes to, what it receives, and what
 * it can read about the connections (for a `/status` command and metrics).
 */
import type { Logger } from '../../log';
import type { Clock } from '../clock';
import type { StreamName } from '../endpoints';
import type { PackingSetting, PackingStatus } from './packing';
import type { Candle, Holder, Token, Trade } from '../schemas';

/** A token (every stream; chart-live may name a candle interval) or, on trades-live only, a set of wallets. */
export type StreamTarget = { tokenAddress: string; intervalSecs?: number } | { wallets: string[] };

/**
 * The unit of a pushed candle's prices: `sol` per token (the spec's reading: chart-live as
 * chart-history), or `unstated` (the vendor's chart-live, whose page does not say; its example
 * behaves as USD). A consumer must establish an unstated unit before comparing it with a SOL price.
 */
export type CandlePriceUnit = 'sol' | 'unstated';

/**
 * The protocol a service's streams speak (docs/streams.md): the spec's reading, or the vendor's
 * documented one (welcome, confirmation, `event` messages, no wallet stream).
 */
export type StreamProtocol = 'spec' | 'vendor';

/**
 * `served`: which opening of a socket carried the event, a number new each time any socket of the
 * client opens. Snapshots of one subscription with different numbers are two servings of it (the
 * socket came back), even when nothing live came between them. Absent on events not read from a
 * socket (made by hand).
 */
export type StreamEvent =
  | { stream: 'token-feed'; kind: 'token'; tokenAddress: string; snapshot: boolean; served?: number; token: Token }
  | {
      stream: 'chart-live';
      kind: 'candle';
      tokenAddress: string;
      snapshot: boolean;
      served?: number;
      candle: Candle;
      priceUnit: CandlePriceUnit;
    }
  | { stream: 'holders-live'; kind: 'holder'; tokenAddress: string; snapshot: boolean; served?: number; holder: Holder }
  | { stream: 'trades-live'; kind: 'trade'; tokenAddress: string; wallet: string | null; snapshot: boolean; served?: number; trade: Trade };

export type StreamEventKind = StreamEvent['kind'];

export type EventHandler = (event: StreamEvent) => void | Promise<void>;

/** 'rejected': the server refused the socket's only subscription (close 4000 or 4004); it is retried slowly. */
export type ConnectionState = 'connecting' | 'open' | 'backoff' | 'auth-failed' | 'rejected' | 'closed';

export interface StreamClientOptions {
  wsUrl: string;
  apiKey: string;
  logger?: Logger;
  /** Default 'spec': how subscription messages are written (chart-live's interval is `intervalSecs` or the vendor's `timeframe`). */
  protocol?: StreamProtocol;
  /**
   * Default 1 (the spec's reading); more packs several subscriptions of one stream on one socket;
   * 'auto' packs while the service shows it takes a second subscription on a socket (packing.ts).
   */
  subscriptionsPerSocket?: PackingSetting;
  /** Default 10_000: in 'auto', how long a second subscription may go unserved while the first one's data arrives. */
  packProbeMs?: number;
  /** Default: no limit. The most sockets open at once; subscriptions that need another wait for one to close. */
  maxSockets?: number;
  /** Default 128: sockets connecting at once; more wait their turn, oldest first (connectGate.ts). */
  maxConnecting?: number;
  /** Default 15_000: ping interval; a socket without a pong by the next ping is terminated. */
  heartbeatMs?: number;
  /** Full-jitter exponential backoff between reconnections: defaults 500 and 30_000. */
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  /** Default 300_000: the pace of retries after the service refused the key (each pause ±20%). */
  authRetryMs?: number;
  /** Default 300_000: the pace of retries of a target the service refused, e.g. an unknown token (each pause ±20%). */
  rejectedRetryMs?: number;
  /** Default 1_000 events per subscription waiting for a slow consumer; beyond it the oldest are dropped. */
  queueLimit?: number;
  /**
   * Default 4 MiB of events per subscription waiting for a slow consumer (each weighs its share of
   * its frame); beyond it the oldest are dropped.
   */
  queueMaxBytes?: number;
  /** Default 1 MiB: the largest frame accepted (ws maxPayload); a larger one closes the socket with 1009, counted in `oversized`. */
  maxFrameBytes?: number;
  /** Default 10_000: how long a served socket must stay up before its loss starts the backoff afresh. */
  stableMs?: number;
  /** Default 256: events read from one socket and not yet consumed at which reading it pauses (until half are). */
  maxBacklogPerSocket?: number;
  /** Time, timers and jitter (../clock.ts); the system's by default. */
  clock?: Clock;
}

export interface SocketStatus {
  url: string;
  state: ConnectionState;
  subscriptions: number;
  /** Connection attempts made after the first one (successful or not). */
  reconnects: number;
  /** Losses in a row since the server last served this socket: the step its backoff has reached (0 while it is served). */
  failures: number;
  /** Epoch milliseconds of the last frame received, null before the first. */
  lastMessageAt: number | null;
  /** Epoch milliseconds of the last answer to a heartbeat ping, null before the first. */
  lastPongAt: number | null;
  /** The last problem, as the server or the socket told it (key scrubbed, control and bidi characters cleaned). */
  lastError: string | null;
}

export interface StreamCounters {
  /** Frames received, readable or not. */
  received: number;
  /** Events handed to a consumer whose callback has settled. */
  delivered: number;
  /** Frames or items that could not be read (not JSON, wrong shape, binary, unroutable) and were dropped. */
  unreadable: number;
  /**
   * Well-formed messages of a kind not known here: an `event` of another kind, a `type` never
   * seen, a confirmation of a token not asked for. Dropped; the socket is kept.
   */
  unknown: number;
  /** Events dropped from a full queue (oldest first). */
  dropped: number;
  /** Connection attempts after a socket's first one, over all sockets. */
  reconnects: number;
  /** Connection attempts refused for the key (every one, not once per outage). */
  authFailures: number;
  /** Frames over maxFrameBytes (each closed its socket). */
  oversized: number;
}

export interface StreamStatus {
  sockets: SocketStatus[];
  counters: StreamCounters;
  /** Events waiting for their consumers, over every subscription, and their weight in bytes. */
  queuedEvents: number;
  queuedBytes: number;
  /** How many subscriptions share a socket, and what `auto` found out. */
  packing: PackingStatus;
  /** The most sockets open at once, or null for no limit. */
  maxSockets: number | null;
  /** Subscriptions waiting for a socket because `maxSockets` are open: not watched meanwhile. */
  waitingForRoom: number;
  /** How subscription messages are written now. */
  protocol: StreamProtocol;
  /**
   * Subscriptions sent on an open socket at least UNCONFIRMED_AFTER_MS ago that the service has
   * neither confirmed nor sent anything for: not served, as far as anyone can tell.
   */
  unconfirmed: number;
}

/**
 * The server refused one subscription's target and closed its socket: close 4000 (malformed or not
 * allowed) or 4004 (unknown token). It will not be served as it stands; the client retries it
 * every `rejectedRetryMs` (a token may become known) and reports it again only after the server
 * has accepted it in between.
 */
export interface SubscriptionRejection {
  stream: StreamName;
  target: StreamTarget;
  code: number;
  /** The server's close reason, or "closed <code>" without one; never the key. */
  reason: string;
}

export interface SubscribeOptions {
  /** Called once when the server refuses this subscription's target (see SubscriptionRejection). */
  onRejected?: (rejection: SubscriptionRejection) => void;
}

export interface AuthFailureInfo {
  stream: StreamName;
  reason: string;
}
