/**
 * Every detector, and the one entry for a token's changes: what changed between the last-seen
 * snapshot and the next, asked of each kind that reads a token (src/alerts/registry.ts), in the
 * order their alerts are listed. Pure; the watcher and the tests call this one entry.
 */
import type { AlertEvent } from '../../model/events';
import type { Follow } from '../../model/follow';
import type { Trade } from '../../market/schemas';
import type { TokenSnapshot, WalletSnapshot } from '../../model/snapshot';
import { kindsReading } from '../registry';
import type { TokenNamer } from './walletTrade';
import type { HolderUpdate } from './whale';

export { detectLiquidity } from './liquidity';
export { detectPriceMove, PRICE_MIN_PCT } from './priceMove';
export { detectRiskFlags, flagChanges, OWNER_JUMP_PCT_OF_SUPPLY } from './riskFlag';
export { detectRiskStatus } from './riskStatus';
export { detectWalletTrades, bareTokenRef, type TokenNamer } from './walletTrade';
export { detectWhale, type HolderUpdate } from './whale';
export { detectTargets } from './target';

/**
 * The alerts of a token whose data went from `last` (null: first sight, no alert) to `next`, by
 * every kind that reads a token. `follows`: the token's follows, for the kinds that tell each
 * follow of its own level (a target); without them those kinds find nothing.
 */
export function detectTokenChanges(last: TokenSnapshot | null, next: TokenSnapshot, follows: readonly Follow[] = []): AlertEvent[] {
  if (last === null) return [];
  // Nearly every push finds nothing, or one thing: no list is joined for it (this runs per frame).
  let found: AlertEvent[] | null = null;
  for (const kind of kindsReading('token')) {
    const events = kind.detectToken(last, next, follows);
    if (events.length > 0) (found ??= []).push(...events);
  }
  return found ?? [];
}

/** The alerts one holder record tells, by every kind that reads holder records. */
export function detectHolderChanges(last: TokenSnapshot, update: HolderUpdate): AlertEvent[] {
  let found: AlertEvent[] | null = null;
  for (const kind of kindsReading('holder')) {
    const events = kind.detectHolder(last, update);
    if (events.length > 0) (found ??= []).push(...events);
  }
  return found ?? [];
}

/** The alerts a wallet's trades tell, by every kind that reads trades. */
export function detectTradeChanges(last: WalletSnapshot | null, wallet: string, trades: readonly Trade[], at: number, name: TokenNamer): AlertEvent[] {
  let found: AlertEvent[] | null = null;
  for (const kind of kindsReading('trades')) {
    const events = kind.detectTrades(last, wallet, trades, at, name);
    if (events.length > 0) (found ??= []).push(...events);
  }
  return found ?? [];
}
