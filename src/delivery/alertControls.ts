/**
 * A chat's own controls over its alerts, applied by the drain before anything is sent: quiet
 * hours hold its alerts until they end, and an hourly budget holds those past it until the next
 * clock hour. Held rows stay in the outbox, marked with why, and come due together: the drain
 * sends them as a digest then. Nothing is dropped, and held rows never count against the budget.
 *
 * A status change to DANGER goes at once through quiet hours (unless they are strict) and is never
 * held by the budget: it is the one alert a chat would rather be woken for.
 */
import type { Card } from '../cards/card';
import type { OutboxEntry } from '../model/follow';
import type { ChatRef } from '../model/chat';
import type { ChatSettings, HoldReason, Store } from '../store/store';
import { quietUntil } from './quietHours';

const HOUR_MS = 3_600_000;

export function isDangerChange(row: OutboxEntry): boolean {
  return row.event.kind === 'risk-status' && typeof row.event.to === 'string' && row.event.to.toUpperCase() === 'DANGER';
}

export interface ControlResult {
  /** The rows to send now, in their order. */
  send: OutboxEntry[];
  /** Set when the budget held rows: the clock hour (epoch ms) it ran out in, and its size. */
  budgetSpent: { hourStart: number; budget: number; until: number } | null;
}

/** Holds what the chat's settings say must wait; returns what goes now. */
export async function applyAlertControls(
  store: Pick<Store, 'outbox'>,
  chat: ChatRef,
  settings: Pick<ChatSettings, 'quiet' | 'budget'>,
  rows: readonly OutboxEntry[],
  now: Date,
): Promise<ControlResult> {
  const hold = async (held: readonly OutboxEntry[], until: number, reason: HoldReason): Promise<void> => {
    await store.outbox.hold(
      held.map((row) => row.id),
      new Date(until),
      reason,
    );
  };
  let send = [...rows];
  const quiet = settings.quiet ?? null;
  if (quiet !== null) {
    const until = quietUntil(quiet, now.getTime());
    if (until !== null) {
      const waiting = send.filter((row) => quiet.strict || !isDangerChange(row));
      await hold(waiting, until, 'quiet');
      send = send.filter((row) => !waiting.includes(row));
    }
  }
  const budget = settings.budget ?? null;
  if (budget === null || budget <= 0) return { send, budgetSpent: null };
  const counted = send.filter((row) => row.held === undefined && !isDangerChange(row));
  if (counted.length === 0) return { send, budgetSpent: null };
  const hourStart = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const room = Math.max(0, budget - (await store.outbox.deliveredCount(chat, new Date(hourStart))));
  if (counted.length <= room) return { send, budgetSpent: null };
  const over = counted.slice(room);
  await hold(over, hourStart + HOUR_MS, 'budget');
  return { send: send.filter((row) => !over.includes(row)), budgetSpent: { hourStart, budget, until: hourStart + HOUR_MS } };
}

/** The once-an-hour word that the budget ran out, and when the rest will come. */
export function budgetNoticeCard(budget: number, until: Date): Card {
  const at = until.toISOString().slice(11, 16);
  return {
    title: 'Hourly alert budget reached',
    description: [
      {
        text:
          `This chat has had its ${budget} alerts for this hour. The rest are kept, none dropped, ` +
          `and come as one digest at ${at} UTC. Change it with /settings budget.`,
      },
    ],
    color: 'info',
    fields: [],
    footer: 'Said once an hour at most.',
    timestamp: until,
    actions: [],
  };
}

/** The digest's opening line for rows held back. */
export function heldDigestText(reason: HoldReason): string {
  return reason === 'quiet'
    ? 'Held during this chat’s quiet hours; here they are together, oldest first.'
    : 'Past this chat’s hourly budget; here they are together, oldest first.';
}
