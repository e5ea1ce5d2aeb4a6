/**
 * Digests: when a chat has more alerts waiting than it can sensibly read one by one (after an
 * outage, or a busy market), they are merged into one card listing each alert in a line or two.
 * Nothing is dropped: a backlog larger than one digest holds becomes several digests, in order.
 */
import { plainText, type Card, type CardColor, type CardField } from '../cards/card';
import { truncateText } from '../text/sanitize';

/** More alerts than this waiting for one chat are sent as digests. */
export const DIGEST_THRESHOLD = 5;
/**
 * Alerts in one digest card. With each entry capped below, ten fit every platform: Discord's 25
 * fields and 6,000 characters, Telegram's 4,096 a message.
 */
export const DIGEST_MAX_ITEMS = 10;
const ENTRY_NAME_MAX = 120;
const ENTRY_VALUE_MAX = 240;

/**
 * The alerts' colour when they all share it (one token's alerts, or tokens of one risk status),
 * else neutral: a colour names a risk status, and a digest of tokens in different states has none.
 */
function sharedColor(colors: readonly CardColor[]): CardColor {
  const [first] = colors;
  return first !== undefined && colors.every((color) => color === first) ? first : 'neutral';
}

/** One line or two that say what an alert says: its description, else its first fields. */
function summary(card: Card): string {
  if (card.description !== undefined && plainText(card.description).trim() !== '') return plainText(card.description);
  const parts = card.fields.slice(0, 3).map((field) => `${field.name}: ${plainText(field.value)}`);
  return parts.length > 0 ? parts.join(' · ') : '—';
}

function entry(card: Card): CardField {
  return {
    name: truncateText(card.title, ENTRY_NAME_MAX),
    value: [{ text: truncateText(summary(card).replace(/\s*\n\s*/g, ' · '), ENTRY_VALUE_MAX) }],
  };
}

/**
 * One digest card for up to DIGEST_MAX_ITEMS alerts, oldest first. `part` and `parts` go in the
 * title when a backlog needs more than one, so a reader knows none is missing.
 */
export function digestCard(
  cards: readonly Card[],
  now: Date,
  part = 1,
  parts = 1,
  why = 'Several alerts arrived at once; here they are together, oldest first.',
): Card {
  const total = cards.length;
  return {
    title: parts > 1 ? `${total} alerts (digest ${part} of ${parts})` : `${total} alerts`,
    description: [{ text: why }],
    color: sharedColor(cards.map((card) => card.color)),
    fields: cards.map(entry),
    footer: 'Use /following to see what this chat follows, /mute to quiet one.',
    timestamp: now,
    actions: [],
  };
}
