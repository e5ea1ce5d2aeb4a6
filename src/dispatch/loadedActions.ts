/**
 * A command's card as a chat shows it. A card may offer actions for commands this installation
 * does not have (a look-up offers "Track" before tracking is set up): those are left off, so that
 * no button or hint ever leads to "Unknown command".
 */
import type { Card } from '../cards/card';

/** The card with only the actions whose command is loaded; the card itself when all of them are. */
export function withLoadedActions(card: Card, loaded: { has(name: string): boolean }): Card {
  let kept = 0;
  for (const action of card.actions) if (loaded.has(action.command)) kept += 1;
  return kept === card.actions.length ? card : { ...card, actions: card.actions.filter((action) => loaded.has(action.command)) };
}
