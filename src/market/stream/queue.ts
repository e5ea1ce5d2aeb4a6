/**
 * The delivery queue of one subscription. The consumer is awaited one event at a time, so a
 * subscription's events reach it in the order they arrived; while it is busy, events wait here,
 * and a consumer that cannot keep up loses the oldest ones (counted) rather than growing memory
 * without bound. Live data makes the newest events the valuable ones.
 *
 * The bound is in events and in bytes (each event weighs what its share of the frame weighed on
 * the wire): a thousand events of a few hundred bytes are nothing, a thousand of a megabyte each
 * are a gigabyte.
 */
import { Fifo } from './fifo';

export interface QueueHooks<T extends object> {
  deliver(item: T): void | Promise<void>;
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

interface Waiting<T> {
  item: T;
  bytes: number;
}

export class DeliveryQueue<T extends object> {
  private readonly waiting = new Fifo<Waiting<T>>();
  private waitingBytes = 0;
  private running = false;
  private stopped = false;

  constructor(
    private readonly limits: QueueLimits,
    private readonly hooks: QueueHooks<T>,
  ) {}

  /** Items waiting for the consumer, not counting the one it is handling. */
  get size(): number {
    return this.waiting.size;
  }

  /** Bytes of the items waiting. */
  get bytes(): number {
    return this.waitingBytes;
  }

  push(item: T, bytes = 0): void {
    if (this.stopped) return;
    this.waiting.push({ item, bytes });
    this.waitingBytes += bytes;
    while (this.waiting.size > this.limits.events || (this.waitingBytes > this.limits.bytes && this.waiting.size > 1)) {
      const oldest = this.waiting.take();
      this.waitingBytes -= oldest?.bytes ?? 0;
      this.hooks.dropped();
    }
    if (!this.running) void this.run();
  }

  /** Discards what waits and delivers nothing more; an item already with the consumer finishes. */
  stop(): void {
    this.stopped = true;
    this.waiting.clear();
    this.waitingBytes = 0;
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      for (;;) {
        if (this.stopped) return;
        const next = this.waiting.take();
        if (next === undefined) return;
        this.waitingBytes -= next.bytes;
        try {
          await this.hooks.deliver(next.item);
        } catch (error) {
          this.hooks.failed(error);
        }
        this.hooks.delivered();
      }
    } finally {
      this.running = false;
    }
  }
}
