/**
 * Every token detector, in the order their alerts are listed: what changed between the last-seen
 * snapshot and the next. Pure; the watcher and the tests call this one entry.
 */
import type { AlertEvent } from '../../model/events';
import type { TokenSnapshot } from '../../model/snapshot';
import { detectLiquidity } from './liquidity';
import { detectPriceMove } from './priceMove';
import { detectRiskFlags } from './riskFlag';
import { detectRiskStatus } from './riskStatus';

export { detectLiquidity } from './liquidity';
export { detectPriceMove, PRICE_MIN_PCT } from './priceMove';
export { detectRiskFlags, flagChanges, OWNER_JUMP_PCT_OF_SUPPLY } from './riskFlag';
export { detectRiskStatus } from './riskStatus';
export { detectWalletTrades, bareTokenRef, type TokenNamer } from './walletTrade';
export { detectWhale, type HolderUpdate } from './whale';

/** The alerts of a token whose data went from `last` (null: first sight, no alert) to `next`. */
export function detectTokenChanges(last: TokenSnapshot | null, next: TokenSnapshot): AlertEvent[] {
  if (last === null) return [];
  const status = detectRiskStatus(last, next);
  const flags = detectRiskFlags(last, next);
  const liquidity = detectLiquidity(last, next);
  const price = detectPriceMove(last, next);
  // Nearly every push finds nothing, or one thing: no list is joined for it (this runs per frame).
  if (flags.length === 0 && liquidity.length === 0 && price.length === 0) return status;
  return [...status, ...flags, ...liquidity, ...price];
}
