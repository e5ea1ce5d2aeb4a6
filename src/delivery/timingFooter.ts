/**
 * An alert's footer says how quick the bot was: how long after the event it was detected and how
 * long after that it was sent ("seen 2s after the trade · sent 1s later"). Only from the event's
 * own time (a trade's timestamp, a frame's `syncedAt` where the event carries it): an event without
 * one says nothing, since a guessed time would make the figure a lie.
 */
import type { Card } from '../cards/card';
import type { AlertEvent } from '../model/events';

/** The event's own time (epoch ms) and what to call it, or null when it has none. */
export function eventOwnTime(event: AlertEvent): { at: number; what: string } | null {
  if (event.kind === 'wallet-trade')
    return Number.isFinite(event.timestamp) && event.timestamp > 0 ? { at: event.timestamp * 1000, what: 'the trade' } : null;
  // Read back from the outbox's JSON: checked, not trusted.
  const synced: unknown = event.syncedAt;
  return typeof synced === 'number' && Number.isFinite(synced) && synced > 0 ? { at: synced, what: 'the update' } : null;
}

function lapse(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7_200) return `${Math.round(seconds / 60)}m`;
  return `${Math.round(seconds / 3_600)}h`;
}

/** "seen 2s after the trade · sent 1s later", or null when the event has no time of its own. */
export function timingLine(event: AlertEvent, sentAt: Date): string | null {
  const own = eventOwnTime(event);
  if (own === null) return null;
  return `seen ${lapse(event.at - own.at)} after ${own.what} · sent ${lapse(sentAt.getTime() - event.at)} later`;
}

/**
 * The card with its timing line in the footer; the same card when there is none. A new object only
 * then: a card shared by many chats keeps its one render (renderOnce) for every kind without a time.
 */
export function withTiming(card: Card, event: AlertEvent, sentAt: Date): Card {
  const line = timingLine(event, sentAt);
  if (line === null) return card;
  return { ...card, footer: card.footer === undefined || card.footer === '' ? line : `${card.footer} · ${line}` };
}
