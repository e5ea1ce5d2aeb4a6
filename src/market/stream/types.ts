/**
 * The public shapes of the stream client: what a caller subscribes to, what it receives, and what
 * it can read about the connections (for a `/status` command and metrics).
 */
import type { Logger } from '../../log';
import type { StreamName } from '../endpoints';
import type { Candle, Holder, Token, Trade } from '../schemas';

/** A token (every stream; chart-live may name a candle interval) or, on trades-live only, a set of wallets. */
export type StreamTarget = { tokenAddress: string; intervalSecs?: number } | { wallets: string[] };

export type StreamEvent =
  | { stream: 'token-feed'; kind: 'token'; tokenAddress: string; snapshot: boolean; token: Token }
  | { stream: 'chart-live'; kind: 'candle'; tokenAddress: string; snapshot: boolean; candle: Candle }
  | { stream: 'holders-live'; kind: 'holder'; tokenAddress: string; snapshot: boolean; holder: Holder }
  | { stream: 'trades-live'; kind: 'trade'; tokenAddress: string; wallet: string | null; snapshot: boolean; trade: Trade };

export type StreamEventKind = StreamEvent['kind'];

export type EventHandler = (event: StreamEvent) => void | Promise<void>;

export type ConnectionState = 'connecting' | 'open' | 'backoff' | 'auth-failed' | 'closed';

export interface StreamClientOptions {
  wsUrl: string;
  apiKey: string;
  logger?: Logger;
  /** Default 1 (the spec's reading); more packs several subscriptions of one stream on one socket. */
  subscriptionsPerSocket?: number;
  /** Default 15_000: ping interval; a socket without a pong by the next ping is terminated. */
  heartbeatMs?: number;
  /** Full-jitter exponential backoff between reconnections: defaults 500 and 30_000. */
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  /** Default 300_000: the pace of retries after the service refused the key. */
  authRetryMs?: number;
  /** Default 1_000 events per subscription waiting for a slow consumer; beyond it the oldest are dropped. */
  queueLimit?: number;
}

export interface SocketStatus {
  url: string;
  state: ConnectionState;
  subscriptions: number;
  /** Connection attempts made after the first one (successful or not). */
  reconnects: number;
  /** Epoch milliseconds of the last frame received, null before the first. */
  lastMessageAt: number | null;
  lastError: string | null;
}

export interface StreamCounters {
  /** Frames received, readable or not. */
  received: number;
  /** Events handed to a consumer whose callback has settled. */
  delivered: number;
  /** Frames or items that could not be read (not JSON, wrong shape, binary, unroutable) and were dropped. */
  unreadable: number;
  /** Events dropped from a full queue (oldest first). */
  dropped: number;
  /** Connection attempts after a socket's first one, over all sockets. */
  reconnects: number;
  /** Connection attempts refused for the key (every one, not once per outage). */
  authFailures: number;
}

export interface StreamStatus {
  sockets: SocketStatus[];
  counters: StreamCounters;
}

export interface AuthFailureInfo {
  stream: StreamName;
  reason: string;
}
