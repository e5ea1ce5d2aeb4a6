/**
 * Alert cards built once per event: a risk change followed in 300 chats is one card, not 300. The
 * key holds the event key and the follow's label, since a wallet's label is part of its card. A
 * build may be asynchronous (a price move's picture is drawn off the event loop): the promise is
 * what is cached, so chats asking at the same time share one build. A small LRU bound keeps a long
 * backlog from holding every card it ever built.
 */
import type { Card } from '../cards/card';
import type { AlertEvent } from '../model/events';

export type AlertCardBuilder = (event: AlertEvent, label: string | null) => Card | Promise<Card>;

export class AlertCardCache {
  private readonly cards = new Map<string, Promise<Card>>();
  /** Cards actually built (for tests and the bench: one per event, whatever the fan-out). */
  built = 0;

  constructor(
    private readonly build: AlertCardBuilder,
    private readonly capacity = 1_000,
  ) {}

  get(event: AlertEvent, label: string | null): Promise<Card> {
    const key = `${event.key}\u0000${label ?? ''}`;
    const cached = this.cards.get(key);
    if (cached !== undefined) {
      // Re-insert: Map keeps insertion order, so the first key is always the least recently used.
      this.cards.delete(key);
      this.cards.set(key, cached);
      return cached;
    }
    this.built += 1;
    const card = Promise.resolve().then(() => this.build(event, label));
    // A build that failed is not kept: the next attempt builds again.
    card.catch(() => this.cards.delete(key));
    this.cards.set(key, card);
    if (this.cards.size > this.capacity) {
      const oldest = this.cards.keys().next();
      if (oldest.done !== true) this.cards.delete(oldest.value);
    }
    return card;
  }
}
