/**
 * The watcher's live subscriptions: one per target and stream, opened and closed to match what
 * the follows want, and the reconnections they show. A reconnection is a second snapshot on a
 * subscription that had been served, or an event of a later opening of its socket; listeners hear
 * of it at most once a second (the reconciliation job runs then).
 */
import { errorText, type Logger } from '../log';
import type { StreamName } from '../market/endpoints';
import type { StreamClient, StreamEvent, StreamTarget, SubscriptionRejection } from '../market/stream';

/** What the watcher needs of the stream client (a StreamClient, or a fake in a test). */
export type WatcherStreams = Pick<StreamClient, 'subscribe'>;

/** One subscription a target needs. */
export interface WantedSubscription {
  stream: StreamName;
  target: StreamTarget;
  address: string;
}

/**
 * Called for each event of a subscription; `again`: it opens a later serving of it; `follows`:
 * whether the subscription follows a token or a wallet (trades-live carries both). A promise makes
 * the subscription wait.
 */
export type SubscriptionEventHandler = (
  event: StreamEvent,
  address: string,
  again: boolean,
  follows: 'token' | 'wallet',
) => Promise<void> | undefined;

const RECONNECT_DEBOUNCE_MS = 1_000;

export function subscriptionKey(stream: StreamName, address: string): string {
  return `${stream}|${address}`;
}

export class Subscriptions {
  private readonly open = new Map<string, { stream: StreamName; address: string; stop: () => void }>();
  /** Kept as subscriptions open and close: status() is read often (a /status, a bench) and must not walk them all. */
  private readonly counts: Record<StreamName, number> = { 'token-feed': 0, 'chart-live': 0, 'holders-live': 0, 'trades-live': 0 };
  private readonly reconnectListeners = new Set<() => void>();
  private lastReconnectAt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** One refusal handler for every subscription (a watcher holds tens of thousands): the refusal names its target. */
  private readonly onRejected = (rejection: SubscriptionRejection): void => {
    const address = 'tokenAddress' in rejection.target ? rejection.target.tokenAddress : rejection.target.wallets.join(',');
    this.logger.warn(
      { stream: rejection.stream, address, code: rejection.code, reason: rejection.reason },
      'the service refused to stream this target',
    );
  };

  constructor(
    private readonly streams: WatcherStreams,
    private readonly logger: Logger,
    private readonly now: () => number,
    private readonly onEvent: SubscriptionEventHandler,
  ) {}

  /** Opens and closes subscriptions so that exactly `wanted` (by subscriptionKey) are open. */
  sync(wanted: ReadonlyMap<string, WantedSubscription>): void {
    if (this.closed) return;
    for (const [key, open] of this.open) {
      if (wanted.has(key)) continue;
      open.stop();
      this.open.delete(key);
      this.counts[open.stream] -= 1;
    }
    for (const [key, want] of wanted) {
      if (this.open.has(key)) continue;
      try {
        this.open.set(key, { stream: want.stream, address: want.address, stop: this.subscribe(want) });
        this.counts[want.stream] += 1;
      } catch (error) {
        // A target the client can never serve (not an address): said once, the others go on.
        this.logger.warn({ stream: want.stream, address: want.address, error: errorText(error) }, 'cannot watch this target');
      }
    }
  }

  /** Closes the subscriptions of the targets `test` picks, whatever `sync` wanted last. */
  closeWhere(test: (address: string) => boolean): void {
    for (const [key, open] of this.open) {
      if (!test(open.address)) continue;
      open.stop();
      this.open.delete(key);
      this.counts[open.stream] -= 1;
    }
  }

  /** Open subscriptions by stream. */
  status(): Record<StreamName, number> {
    return { ...this.counts };
  }

  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  /** Closes every subscription (not the stream client). */
  close(): void {
    this.closed = true;
    for (const open of this.open.values()) {
      open.stop();
      this.counts[open.stream] -= 1;
    }
    this.open.clear();
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private subscribe({ stream, target, address }: WantedSubscription): () => void {
    let hadSnapshot = false;
    let hadLive = false;
    let opening: number | undefined;
    const follows = 'tokenAddress' in target ? 'token' : 'wallet';
    return this.streams.subscribe(
      stream,
      target,
      (event) => {
        // Another opening of the socket than the last event's: the subscription is served again.
        const again = opening !== undefined && event.served !== undefined && event.served !== opening;
        opening = event.served ?? opening;
        if (event.snapshot) {
          // A snapshot after this subscription was already served: the socket came back.
          if ((stream === 'token-feed' && hadSnapshot) || hadLive || again) this.reconnected();
          hadSnapshot = true;
          hadLive = false;
        } else {
          // The vendor's protocol sends no snapshot: a live event of a later opening is the sign.
          if (again) this.reconnected();
          hadLive = true;
        }
        return this.onEvent(event, address, again, follows);
      },
      { onRejected: this.onRejected },
    );
  }

  private reconnected(): void {
    if (this.reconnectTimer !== null || this.closed) return;
    const wait = Math.max(0, this.lastReconnectAt + RECONNECT_DEBOUNCE_MS - this.now());
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.lastReconnectAt = this.now();
      for (const listener of this.reconnectListeners) {
        try {
          listener();
        } catch (error) {
          this.logger.warn({ error: errorText(error) }, 'reconnect listener failed');
        }
      }
    }, wait);
    this.reconnectTimer.unref();
  }
}
