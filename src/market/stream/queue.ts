/**
 * The delivery queue of one subscription. The consumer is awaited one event at a time, so a
 * subscription's events reach it in the order they arrived; while it is busy, events wait here,
 * and a consumer that cannot keep up loses the oldest ones (counted) rather than growing memory
 * without bound. Live data makes the newest events the valuable ones.
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

export class DeliveryQueue<T extends object> {
  private readonly waiting = new Fifo<T>();
  private running = false;
  private stopped = false;

  constructor(
    private readonly limit: number,
    private readonly hooks: QueueHooks<T>,
  ) {}

  /** Items waiting for the consumer, not counting the one it is handling. */
  get size(): number {
    return this.waiting.size;
  }

  push(item: T): void {
    if (this.stopped) return;
    this.waiting.push(item);
    while (this.waiting.size > this.limit) {
      this.waiting.take();
      this.hooks.dropped();
    }
    if (!this.running) void this.run();
  }

  /** Discards what waits and delivers nothing more; an item already with the consumer finishes. */
  stop(): void {
    this.stopped = true;
    this.waiting.clear();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      for (;;) {
        if (this.stopped) return;
        const item = this.waiting.take();
        if (item === undefined) return;
        try {
          await this.hooks.deliver(item);
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
