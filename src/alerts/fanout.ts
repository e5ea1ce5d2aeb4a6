/**
 * Fan-out: which follows of a token or wallet are told of an event. Pure; the watcher reads the
 * follows from the store and writes one outbox row per follow chosen here.
 *
 * A follow is told when it is not muted at that moment, and its kind tells it: by default when it
 * wants the event's kind (an empty list wants every kind of its family: tokens get risk,
 * liquidity, price and whale alerts, wallets their trades); each kind may add its own rule (a
 * price move crossing the follow's threshold, a trade on its side and above its minimum USD).
 */
import type { AlertEvent } from '../model/events';
import type { AlertDelivery, Follow } from '../model/follow';
import { alertKind, kindsReading } from './registry';

/** Whether a follow asks for a kind of alert. A target wants none: only its own crossing tells it (the target kind's rule). */
export function followWants(follow: Pick<Follow, 'kind' | 'options'>, kind: string): boolean {
  if (follow.options.target !== null && follow.options.target !== undefined) return false;
  if (alertKind(kind)?.family !== follow.kind) return false;
  const wanted = follow.options.events;
  return wanted.length === 0 || wanted.includes(kind);
}

export function wantsEvent(follow: Follow, event: AlertEvent, now: number): boolean {
  if (follow.mutedUntil !== null && follow.mutedUntil.getTime() > now) return false;
  const kind = alertKind(event.kind);
  return kind !== undefined && kind.tells(follow, event, (name) => followWants(follow, name));
}

/** The chats to tell of `event` among `followers`, each with the follow's label. */
export function deliveriesFor(event: AlertEvent, followers: readonly Follow[], now: number): AlertDelivery[] {
  const out: AlertDelivery[] = [];
  for (const follow of followers) if (wantsEvent(follow, event, now)) out.push({ chat: follow.chat, label: follow.label });
  return out;
}

/** Whether any follow of a token wants an alert read from holder records: only then does the watcher open holders-live for it. */
export function needsHolders(followers: readonly Pick<Follow, 'kind' | 'options'>[]): boolean {
  return kindsReading('holder').some((kind) => followers.some((follow) => followWants(follow, kind.name)));
}
