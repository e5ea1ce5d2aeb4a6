/**
 * Every token detector, in the order their alerts are listed: what changed between the last-seen
 * snapshot and the next. Pure; the watcher and the tests call this one entry.
 */
import type { AlertEvent } from '../events';
import type { TokenSnapshot } from '../snapshot';
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
  return [...detectRiskStatus(last, next), ...detectRiskFlags(last, next), ...detectLiquidity(last, next), ...detectPriceMove(last, next)];
}
