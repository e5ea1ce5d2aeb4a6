/**
 * A young pump.fun token's bonding curve as a holder, as the vendor protocol shows it: the real
 * service lists the curve's account among the holders, under the pool's own address, and it holds
 * most of a young token's supply, so it comes first by balance (shared/spec/real-service.md). It
 * bought and sold nothing, carries no tag and counts in no holder count or top-10 figure; its
 * native balance is the SOL it holds.
 */
import type { PoolState, TokenBook } from './ledger';
import type { VendorHolderEvent } from './vendorWireTypes';
import type { WireHolder } from './wireTypes';
import { CHAIN_ID, intText, isoAt, rawText } from './units';

/** A token created less than this before the market's start, or after it, is young. */
export const YOUNG_TOKEN_SECS = 24 * 3600;

/** The token's bonding curve: the first pool of a young pump.fun token; null for any other token. */
export function bondingCurveOf(book: TokenBook, anchor: number): PoolState | null {
  if (book.profile.origin !== 'pump.fun' || anchor - book.createdAt >= YOUNG_TOKEN_SECS) return null;
  return book.pools[0] ?? null;
}

/** The curve as holders-history lists it. */
export function curveHolderView(book: TokenBook, pool: PoolState, now: number): WireHolder {
  return {
    chainId: CHAIN_ID,
    tokenAddress: book.profile.address,
    address: pool.address,
    currentlyHoldingAmount: rawText(pool.base, book.profile.extraDecimals),
    holderSince: pool.createdAt,
    totalBoughtAmount: 0,
    totalBoughtETH: 0,
    totalBuyTransactions: 0,
    totalSellTransactions: 0,
    totalSoldAmount: 0,
    totalBoughtUSD: 0,
    totalSoldUSD: 0,
    totalSoldETH: 0,
    sent: '0',
    received: 0,
    tags: [],
    syncedAt: isoAt(now),
    nativeBalance: intText(pool.quote),
  };
}

/** The curve as holders-live sends it. */
export function curveHolderEvent(book: TokenBook, pool: PoolState, now: number): VendorHolderEvent {
  const none = { amount: '0', usd: '0', transactions: 0 };
  return {
    event: 'holder',
    address: pool.address,
    tokenAddress: book.profile.address,
    currentAmount: rawText(pool.base, book.profile.extraDecimals),
    holderSince: isoAt(pool.createdAt),
    activity: { totalBought: { ...none }, totalSold: { ...none } },
    tags: [],
    nativeBalance: intText(pool.quote),
    syncedAt: isoAt(now),
  };
}
