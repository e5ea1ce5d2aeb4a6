/**
 * What every detector fills in of an event's base (EventBase): its key, the token as its snapshot
 * has it with the market figures, and the service's time of the data. Event keys: a key names the
 * subject and the change, never the moment it was noticed, so the stream and a reconciliation that
 * see the same change make the same key (and the outbox, unique per chat and key, keeps one row).
 * Parts written by strangers (a risk status is any string) are hashed, so a key stays short (at
 * most 200 characters) and plain.
 */
import { createHash } from 'node:crypto';
import type { AlertKind, TokenMarket, TokenRef } from '../../model/events';
import type { TokenSnapshot } from '../../model/snapshot';

export function eventKey(kind: AlertKind, subject: string, parts: ReadonlyArray<string | number | null>): string {
  const digest = createHash('sha1')
    .update(parts.map((part) => (part === null ? '\u0000' : String(part))).join('\u0001'))
    .digest('base64url')
    .slice(0, 16);
  // Addresses are at most 44 characters (base58) or 42 (0x); anything longer is cut, the digest still tells changes apart.
  return `${kind}:${subject.slice(0, 120)}:${digest}`;
}

/** The token as its snapshot has it now: name, decimals, supply, its current risk status (which colours the card) and its market. */
export function tokenRef(snapshot: TokenSnapshot): TokenRef {
  return {
    address: snapshot.address,
    symbol: snapshot.symbol,
    name: snapshot.name,
    decimals: snapshot.decimals ?? null,
    riskStatus: snapshot.riskStatus,
    totalSupply: snapshot.totalSupply ?? null,
    market: marketOf(snapshot),
  };
}

/**
 * The service's `syncedAt` of the data that showed the change (epoch ms), for the alert footer's
 * "seen Xs after the update"; null when that data had none. A snapshot keeps the last `syncedAt`
 * when its frame has none (to order what comes later), so one equal to the last state's is not this
 * data's own time, and a footer from it would overstate the delay.
 */
export function ownSyncedAt(last: TokenSnapshot | null, next: TokenSnapshot): number | null {
  const synced = next.syncedAt ?? null;
  return synced === null || synced === (last?.syncedAt ?? null) ? null : synced;
}

/** What every token kind's event says of when and of what: the time it was seen, the token, and the data's own time. */
export function tokenChange(last: TokenSnapshot | null, next: TokenSnapshot): { at: number; token: TokenRef; syncedAt: number | null } {
  return { at: next.seenAt, token: tokenRef(next), syncedAt: ownSyncedAt(last, next) };
}

/**
 * A holder record's `syncedAt` (ISO 8601 text) as epoch ms, for the footer of an alert read from
 * it: the time the service synced the balance that crossed the line. Null when absent or unreadable.
 */
export function holderSyncedAt(holder: { syncedAt?: string | null }): number | null {
  if (holder.syncedAt === undefined || holder.syncedAt === null) return null;
  const ms = Date.parse(holder.syncedAt);
  return Number.isFinite(ms) && ms > 0 ? ms : null;
}

const SOL_DECIMALS = 9;

/** A decimal string of smallest units as a number of whole units; null when unreadable. */
function whole(value: string | null | undefined, decimals: number | null | undefined): number | null {
  if (value === null || value === undefined || decimals === null || decimals === undefined) return null;
  try {
    const number = Number(BigInt(value)) / 10 ** decimals;
    return Number.isFinite(number) ? number : null;
  } catch {
    return null;
  }
}

/** Seconds between the data that last showed the pools and the snapshot's; null when they are the snapshot's own. */
function poolsAgeSecs(snapshot: TokenSnapshot): number | null {
  const shownAt = snapshot.poolsShownAt;
  if (shownAt === null || shownAt === undefined || shownAt >= snapshot.seenAt) return null;
  return Math.round((snapshot.seenAt - shownAt) / 1000);
}

/**
 * The market figures of a snapshot: its price, the change over the price window (the oldest price
 * kept, at most an hour back), price times supply, and the SOL in its pools.
 */
export function marketOf(snapshot: TokenSnapshot): TokenMarket {
  const price = snapshot.priceNative;
  const first = snapshot.priceHistory[0];
  const changed = price !== null && first !== undefined && first[1] > 0 && first[0] < snapshot.seenAt;
  const supply = whole(snapshot.totalSupply, snapshot.decimals);
  const poolsAge = poolsAgeSecs(snapshot);
  let liquidity: number | null = null;
  for (const pool of snapshot.pools) {
    const sol = whole(pool.quoteReserves, SOL_DECIMALS);
    if (sol !== null) liquidity = (liquidity ?? 0) + sol;
  }
  return {
    priceNative: price,
    priceUsd: snapshot.priceUsd,
    changePct: changed ? ((price - first[1]) / first[1]) * 100 : null,
    changeSecs: changed ? Math.round((snapshot.seenAt - first[0]) / 1000) : null,
    marketCapSol: price === null || supply === null ? null : price * supply,
    liquiditySol: liquidity,
    // Only when dated: an alert of current pools keeps the shape it always had.
    ...(poolsAge === null ? {} : { poolsAgeSecs: poolsAge }),
  };
}
