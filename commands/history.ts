/**
 * /history [N]: the last N alerts delivered to this chat (20 by default, at most 25: a card's
 * fields), newest first, each with when it was detected (written to the outbox) and delivered.
 * Read from the outbox's delivered rows, which are kept a week (src/delivery/delivery.ts), so the
 * list survives a restart.
 */
import { field, type Card, type CardField } from '../src/cards/card';
import { alertKind } from '../src/alerts/registry';
import { defineCommand } from '../src/dispatch/command';
import { ServiceMissingError } from '../src/dispatch/services';
import type { DeliveredAlert } from '../src/store/store';
import { cardTime } from '../src/text/format';
import { cleanText } from '../src/text/sanitize';
import { UsageError } from '../src/usage';

const DEFAULT_COUNT = 20;
/** Discord's 25 fields a card. */
const MAX_COUNT = 25;

/** Whole seconds, minutes or hours between two moments, as a reader says them. */
export function lapse(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7_200) return `${Math.round(seconds / 60)}m`;
  return `${Math.round(seconds / 3_600)}h`;
}

/** The alert's own card title (hostile token names cleaned), or its kind when the card cannot be made. */
function titleOf(alert: DeliveredAlert): string {
  try {
    const kind = alertKind(alert.event.kind);
    if (kind !== undefined) return cleanText(kind.card(alert.event, alert.label).title, 120, alert.event.kind);
  } catch {
    // An old event an updated card no longer reads: its kind still says what it was.
  }
  return cleanText(alert.event.kind, 40, 'alert');
}

function entry(alert: DeliveredAlert): CardField {
  const held = alert.held === 'quiet' ? ' (held for quiet hours)' : alert.held === 'budget' ? ' (held past the hourly budget)' : '';
  return field(
    titleOf(alert),
    `detected ${cardTime(alert.createdAt)} · delivered ${lapse(alert.deliveredAt.getTime() - alert.createdAt.getTime())} later${held}`,
  );
}

function historyCard(alerts: readonly DeliveredAlert[], asked: number): Card {
  return {
    title:
      alerts.length === 0 ? 'No alerts delivered here yet' : `Last ${alerts.length} alert${alerts.length === 1 ? '' : 's'} delivered here`,
    description: [{ text: alerts.length < asked ? 'Newest first. Delivered alerts are kept for a week.' : 'Newest first.' }],
    color: 'info',
    fields: alerts.map(entry),
    actions: [],
  };
}

export default defineCommand({
  name: 'history',
  description: 'The last alerts delivered to this chat, with when each was detected and delivered',
  help: [
    `Shows the last N alerts delivered to this chat (default ${DEFAULT_COUNT}, at most ${MAX_COUNT}), newest first, each with when it was detected and how long after it was delivered.`,
    'Delivered alerts are kept for a week.',
    'Example: /history 10',
  ].join('\n'),
  options: [
    {
      name: 'count',
      type: 'text',
      description: `How many (default ${DEFAULT_COUNT}, at most ${MAX_COUNT})`,
      required: false,
      maxLength: 4,
    },
  ],
  async run(args, ctx) {
    const history = ctx.alertHistory;
    if (history === undefined) throw new ServiceMissingError('Alert history');
    let count = DEFAULT_COUNT;
    if (args.count !== undefined) {
      if (!/^\d{1,4}$/.test(args.count.trim()) || Number(args.count) < 1)
        throw new UsageError(`count must be a number of alerts, not "${args.count.slice(0, 8)}"`, null, 'Write /history, or /history 10.');
      count = Math.min(MAX_COUNT, Number(args.count));
    }
    return historyCard(await history.history(ctx.chat, count), count);
  },
});
