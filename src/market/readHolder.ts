/**
 * HolderSchema's reading (schemas.ts) written out by hand, for the stream's hot path: a
 * holders-live subscription opens with the token's largest holders, so a watcher of 10,000 tokens
 * reads 200,000 records at start, and a zod run per field (18 fields) was most of that reading's
 * time and garbage. Each field is read by the very function its schema uses (wire.ts), so the
 * result is the schema's, to the key order.
 *
 * Anything this reader does not accept gives null, and parseHolder then runs HolderSchema, which
 * either accepts it after all or says why not (the reason of an unreadable frame is always zod's
 * own). test/market/readHolder.test.ts holds the two side by side.
 */
import { isPlainObject, optionalAmount, SHORT_DIGITS, UNREAD, Unread } from './fastRead';
import { type Holder, HolderSchema } from './schemas';
import { isOverlongAmount, readAmount, readDecimal, readOptionalInteger, readOptionalText } from './wire';

/** wire.ts's required amount: over-long or unreadable goes to the schema, which refuses it. */
function requiredAmount(value: unknown): bigint {
  if (typeof value === 'string' && SHORT_DIGITS.test(value)) return BigInt(value);
  if (isOverlongAmount(value)) throw UNREAD;
  const amount = readAmount(value);
  if (amount === null) throw UNREAD;
  return amount;
}

/** wire.ts's textList. */
function textList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The Holder HolderSchema would give, or null when the schema must be asked (see the file's head). */
export function readHolderFast(value: Record<string, unknown>): Holder | null {
  const address = value.address;
  if (typeof address !== 'string') return null;
  try {
    return {
      chainId: readOptionalInteger(value.chainId),
      tokenAddress: readOptionalText(value.tokenAddress),
      address,
      currentlyHoldingAmount: requiredAmount(value.currentlyHoldingAmount),
      holderSince: readOptionalInteger(value.holderSince),
      totalBoughtAmount: optionalAmount(value.totalBoughtAmount),
      totalBoughtETH: readDecimal(value.totalBoughtETH),
      totalBuyTransactions: readOptionalInteger(value.totalBuyTransactions),
      totalSellTransactions: readOptionalInteger(value.totalSellTransactions),
      totalSoldAmount: optionalAmount(value.totalSoldAmount),
      totalBoughtUSD: readDecimal(value.totalBoughtUSD),
      totalSoldUSD: readDecimal(value.totalSoldUSD),
      totalSoldETH: readDecimal(value.totalSoldETH),
      sent: optionalAmount(value.sent),
      received: optionalAmount(value.received),
      tags: textList(value.tags),
      syncedAt: readOptionalText(value.syncedAt),
      nativeBalance: optionalAmount(value.nativeBalance),
    };
  } catch (error) {
    if (error instanceof Unread) return null;
    throw error;
  }
}

/** A Holder from what the service sent: by the hand-written reading when it takes it, else by HolderSchema, whose verdict stands. */
export function parseHolder(raw: unknown): ReturnType<typeof HolderSchema.safeParse> {
  const fast = isPlainObject(raw) ? readHolderFast(raw) : null;
  return fast !== null ? { success: true, data: fast } : HolderSchema.safeParse(raw);
}
