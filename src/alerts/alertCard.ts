/**
 * The alert card: what changed, on which token, from what to what, and buttons to look closer.
 * Each kind builds its own (src/alerts/kinds/), on the parts every alert card shares
 * (cardParts.ts). Built once per event (and follow label) and rendered by the same renderers as
 * the look-ups, so every text written by strangers (token names, statuses, authorities, a chat's
 * wallet label) is cleaned there and escaped by the renderers; nothing is markup.
 *
 * `alertCard(event, label)` builds the card at once, without pictures. `alertCardWithChart` is
 * the same card with the kind's picture, if it has one (a price move's small chart; PNG encoding
 * runs off the event loop, hence a promise): what delivery should send when it can wait for it.
 */
import type { Card } from '../cards/card';
import type { AlertEvent } from '../model/events';
import { lookAlikeField } from '../cards/lookAlike';
import { alertKind } from './registry';

function kindOf(event: AlertEvent) {
  const kind = alertKind(event.kind);
  if (kind === undefined) throw new Error(`no alert kind named ${String(event.kind).slice(0, 40)}`);
  return kind;
}

/** The kind's card, led by a warning when the token copies a well-known one's name (every kind alike). */
function cardOf(event: AlertEvent, label: string | null): Card {
  const card = kindOf(event).card(event, label);
  const warning = lookAlikeField(event.token);
  if (warning !== null) card.fields.unshift(warning);
  return card;
}

/** The alert card of an event; `label` is the follow's name for a wallet (untrusted). No picture. */
export function alertCard(event: AlertEvent, label: string | null): Card {
  return cardOf(event, label);
}

/** The alert card, with its kind's picture when it has one. */
export async function alertCardWithChart(event: AlertEvent, label: string | null): Promise<Card> {
  const kind = kindOf(event);
  const card = cardOf(event, label);
  try {
    const picture = await kind.picture(event);
    if (picture !== null) card.image = picture;
  } catch {
    // A card without its picture is still the alert.
  }
  return card;
}
