/**
 * Alert cards built once per event: a risk change followed in 300 chats is one card, not 300. The
 * key holds the event key and the follow's label, since a wallet's label is part of its card. A
 * small LRU bound keeps a long backlog from holding every card it ever built.
 */
import type { Card } from '../cards/card';
import type { AlertEvent } from '../watch/events';

export type AlertCardBuilder = (event: AlertEvent, label: string | null) => Card;

export class AlertCardCache {
  private readonly cards = new Map<string, Card>();
  /** Cards actually built (for tests and the bench: one per event, whatever the fan-out). */
  built = 0;

  constructor(
    private readonly build: AlertCardBuilder,
    private readonly capacity = 1_000,
  ) {}

  get(event: AlertEvent, label: string | null): Card {
    const key = `${event.key}\u0000${label ?? ''}`;
    const cached = this.cards.get(key);
    if (cached !== undefined) {
      // Re-insert: Map keeps insertion order, so the first key is always the least recently used.
      this.cards.delete(key);
      this.cards.set(key, cached);
      return cached;
    }
    const card = this.build(event, label);
    this.built += 1;
    this.cards.set(key, card);
    if (this.cards.size > this.capacity) {
      const oldest = this.cards.keys().next();
      if (oldest.done !== true) this.cards.delete(oldest.value);
    }
    return card;
  }
}
