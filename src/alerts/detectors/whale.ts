/**
 * A whale: a wallet crossed WHALE_SHARE_PCT (1%) of the supply, in (it now holds at least that) or
 * out (it held that and now holds less). Read from holders-live, which pushes a holder's record
 * whenever its balance changes; the supply comes from the token's own snapshot.
 *
 * Baseline: until holders-live has been read once for the token (holdersSeenAt), its snapshot
 * frames (the 20 largest holders) set the whale list without alerting. After a reconnection the
 * snapshot frames come again and are compared, so a whale that came or went while the socket was
 * down is still told. Reconciliation does not read holders: token-data does not carry them.
 *
 * Key: token, wallet, direction and the time of the state it changed from.
 */
import type { WhaleEvent } from '../../model/events';
import { WHALE_SHARE_PCT, shareOfSupply } from '../snapshot';
import type { HolderRecord } from '../holderRecord';
import { type TokenSnapshot } from '../../model/snapshot';
import { eventKey, tokenRef } from './key';

export interface HolderUpdate {
  holder: HolderRecord;
  /** Sent as the state after (re)subscribing, not as a change. */
  snapshot: boolean;
  at: number;
}

export function detectWhale(last: TokenSnapshot | null, update: HolderUpdate): WhaleEvent[] {
  if (last === null) return [];
  if (update.snapshot && (last.holdersSeenAt === null || last.holdersSeenAt === undefined)) return [];
  const { holder } = update;
  const toPct = shareOfSupply(holder.currentlyHoldingAmount, last.totalSupply);
  if (toPct === null) return [];
  const before = last.whales[holder.address];
  const fromPct = before === undefined ? null : shareOfSupply(BigInt(before), last.totalSupply);
  const wasWhale = before !== undefined;
  const isWhale = toPct >= WHALE_SHARE_PCT;
  if (wasWhale === isWhale) return [];
  const direction = isWhale ? 'in' : 'out';
  return [
    {
      kind: 'whale',
      key: eventKey('whale', last.address, [holder.address, direction, last.seenAt]),
      at: update.at,
      token: tokenRef(last),
      wallet: holder.address,
      direction,
      fromPct,
      toPct,
    },
  ];
}
