/**
 * The delivery queue of one subscription. The consumer takes one event at a time (awaited when it
 * returns a promise), so a subscription's events reach it in the order they arrived; while it is
 * busy, events wait here,
 * and a consumer that cannot keep up loses the oldest ones (counted) rather than growing memory
 * without bound. Live data makes the newest events the valuable ones.
 *
 * The bound is in events and in bytes (each event weighs what its share of the frame weighed on
 * the wire): a thousand events of a few hundred bytes are nothing, a thousand of a megabyte each
 * are a gigabyte.
 */
import { Fifo } from './fifo';

export interface QueueHooks<T extends object, O = unknown> {
  deliver(item: T): void | Promise<void>;
  /**
   * An item pushed with an owner left the queue for good: its consumer settled it, it was dropped,
   * or the queue stopped. Called exactly once per such item (the stream client counts, per socket,
   * the events read but not yet consumed, and pauses reading a socket while they are many).
   */
  released?(owner: O): void;
  /** The consumer settled an item (resolved or failed). */
  delivered(): void;
  /** An item waiting too long was dropped to make room. */
  dropped(): void;
  /** The consumer threw or rejected; the queue goes on with the next item. */
  failed(error: unknown): void;
}

export interface QueueLimits {
  /** Events waiting at most. */
  events: number;
  /** Bytes of events waiting at most; a single event heavier than this still waits alone. */
  bytes: number;
}

interface Waiting<T, O> {
  item: T;
  bytes: number;
  owner: O | undefined;
}

export class DeliveryQueue<T extends object, O = unknown> {
  private readonly waiting = new Fifo<Waiting<T, O>>();
  private waitingBytes = 0;
  private running = false;
  private stopped = false;

  constructor(
    private readonly limits: QueueLimits,
    private readonly hooks: QueueHooks<T, O>,
  ) {}

  /** Items waiting for the consumer, not counting the one it is handling. */
  get size(): number {
    return this.waiting.size;
  }

  /** Bytes of the items waiting. */
  get bytes(): number {
    return this.waitingBytes;
  }

  push(item: T, bytes = 0, owner?: O): void {
    if (this.stopped) {
      this.release(owner);
      return;
    }
    this.waiting.push({ item, bytes, owner });
    this.waitingBytes += bytes;
    while (this.waiting.size > this.limits.events || (this.waitingBytes > this.limits.bytes && this.waiting.size > 1)) {
      const oldest = this.waiting.take();
      this.waitingBytes -= oldest?.bytes ?? 0;
      this.hooks.dropped();
      this.release(oldest?.owner);
    }
    if (!this.running) this.run();
  }

  /** Discards what waits and delivers nothing more; an item already with the consumer finishes. */
  stop(): void {
    this.stopped = true;
    for (let next = this.waiting.take(); next !== undefined; next = this.waiting.take()) this.release(next.owner);
    this.waiting.clear();
    this.waitingBytes = 0;
  }

  private release(owner: O | undefined): void {
    if (owner !== undefined) this.hooks.released?.(owner);
  }

  /**
   * Hands items to the consumer in order. A consumer that returns nothing (it handled the item at
   * once) is followed by the next item in the same turn, with no promise made or awaited per item:
   * at tens of thousands of events a second that was a measurable share of the stream's cost. A
   * consumer that returns a promise is waited for before the next item.
   */
  private run(): void {
    this.running = true;
    for (;;) {
      if (this.stopped) break;
      const next = this.waiting.take();
      if (next === undefined) break;
      this.waitingBytes -= next.bytes;
      let result: void | Promise<void>;
      try {
        result = this.hooks.deliver(next.item);
      } catch (error) {
        this.hooks.failed(error);
        this.settle(next);
        continue;
      }
      if (result !== undefined && typeof result.then === 'function') {
        result.then(
          () => this.resume(next),
          (error: unknown) => {
            this.hooks.failed(error);
            this.resume(next);
          },
        );
        return;
      }
      this.settle(next);
    }
    this.running = false;
  }

  private settle(item: Waiting<T, O>): void {
    this.hooks.delivered();
    this.release(item.owner);
  }

  /** After a consumer's promise settled: the item is done, and the queue goes on. */
  private resume(item: Waiting<T, O>): void {
    this.settle(item);
    this.run();
  }
}
