/**
 * Renders a card once per platform, however many chats receive it. Delivery hands every chat the
 * same Card object for the same event (see AlertCardCache), so a sender that wraps its renderer
 * in `renderOnce` turns a fan-out to 300 chats into one render. A WeakMap, so a card no longer
 * cached anywhere takes its render with it.
 */
import type { Card } from '../cards/card';

export function renderOnce<T>(render: (card: Card) => T): (card: Card) => T {
  const rendered = new WeakMap<Card, { value: T }>();
  return (card) => {
    const hit = rendered.get(card);
    if (hit !== undefined) return hit.value;
    const value = render(card);
    rendered.set(card, { value });
    return value;
  };
}
