/**
 * `/calls forget me` reaches the alerts too: a call milestone event names its callers
 * (`calls[].userName`), stored as JSON for as long as the event is kept (a week after delivery)
 * and sent from it while queued. The events of the chat's milestones that name one of the
 * forgotten calls are rewritten with the name gone, in the same transaction as the calls' removal.
 */

/** The name a forgotten caller's lines show. */
export const FORGOTTEN_NAME = 'someone';

/** The event's JSON with the forgotten calls' names removed; null when it names none of them. */
export function withoutCallers(eventJson: string, forgotten: ReadonlySet<number>): string | null {
  let event: unknown;
  try {
    event = JSON.parse(eventJson);
  } catch {
    return null;
  }
  if (event === null || typeof event !== 'object' || !('calls' in event) || !Array.isArray(event.calls)) return null;
  let changed = false;
  for (const call of event.calls as unknown[]) {
    if (call === null || typeof call !== 'object' || !('callId' in call) || !('userName' in call)) continue;
    if (typeof call.callId !== 'number' || !forgotten.has(call.callId) || call.userName === FORGOTTEN_NAME) continue;
    (call as { userName: string }).userName = FORGOTTEN_NAME;
    changed = true;
  }
  return changed ? JSON.stringify(event) : null;
}

/** The statement that finds a chat's milestone events (both stores' SQL; `$n` or `?` placeholders by the caller). */
export const CHAT_MILESTONE_EVENTS =
  "SELECT e.id, e.event FROM events e WHERE e.kind = 'call-milestone' " +
  'AND EXISTS (SELECT 1 FROM outbox o WHERE o.event_id = e.id AND o.platform = {1} AND o.chat_id = {2})';
