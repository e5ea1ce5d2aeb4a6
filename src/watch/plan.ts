/**
 * Which live subscriptions the watcher's targets need, on the protocol the service speaks
 * (docs/streams.md):
 *
 * - spec's reading (our simulator's default): token-feed for every token (the whole token after
 *   each change), holders-live where some follow wants an alert read from holders, trades-live by
 *   wallet for every wallet (one wallet a subscription);
 * - vendor's: trades-live (each trade: its price) and chart-live (the current candle) for every
 *   token, holders-live where holders are wanted; never token-feed, which there is a market-wide
 *   filter feed, not a token's; and no wallet stream at all: wallets, and a token's risk, flags and
 *   pools, are polled over REST (src/jobs/restPolls.ts).
 */
import type { StreamProtocol } from '../market/stream';
import { subscriptionKey, type WantedSubscription } from './subscriptions';

/** The candle interval followed on chart-live: a minute, the price window's own step. */
export const WATCH_CANDLE_SECS = 60;

export function plannedSubscriptions(
  protocol: StreamProtocol,
  tokens: readonly string[],
  wallets: readonly string[],
  wantsHolders: (token: string) => boolean,
): Map<string, WantedSubscription> {
  const wanted = new Map<string, WantedSubscription>();
  const add = (want: WantedSubscription): void => {
    wanted.set(subscriptionKey(want.stream, want.address), want);
  };
  for (const token of tokens) {
    if (protocol === 'vendor') {
      add({ stream: 'trades-live', target: { tokenAddress: token }, address: token });
      add({ stream: 'chart-live', target: { tokenAddress: token, intervalSecs: WATCH_CANDLE_SECS }, address: token });
    } else add({ stream: 'token-feed', target: { tokenAddress: token }, address: token });
    if (wantsHolders(token)) add({ stream: 'holders-live', target: { tokenAddress: token }, address: token });
  }
  if (protocol === 'spec') for (const wallet of wallets) add({ stream: 'trades-live', target: { wallets: [wallet] }, address: wallet });
  return wanted;
}
