/**
 * Fan-out: which follows of a token or wallet are told of an event. Pure; the watcher reads the
 * follows from the store and writes one outbox row per follow chosen here.
 *
 * A follow is told when: it wants the event's kind (an empty list wants every kind that fits a
 * follow of its kind: tokens get risk, liquidity, price and whale alerts, wallets their trades);
 * it is not muted at that moment; a price move crossed its threshold (|previous change| below it,
 * |change| at or above it); a wallet trade is on its side and at or above its minimum USD (a trade
 * whose USD value is unknown passes only a minimum of 0).
 */
import type { AlertDelivery, Follow, FollowKind } from '../model/follow';
import { PRICE_MIN_PCT } from './detectors/priceMove';
import type { AlertEvent, AlertKind } from '../model/events';

export const TOKEN_ALERT_KINDS: readonly AlertKind[] = ['risk-status', 'risk-flag', 'liquidity', 'price', 'whale'];
export const WALLET_ALERT_KINDS: readonly AlertKind[] = ['wallet-trade'];

export function kindsFor(kind: FollowKind): readonly AlertKind[] {
  return kind === 'token' ? TOKEN_ALERT_KINDS : WALLET_ALERT_KINDS;
}

/** Whether a follow asks for a kind of alert. */
export function followWants(follow: Pick<Follow, 'kind' | 'options'>, kind: AlertKind): boolean {
  if (!kindsFor(follow.kind).includes(kind)) return false;
  const wanted = follow.options.events;
  return wanted.length === 0 || wanted.includes(kind);
}

export function wantsEvent(follow: Follow, event: AlertEvent, now: number): boolean {
  if (follow.mutedUntil !== null && follow.mutedUntil.getTime() > now) return false;
  // A status change carries the flags that changed with it: a follow of flags alone is told too.
  const kindWanted =
    followWants(follow, event.kind) || (event.kind === 'risk-status' && event.flags.length > 0 && followWants(follow, 'risk-flag'));
  if (!kindWanted) return false;
  switch (event.kind) {
    case 'price': {
      // Below the detector's own floor a threshold means the floor.
      const threshold = Math.max(follow.options.thresholdPct, PRICE_MIN_PCT);
      const now = Math.abs(event.changePct);
      const previous = event.previousChangePct ?? 0;
      const before = Math.abs(previous);
      const turned = Math.sign(event.changePct) !== Math.sign(previous);
      return now >= threshold && (before < threshold || turned);
    }
    case 'wallet-trade': {
      const { side, minUsd } = follow.options;
      if (side !== 'both' && side !== event.side) return false;
      if (minUsd <= 0) return true;
      return event.amountUsd !== null && event.amountUsd >= minUsd;
    }
    default:
      return true;
  }
}

/** The chats to tell of `event` among `followers`, each with the follow's label. */
export function deliveriesFor(event: AlertEvent, followers: readonly Follow[], now: number): AlertDelivery[] {
  const out: AlertDelivery[] = [];
  for (const follow of followers) if (wantsEvent(follow, event, now)) out.push({ chat: follow.chat, label: follow.label });
  return out;
}

/** Whether any follow of a token wants whale alerts: only then does the watcher open holders-live for it. */
export function needsHolders(followers: readonly Pick<Follow, 'kind' | 'options'>[]): boolean {
  return followers.some((follow) => followWants(follow, 'whale'));
}
