/**
 * What the detectors read of a token's state as it was last written to the store: the watcher
 * writes a pushed token again only when one of these changed, or STATE_WRITE_MS passed (the price
 * window is what moves between). Compared field by field, with nothing built per push: this runs
 * for every frame, and a text fingerprint per push was both time and garbage.
 */
import type { PoolSnapshot, TokenSnapshot } from '../model/snapshot';

export interface WrittenToken {
  /** Epoch ms of the write. */
  at: number;
  riskStatus: string | null;
  mintAuthority: string | null;
  freezeAuthority: string | null;
  isMutable: boolean | null;
  ownerBalance: string | null;
  totalSupply: string | null;
  holdersSeenAt: number | null;
  name: string;
  symbol: string;
  /** Time of the oldest price kept: the window's start. */
  windowStart: number | null;
  pools: readonly PoolSnapshot[];
  whales: Readonly<Record<string, string>>;
  devSoldLine: number | null;
  /** A new object whenever a tagged holder's holding changes (src/alerts/insiders.ts). */
  insiders: TokenSnapshot['insiders'] | null;
}

/** The record of `snapshot` written at `at`. */
export function writtenToken(snapshot: TokenSnapshot, at: number): WrittenToken {
  return {
    at,
    riskStatus: snapshot.riskStatus,
    mintAuthority: snapshot.mintAuthority,
    freezeAuthority: snapshot.freezeAuthority,
    isMutable: snapshot.isMutable,
    ownerBalance: snapshot.ownerBalance,
    totalSupply: snapshot.totalSupply ?? null,
    holdersSeenAt: snapshot.holdersSeenAt ?? null,
    name: snapshot.name,
    symbol: snapshot.symbol,
    windowStart: windowStart(snapshot),
    pools: snapshot.pools,
    whales: snapshot.whales,
    devSoldLine: snapshot.devSoldLine ?? null,
    insiders: snapshot.insiders ?? null,
  };
}

/** Whether `snapshot` holds nothing a detector reads that `written` does not. */
export function sameAsWritten(written: WrittenToken, snapshot: TokenSnapshot): boolean {
  return (
    written.riskStatus === snapshot.riskStatus &&
    written.mintAuthority === snapshot.mintAuthority &&
    written.freezeAuthority === snapshot.freezeAuthority &&
    written.isMutable === snapshot.isMutable &&
    written.ownerBalance === snapshot.ownerBalance &&
    written.totalSupply === (snapshot.totalSupply ?? null) &&
    written.holdersSeenAt === (snapshot.holdersSeenAt ?? null) &&
    written.name === snapshot.name &&
    written.symbol === snapshot.symbol &&
    written.windowStart === windowStart(snapshot) &&
    samePools(written.pools, snapshot.pools) &&
    sameWhales(written.whales, snapshot.whales) &&
    written.devSoldLine === (snapshot.devSoldLine ?? null) &&
    written.insiders === (snapshot.insiders ?? null)
  );
}

function windowStart(snapshot: TokenSnapshot): number | null {
  return snapshot.priceHistory[0]?.[0] ?? null;
}

function samePools(a: readonly PoolSnapshot[], b: readonly PoolSnapshot[]): boolean {
  // A snapshot whose pools did not change keeps the previous list itself (snapshot.ts readPools).
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) {
    const x = a[index];
    const y = b[index];
    if (x === y) continue;
    if (x === undefined || y === undefined) return false;
    if (
      x.poolAddress !== y.poolAddress ||
      x.quoteReserves !== y.quoteReserves ||
      (x.peakQuoteReserves ?? null) !== (y.peakQuoteReserves ?? null) ||
      (x.protocol ?? null) !== (y.protocol ?? null)
    )
      return false;
  }
  return true;
}

function sameWhales(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}
