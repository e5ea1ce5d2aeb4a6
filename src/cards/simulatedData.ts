/**
 * The mark a card carries when the bot runs on its built-in simulator: "simulated data" at the head
 * of its footer. It is put on the platform-neutral Card, so every renderer (Discord embed footer,
 * Telegram HTML, console text) shows it without knowing about it. At the head, because renderers
 * cut a long footer from its end.
 *
 * One marked card per card: an alert's card is shared by every chat it goes to and rendered once
 * per platform (src/delivery/renderOnce.ts), which needs the same object each time.
 */
import type { Card } from './card';

export const SIMULATED_DATA = 'simulated data';

const marked = new WeakMap<Card, Card>();
const markedCards = new WeakSet<Card>();

export function withSimulatedData(card: Card): Card {
  if (markedCards.has(card)) return card;
  const known = marked.get(card);
  if (known !== undefined) return known;
  const footer = card.footer === undefined || card.footer.trim() === '' ? SIMULATED_DATA : `${SIMULATED_DATA} · ${card.footer}`;
  const copy: Card = { ...card, footer };
  marked.set(card, copy);
  markedCards.add(copy);
  return copy;
}
