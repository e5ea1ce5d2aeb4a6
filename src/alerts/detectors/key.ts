/**
 * Event keys. A key names the subject and the change, never the moment it was noticed, so the
 * stream and a reconciliation that see the same change make the same key (and the outbox, unique
 * per chat and key, keeps one row). Parts written by strangers (a risk status is any string) are
 * hashed, so a key stays short (at most 200 characters) and plain.
 */
import { createHash } from 'node:crypto';
import type { AlertKind, TokenRef } from '../../model/events';
import type { TokenSnapshot } from '../../model/snapshot';

export function eventKey(kind: AlertKind, subject: string, parts: ReadonlyArray<string | number | null>): string {
  const digest = createHash('sha1')
    .update(parts.map((part) => (part === null ? '\u0000' : String(part))).join('\u0001'))
    .digest('base64url')
    .slice(0, 16);
  // Addresses are at most 44 characters (base58) or 42 (0x); anything longer is cut, the digest still tells changes apart.
  return `${kind}:${subject.slice(0, 120)}:${digest}`;
}

/** The token as its snapshot has it now: name, decimals, supply and its current risk status, which colours the card. */
export function tokenRef(snapshot: Pick<TokenSnapshot, 'address' | 'symbol' | 'name' | 'decimals' | 'riskStatus' | 'totalSupply'>): TokenRef {
  return {
    address: snapshot.address,
    symbol: snapshot.symbol,
    name: snapshot.name,
    decimals: snapshot.decimals ?? null,
    riskStatus: snapshot.riskStatus,
    totalSupply: snapshot.totalSupply ?? null,
  };
}
