/**
 * An outbox row as both stores read it back, and the entries made of it. Each store selects these
 * columns under these names; rows of one event share one parsed event object, so a sender builds
 * its card once.
 */
import type { AlertEvent } from '../model/events';
import type { OutboxEntry } from '../model/follow';
import type { ChatColumns, ChatInterner } from './rows';
import type { AlertTold, DeliveredAlert } from './store';

export interface DueRow extends ChatColumns {
  id: number;
  event_id: number;
  label: string | null;
  attempts: number;
  created_at: number;
  next_attempt_at: number;
  event: string;
  held: string | null;
}

/** Last errors are kept for the operator, not whole: a platform's error body can be long. */
export const MAX_ERROR_LENGTH = 500;

/**
 * Reads rows' events, each event once however many rows (chats) share it. Written by a store from
 * an AlertEvent and never edited: read back as what it was.
 */
function eventReader(): (row: { event_id: number; event: string }) => AlertEvent {
  const events = new Map<number, AlertEvent>();
  return (row) => {
    let event = events.get(row.event_id);
    if (event === undefined) {
      event = JSON.parse(row.event) as AlertEvent;
      events.set(row.event_id, event);
    }
    return event;
  };
}

export function entriesOf(rows: readonly DueRow[], chats: ChatInterner): OutboxEntry[] {
  const eventOf = eventReader();
  return rows.map((row) => {
    const event = eventOf(row);
    return {
      id: row.id,
      chat: chats.chat(row),
      event,
      label: row.label,
      attempts: row.attempts,
      createdAt: new Date(row.created_at),
      nextAttemptAt: new Date(row.next_attempt_at),
      ...(row.held === 'quiet' || row.held === 'budget' ? { held: row.held } : {}),
    };
  });
}

/** A delivered row as /history reads it (times are epoch ms; PostgreSQL's bigint may come as text). */
export interface HistoryRow {
  label: string | null;
  created_at: number | string;
  delivered_at: number | string;
  held: string | null;
  event: string;
}

export function historyOf(rows: readonly HistoryRow[]): DeliveredAlert[] {
  return rows.map((row) => ({
    // Written by a store from an AlertEvent and never edited: read back as what it was.
    event: JSON.parse(row.event) as AlertEvent,
    label: row.label,
    createdAt: new Date(Number(row.created_at)),
    deliveredAt: new Date(Number(row.delivered_at)),
    held: row.held === 'quiet' || row.held === 'budget' ? row.held : null,
  }));
}

/** A row as toldSince reads it. */
export interface ToldRow extends ChatColumns {
  event_id: number;
  label: string | null;
  event: string;
}

export function toldOf(rows: readonly ToldRow[], chats: ChatInterner): AlertTold[] {
  const eventOf = eventReader();
  return rows.map((row) => ({ chat: chats.chat(row), event: eventOf(row), label: row.label }));
}
