/**
 * The holdings of the wallets the service tags as snipers, bots or insiders (a holder record's
 * `tags`), and whether together they hold INSIDERS_DROP_PCT less than their highest total within
 * INSIDERS_WINDOW_MS: the state the insiders-selling kind keeps and the drop it tells. Pure.
 *
 * Decisions, where the spec is silent: a tag is matched by its text without case, so "sniper",
 * "Snipers" and "bot" all count; a record with no tags (not shown) neither adds nor removes a
 * wallet, and a wallet once tagged stays counted, since a later record may leave its tags out.
 * Once a drop is told, the window starts again from the total after it: the next alert needs
 * another quarter of what is left. An account that holds for a pool (src/market/poolAccounts.ts)
 * is never an insider, whatever its tags: a pool selling into the market is trading, not an exit.
 */
import { isPoolAccount } from '../market/poolAccounts';
import type { InsiderState, TokenSnapshot } from '../model/snapshot';
import type { HolderRecord } from './holderRecord';

/** A quarter of the insiders' holdings gone is a sell-off, not a trim. */
export const INSIDERS_DROP_PCT = 25;
/** Within an hour, as the price window: a slow drift over days is not news. */
export const INSIDERS_WINDOW_MS = 60 * 60_000;
/** At most one total kept a minute. */
const TOTAL_SAMPLE_MS = 60_000;
/** The tags that make a holder an insider; matched as parts of a tag, without case. */
const INSIDER_TAGS = ['sniper', 'bot', 'insider'];

export function isInsiderTag(tag: string): boolean {
  const lower = tag.toLowerCase();
  return INSIDER_TAGS.some((word) => lower.includes(word));
}

export interface InsiderDrop {
  /** The highest total within the window, and when it was kept. */
  fromTotal: bigint;
  fromAt: number;
  toTotal: bigint;
  /** Tagged wallets whose holding went down since `fromAt`. */
  sellers: string[];
}

/** The state after `holder` was read at `now`, and the drop it completes; null when the record is not a tagged holder's. */
export function insidersAfter(
  last: Pick<TokenSnapshot, 'insiders' | 'deployer' | 'pools'>,
  holder: HolderRecord,
  now: number,
): { state: InsiderState; drop: InsiderDrop | null } | null {
  if (isPoolAccount(holder.address, last.pools)) return null;
  const before = last.insiders;
  const known = before?.holdings[holder.address];
  const tagged = (holder.tags ?? []).some(isInsiderTag) && holder.address !== last.deployer;
  if (known === undefined && !tagged) return null;
  const held = holder.currentlyHoldingAmount < 0n ? 0n : holder.currentlyHoldingAmount;
  const heldText = held.toString();
  if (before !== undefined && known === heldText) return null;
  const holdings = { ...(before?.holdings ?? {}), [holder.address]: heldText };
  const soldAt = { ...(before?.soldAt ?? {}) };
  if (known !== undefined && held < BigInt(known)) soldAt[holder.address] = now;
  let total = 0n;
  for (const amount of Object.values(holdings)) total += BigInt(amount);
  const since = now - INSIDERS_WINDOW_MS;
  const totals = (before?.totals ?? []).filter(([at]) => at >= since && at <= now);
  let peak: [number, string] | undefined;
  for (const point of totals) if (peak === undefined || BigInt(point[1]) > BigInt(peak[1])) peak = point;
  let drop: InsiderDrop | null = null;
  if (peak !== undefined) {
    const fromTotal = BigInt(peak[1]);
    if (fromTotal > 0n && total * 100n <= fromTotal * BigInt(100 - INSIDERS_DROP_PCT)) {
      const fromAt = peak[0];
      const sellers = Object.keys(soldAt).filter((wallet) => (soldAt[wallet] ?? 0) >= fromAt);
      drop = { fromTotal, fromAt, toTotal: total, sellers };
    }
  }
  // Told once: the window starts again from here.
  if (drop !== null) return { state: { holdings, totals: [[now, total.toString()]], soldAt: {} }, drop };
  // Within a minute of the newest point only the minute's highest total is kept: the peak is what a drop is measured from.
  const newest = totals[totals.length - 1];
  if (newest !== undefined && now - newest[0] < TOTAL_SAMPLE_MS) {
    if (total > BigInt(newest[1])) totals[totals.length - 1] = [newest[0], total.toString()];
  } else totals.push([now, total.toString()]);
  return { state: { holdings, totals, soldAt }, drop: null };
}
