/**
 * A risk flag changed: mint or freeze authority, mutable metadata, the owner's balance.
 *
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
import { field, type Card } from '../../cards/card';
import { OWNER_SHARE_WARNING_PERCENT, UNKNOWN, sharePercent } from '../../cards/tokenFacts';
import type { FlagChange, FlagState, RiskFlagEvent, TokenRef } from '../../model/events';
import { formatTokenAmount, percent, shortAddress } from '../../text/format';
import { untrusted } from '../../text/sanitize';
import { base, marketFields, tokenActions, tokenLink, tokenName } from '../cardParts';
import { defineAlertKind } from '../kind';
import { WHALE_SHARE_PCT } from '../snapshot';
import type { TokenSnapshot } from '../../model/snapshot';
import { eventKey, tokenChange } from '../detect/eventBase';
import { normalizeStatus } from '../detect/normalizeStatus';

export const OWNER_JUMP_PCT_OF_SUPPLY = WHALE_SHARE_PCT;

/** Whether the snapshot's risk analysis was read at all (every flag null: it was not). */
export function analysisRead(snapshot: TokenSnapshot): boolean {
  return (
    snapshot.mintAuthority !== null || snapshot.freezeAuthority !== null || snapshot.isMutable !== null || snapshot.ownerBalance !== null
  );
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
      ...tokenChange(last, next),
      changes,
    },
  ];
}

const FLAG_VALUE_MAX = 64;

const FLAG_LABELS: Record<FlagChange['flag'], string> = {
  mintAuthority: 'Mint authority',
  freezeAuthority: 'Freeze authority',
  mutable: 'Metadata',
  ownerBalance: 'Owner balance',
};

function authorityState(value: string | null): string {
  return value === null ? 'renounced' : `active (${shortAddress(untrusted(value, FLAG_VALUE_MAX, '?'))})`;
}

/** A decimal string as read from the event (it went through JSON and a store); null when it is not one. */
function bigintOf(value: string | null | undefined): bigint | null {
  if (value === null || value === undefined) return null;
  try {
    return BigInt(value);
  } catch {
    return null;
  }
}

/**
 * An owner balance as a reader weighs it: the amount in whole tokens with the symbol, and its
 * share of the supply when the supply is known. A bare "25.2M" said neither what was held nor
 * whether it was much.
 */
function ownerAmount(value: string | null, token: TokenRef): { amount: string; share: string | null; sharePct: number | null } {
  if (value === null) return { amount: 'none', share: null, sharePct: null };
  const amount = bigintOf(value);
  if (amount === null) return { amount: UNKNOWN, share: null, sharePct: null };
  if (amount === 0n) return { amount: 'none', share: null, sharePct: 0 };
  const decimals = token.decimals;
  const symbol = untrusted(token.symbol, 16);
  const share = sharePercent(amount, bigintOf(token.totalSupply));
  if (decimals === null || decimals === undefined) return { amount: `${formatTokenAmount(amount, 0)} units`, share: null, sharePct: share };
  return {
    amount: symbol === '' ? formatTokenAmount(amount, decimals) : `${formatTokenAmount(amount, decimals)} ${symbol}`,
    share: share === null ? null : percent(share),
    sharePct: share,
  };
}

/** "25.2M MOCHI (5.04%) → 17.8M MOCHI (3.56% of supply)": the last share named says what the shares are of. */
function ownerChange(from: string | null, to: string | null, token: TokenRef): string {
  const before = ownerAmount(from, token);
  const after = ownerAmount(to, token);
  const lastShare = after.share !== null ? 'after' : 'before';
  const shown = (side: { amount: string; share: string | null }, which: 'before' | 'after') =>
    side.share === null ? side.amount : `${side.amount} (${side.share}${which === lastShare ? ' of supply' : ''})`;
  return `${shown(before, 'before')} → ${shown(after, 'after')}`;
}

/** "Mint authority: renounced → active (AbCd…WxYz)", "Owner balance: 25.2M MOCHI (5.04%) → 17.8M MOCHI (3.56% of supply)" */
export function flagChangeText(change: FlagChange, token: TokenRef): string {
  const label = FLAG_LABELS[change.flag];
  switch (change.flag) {
    case 'mintAuthority':
    case 'freezeAuthority':
      return `${label}: ${authorityState(change.from)} → ${authorityState(change.to)}`;
    case 'mutable': {
      return `${label}: ${mutability(change.from)} → ${mutability(change.to)}`;
    }
    case 'ownerBalance':
      return `${label}: ${ownerChange(change.from, change.to, token)}`;
  }
}

function mutability(value: string | null): string {
  return value === 'true' ? 'mutable' : value === 'false' ? 'immutable' : UNKNOWN;
}

/**
 * A flag as it stands, in words, and whether that state is fine (null: unknown), by the token
 * card's rules: an authority held, mutable metadata, or an owner holding 5% of the supply or more
 * (OWNER_SHARE_WARNING_PERCENT) is a risk.
 */
export function flagStateText(state: FlagState, token: TokenRef): { text: string; ok: boolean | null } {
  const label = FLAG_LABELS[state.flag];
  switch (state.flag) {
    case 'mintAuthority':
    case 'freezeAuthority':
      return { text: `${label}: ${authorityState(state.value)}`, ok: state.value === null };
    case 'mutable':
      return { text: `${label}: ${mutability(state.value)}`, ok: state.value === 'true' ? false : state.value === 'false' ? true : null };
    case 'ownerBalance': {
      const owner = ownerAmount(state.value, token);
      const text = owner.share === null ? owner.amount : `${owner.amount} (${owner.share} of supply)`;
      return {
        text: `${label}: ${text}`,
        ok: owner.sharePct === null ? (state.value === null ? true : null) : owner.sharePct < OWNER_SHARE_WARNING_PERCENT,
      };
    }
  }
}

function riskFlagCard(event: RiskFlagEvent): Card {
  const lines = event.changes.map((change) => flagChangeText(change, event.token));
  return base(
    event,
    `Risk flag changed: ${tokenName(event.token)}`,
    [field('Changed', lines.join('\n')), field('Token', tokenLink(event.token), true), ...marketFields(event.token)],
    tokenActions(event.token),
  );
}

export const riskFlagKind = defineAlertKind({
  name: 'risk-flag',
  family: 'token',
  words: ['flags'],
  groups: ['risk'],
  describe: () => 'risk flags',
  detector: { input: 'token', detect: (last, next) => detectRiskFlags(last, next) },
  card: riskFlagCard,
});
