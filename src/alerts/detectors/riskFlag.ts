/**
 * A risk flag changed: mint or freeze authority set, cleared or handed to someone else; metadata
 * became mutable (or immutable); the owner's balance jumped. When the risk status changed at the
 * same time these changes ride in the risk-status event instead (one alert for one change; the
 * fan-out gives it to follows that want either kind).
 *
 * A snapshot whose risk analysis was not read (every flag null) is not compared: "unknown" is not
 * "renounced".
 *
 * Owner balance jump: a change of at least 1% of the total supply (the whale line), or, with the
 * supply unknown, a balance that appears, vanishes, doubles or halves.
 */
import type { FlagChange, RiskFlagEvent } from '../../model/events';
import { WHALE_SHARE_PCT } from '../snapshot';
import { type TokenSnapshot } from '../../model/snapshot';
import { eventKey, ownSyncedAt, tokenRef } from './key';
import { normalizeStatus } from './status';

export const OWNER_JUMP_PCT_OF_SUPPLY = WHALE_SHARE_PCT;

/** Whether the snapshot's risk analysis was read at all (every flag null: it was not). */
export function analysisRead(snapshot: TokenSnapshot): boolean {
  return snapshot.mintAuthority !== null || snapshot.freezeAuthority !== null || snapshot.isMutable !== null || snapshot.ownerBalance !== null;
}

function blankToNull(value: string | null): string | null {
  return value === null || value.trim() === '' ? null : value;
}

export function ownerBalanceJumped(from: string | null, to: string | null, totalSupply: string | null | undefined): boolean {
  if (from === to) return false;
  const a = from === null ? 0n : BigInt(from);
  const b = to === null ? 0n : BigInt(to);
  if (a === b) return false;
  const delta = a > b ? a - b : b - a;
  const supply = totalSupply === null || totalSupply === undefined ? 0n : BigInt(totalSupply);
  if (supply > 0n) return delta * 100n >= supply * BigInt(OWNER_JUMP_PCT_OF_SUPPLY);
  if (a === 0n || b === 0n) return true;
  return b >= a * 2n || b * 2n <= a;
}

/** Every flag as it was, to the letter: nothing to compare (the usual push). */
function sameFlags(last: TokenSnapshot, next: TokenSnapshot): boolean {
  return (
    last.mintAuthority === next.mintAuthority &&
    last.freezeAuthority === next.freezeAuthority &&
    last.isMutable === next.isMutable &&
    last.ownerBalance === next.ownerBalance
  );
}

/** The flags that differ between two snapshots (nothing when either analysis is unread). */
export function flagChanges(last: TokenSnapshot, next: TokenSnapshot): FlagChange[] {
  if (sameFlags(last, next) || !analysisRead(last) || !analysisRead(next)) return [];
  const changes: FlagChange[] = [];
  const mintFrom = blankToNull(last.mintAuthority);
  const mintTo = blankToNull(next.mintAuthority);
  if (mintFrom !== mintTo) changes.push({ flag: 'mintAuthority', from: mintFrom, to: mintTo });
  const freezeFrom = blankToNull(last.freezeAuthority);
  const freezeTo = blankToNull(next.freezeAuthority);
  if (freezeFrom !== freezeTo) changes.push({ flag: 'freezeAuthority', from: freezeFrom, to: freezeTo });
  if (last.isMutable !== null && next.isMutable !== null && last.isMutable !== next.isMutable) {
    changes.push({ flag: 'mutable', from: String(last.isMutable), to: String(next.isMutable) });
  }
  if (ownerBalanceJumped(last.ownerBalance, next.ownerBalance, next.totalSupply ?? last.totalSupply)) {
    changes.push({ flag: 'ownerBalance', from: last.ownerBalance, to: next.ownerBalance });
  }
  return changes;
}

export function detectRiskFlags(last: TokenSnapshot | null, next: TokenSnapshot): RiskFlagEvent[] {
  if (last === null) return [];
  const changes = flagChanges(last, next);
  if (changes.length === 0) return [];
  const from = normalizeStatus(last.riskStatus);
  const to = normalizeStatus(next.riskStatus);
  // A status change carries its flags itself (see riskStatus.ts).
  if (from !== null && to !== null && from !== to) return [];
  const parts = changes.flatMap((change) => [change.flag, change.from, change.to]);
  return [
    {
      kind: 'risk-flag',
      key: eventKey('risk-flag', next.address, [...parts, last.seenAt]),
      at: next.seenAt,
      token: tokenRef(next),
      syncedAt: ownSyncedAt(last, next),
      changes,
    },
  ];
}
