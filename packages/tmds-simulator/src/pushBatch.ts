/**
 * Follows a market's changes for a stream server (streams.ts, vendorStreams.ts) and pushes the
 * changes of one synchronous market mutation together once it returns. One mutation announces
 * many changes (a trade moves a candle, holders and the token), and pushing them as one batch
 * means each message is built and serialised once for all its subscribers, not once per change.
 */
import type { Market, MarketChange } from './market';

export interface BatchHandlers<T> {
  /** Adds a change to `pending` and calls schedule() when it is to be pushed. */
  gather(change: MarketChange): void;
  /** Pushes one batch to the subscribers. */
  push(changes: T): void;
}

export class PushBatch<T> {
  private gathered: T;
  private scheduled = false;
  private stopped = false;
  private readonly unfollow: () => void;

  /** `empty` makes a new, empty batch. */
  constructor(
    market: Market,
    private readonly empty: () => T,
    private readonly handlers: BatchHandlers<T>,
  ) {
    this.gathered = empty();
    this.unfollow = market.onChange((change) => handlers.gather(change));
  }

  /** The changes gathered since the last push, to add to. */
  get pending(): T {
    return this.gathered;
  }

  /** Pushes what has been gathered once the current synchronous code returns (once, however often asked). */
  schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    queueMicrotask(() => this.flush());
  }

  /** Stops following the market; nothing gathered is pushed any more. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.unfollow();
  }

  private flush(): void {
    this.scheduled = false;
    const changes = this.gathered;
    this.gathered = this.empty();
    if (this.stopped) return;
    try {
      this.handlers.push(changes);
    } catch (error) {
      // A failed push must never take the simulator down; the next change pushes current state again.
      process.emitWarning(`stream push failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
