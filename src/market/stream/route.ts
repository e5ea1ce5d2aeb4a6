/**
 * Finds the subscription a decoded event belongs to on its socket, and builds the event the
 * consumer receives. A socket never holds two subscriptions that one event could match (the
 * client packs only disjoint targets), so an event goes to at most one subscription.
 */
import type { Decoded } from './decode';
import type { Subscription } from './subscription';
import { addressKey } from './target';
import type { StreamEvent } from './types';

export type DecodedEvent = Extract<Decoded, { type: 'event' }>;

export interface RouteTable {
  /** The subscription holding this routing key, if any. */
  byKey(key: string): Subscription | undefined;
  /** The socket's only subscription, or null when it has none or several. */
  single(): Subscription | null;
  /** Whether the socket's subscriptions follow wallets rather than tokens. */
  readonly follows: 'token' | 'wallets';
  /** The socket's current opening (see StreamEvent's `served`). */
  readonly opening: number;
}

export type RouteResult =
  | { type: 'matched'; subscription: Subscription; event: StreamEvent }
  /** The event names a token or wallet no subscription here follows (a late event after unsubscribe). */
  | { type: 'unmatched' }
  /** The event names nothing to route by, and the socket has several subscriptions. */
  | { type: 'unroutable' };

export function routeEvent(decoded: DecodedEvent, table: RouteTable): RouteResult {
  // The keys an event may be routed by, tried in order: for a wallets socket its wallet; for a
  // token socket its token, then (a bare trade names its token only as one side of the swap) the
  // trade's two sides. Tried one by one, with no list of them made per event.
  let named = false;
  let subscription: Subscription | undefined;
  if (table.follows === 'wallets') {
    if (decoded.wallet !== null) {
      named = true;
      subscription = table.byKey(addressKey(decoded.wallet));
    }
  } else {
    if (decoded.tokenAddress !== null) {
      named = true;
      subscription = table.byKey(addressKey(decoded.tokenAddress));
    }
    const { payload } = decoded;
    if (subscription === undefined && payload.kind === 'trade') {
      named = true;
      subscription = table.byKey(addressKey(payload.trade.tokenIn)) ?? table.byKey(addressKey(payload.trade.tokenOut));
    }
  }
  if (!subscription) {
    if (named) return { type: 'unmatched' };
    const only = table.single();
    if (!only) return { type: 'unroutable' };
    subscription = only;
  }
  return { type: 'matched', subscription, event: buildEvent(decoded, subscription, table.opening) };
}

function buildEvent(decoded: DecodedEvent, subscription: Subscription, served: number): StreamEvent {
  const target = subscription.target;
  // A token subscription's events are about its token, however the frame spelled or omitted it.
  const tokenAddress = target.kind === 'token' ? target.tokenAddress : (decoded.tokenAddress ?? '');
  const { payload, snapshot } = decoded;
  switch (payload.kind) {
    case 'token':
      return { stream: 'token-feed', kind: 'token', tokenAddress, snapshot, served, token: payload.token };
    case 'candle':
      return { stream: 'chart-live', kind: 'candle', tokenAddress, snapshot, served, candle: payload.candle, priceUnit: payload.priceUnit };
    case 'holder':
      return { stream: 'holders-live', kind: 'holder', tokenAddress, snapshot, served, holder: payload.holder };
    case 'trade':
      return { stream: 'trades-live', kind: 'trade', tokenAddress, wallet: decoded.wallet, snapshot, served, trade: payload.trade };
  }
}
