/**
 * A first-in, first-out list whose push and take cost O(1) (amortised). Array.shift() moves every
 * remaining item, which made each push past a full delivery queue cost as much as the queue.
 * Taken slots are skipped by a head index; the array is compacted once the skipped prefix is at
 * least as long as what remains, so each item is copied at most once on average.
 */
export class Fifo<T extends object> {
  private items: Array<T | undefined> = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The oldest item, removed; undefined when empty. */
  take(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    // Release the slot so a taken item can be collected before the next compaction.
    this.items[this.head] = undefined;
    this.head += 1;
    if (this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
