/**
 * A whale came or went: a wallet's share of supply crossed the whale share, read from holders-live;
 * the card gives the wallet, its share before and after, and a Wallet button (/wallet).
 *
 * A whale: a wallet crossed WHALE_SHARE_PCT (1%) of the supply, in (it now holds at least that) or
 * out (it held that and now holds less). Read from holders-live, which pushes a holder's record
 * whenever its balance changes; the supply comes from the token's own snapshot.
 *
 * Baseline: until holders-live has been read once for the token (holdersSeenAt), its snapshot
 * frames (the 20 largest holders) set the whale list without alerting. After a reconnection the
 * snapshot frames come again and are compared, so a whale that came or went while the socket was
 * down is still told. Reconciliation does not read holders: token-data does not carry them.
 *
 * Pools are not whales: a record of an account that holds for a pool (one of the token's pools in
 * its snapshot, such as a pump.fun bonding curve, or a pool program's authority:
 * src/market/poolAccounts.ts) tells nothing, in or out.
 *
 * Key: token, wallet, direction and the time of the state it changed from.
 */
import { bold, field, rich, type Card } from '../../cards/card';
import type { WhaleEvent } from '../../model/events';
import { percent } from '../../text/format';
import { base, marketFields, tokenActions, tokenLink, tokenName, walletLink } from '../cardParts';
import { defineAlertKind } from '../kind';
import { WHALE_SHARE_PCT, shareOfSupply } from '../snapshot';
import type { TokenSnapshot } from '../../model/snapshot';
import { eventKey, holderSyncedAt, tokenRef } from '../detect/eventBase';
import type { HolderUpdate } from '../detect/inputs';
import { isPoolAccount } from '../../market/poolAccounts';

export function detectWhale(last: TokenSnapshot | null, update: HolderUpdate): WhaleEvent[] {
  if (last === null) return [];
  if (update.snapshot && (last.holdersSeenAt === null || last.holdersSeenAt === undefined)) return [];
  const { holder } = update;
  if (isPoolAccount(holder.address, last.pools)) return [];
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
      syncedAt: holderSyncedAt(update.holder),
      token: tokenRef(last),
      wallet: holder.address,
      direction,
      fromPct,
      toPct,
    },
  ];
}

function whaleCard(event: WhaleEvent): Card {
  const from = event.fromPct === null ? 'under 1%' : percent(event.fromPct);
  const fields = [
    field('Share of supply', rich(`${from} → `, bold(percent(event.toPct))), true),
    field('Wallet', walletLink(event.wallet), true),
    field('Token', tokenLink(event.token), true),
    ...marketFields(event.token),
  ];
  const title = `Whale ${event.direction === 'in' ? 'in' : 'out'}: ${tokenName(event.token)}`;
  return base(event, title, fields, tokenActions(event.token, [{ label: 'Wallet', command: 'wallet', args: [event.wallet] }]));
}

export const whaleKind = defineAlertKind({
  name: 'whale',
  family: 'token',
  words: ['whales'],
  describe: () => 'whales',
  detector: { input: 'holder', detect: (last, update) => detectWhale(last, update) },
  card: whaleCard,
});
