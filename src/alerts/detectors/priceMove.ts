/**
 * Price moved: the price against the oldest price seen within the window (PRICE_WINDOW_MS, an
 * hour). Each follow has its own threshold, so the detector does not decide who is told: it emits
 * whenever the move grows (in size, or changes direction) past the smallest threshold any follow
 * may use (PRICE_MIN_PCT), with the change now and at the previous price; the fan-out then tells a
 * follow when the move crosses its threshold (wantsEvent in ../fanout.ts).
 *
 * Key: the token, the start of the window, the direction and the whole percent reached. The same
 * crossing seen again (the price falls back under a threshold and rises past it within the same
 * window and whole percent) is the same key, so a chat is told once.
 */
import type { PriceEvent } from '../../model/events';
import type { TokenSnapshot } from '../../model/snapshot';
import { eventKey, ownSyncedAt, tokenRef } from './key';

/** Moves smaller than this are never alerted, whatever a follow asks. */
export const PRICE_MIN_PCT = 1;

export function detectPriceMove(last: TokenSnapshot | null, next: TokenSnapshot): PriceEvent[] {
  if (last === null || last.priceNative === null || next.priceNative === null) return [];
  const start = next.priceHistory[0];
  if (!start || start[0] >= next.seenAt || !(start[1] > 0)) return [];
  const [startAt, from] = start;
  const changePct = ((next.priceNative - from) / from) * 100;
  const previousChangePct = ((last.priceNative - from) / from) * 100;
  if (!Number.isFinite(changePct) || Math.abs(changePct) < PRICE_MIN_PCT) return [];
  const turned = Math.sign(changePct) !== Math.sign(previousChangePct);
  if (!turned && Math.abs(changePct) <= Math.abs(previousChangePct)) return [];
  const direction = changePct > 0 ? 'up' : 'down';
  return [
    {
      kind: 'price',
      key: eventKey('price', next.address, [startAt, direction, Math.floor(Math.abs(changePct))]),
      at: next.seenAt,
      token: tokenRef(next),
      syncedAt: ownSyncedAt(last, next),
      from,
      to: next.priceNative,
      changePct,
      previousChangePct: Number.isFinite(previousChangePct) ? previousChangePct : 0,
      windowSecs: Math.round((next.seenAt - startAt) / 1000),
      priceUsd: next.priceUsd,
      points: next.priceHistory.map(([at, price]): [number, number] => [at, price]),
    },
  ];
}
