/**
 * Insiders selling: the holders tagged as snipers, bots or insiders together hold a quarter less
 * within the hour; the card says how many sold and what share of the supply left them.
 *
 * Insiders selling: the wallets the service tags as snipers, bots or insiders together hold
 * INSIDERS_DROP_PCT (25%) less than their highest total within INSIDERS_WINDOW_MS (an hour), read
 * from holder records on holders-live (src/alerts/insiders.ts keeps their holdings in the token's
 * state). Once told, the window starts again from what is left.
 *
 * Baseline: a tagged wallet's first record adds it without a change (its earlier holding is not
 * known), so the first holders list sets the insiders' total. After a reconnection the list comes
 * again and is compared: what they sold while the socket was down is told. A tagged wallet that
 * sold everything while it was down is not in that list (it lists holders with a balance) and is
 * seen at its next record.
 *
 * Key: token, and the time and amount of the total the drop is measured from.
 */
import { field, joinRich, rich, bold, type Card } from '../../cards/card';
import { changeWindow, percent } from '../../text/format';
import { UNKNOWN } from '../../cards/tokenFacts';
import { base, marketFields, tokenActions, tokenLink, tokenName, walletLink } from '../cardParts';
import { defineAlertKind } from '../kind';
import type { TokenSnapshot } from '../../model/snapshot';
import { insidersAfter } from '../insiders';
import type { EventBase } from '../../model/events';
import { shareOfSupply } from '../snapshot';
import type { HolderUpdate } from '../detect/inputs';
import { eventKey, holderSyncedAt, tokenRef } from '../detect/eventBase';

export interface InsidersSellingEvent extends EventBase {
  kind: 'insiders-selling';
  /** Some of the wallets that sold (largest count first is not known: in the order seen). */
  sellers: string[];
  sellerCount: number;
  /** The tagged wallets' total holding at the window's highest and now, smallest units (decimal strings). */
  fromAmount: string;
  toAmount: string;
  /** How much of their holdings left them, percent. */
  droppedPct: number;
  /** What left them as a share of the supply, percent; null when the supply is unknown. */
  supplyPct: number | null;
  windowSecs: number;
}

/** The wallets an alert names; the count says how many there were. */
const NAMED_SELLERS = 5;

export function detectInsidersSelling(last: TokenSnapshot, update: HolderUpdate): InsidersSellingEvent[] {
  if (update.snapshot && (last.holdersSeenAt === null || last.holdersSeenAt === undefined)) return [];
  const drop = insidersAfter(last, update.holder, update.at)?.drop ?? null;
  if (drop === null) return [];
  const left = drop.fromTotal - drop.toTotal;
  return [
    {
      kind: 'insiders-selling',
      key: eventKey('insiders-selling', last.address, [drop.fromAt, drop.fromTotal.toString()]),
      at: update.at,
      syncedAt: holderSyncedAt(update.holder),
      token: tokenRef(last),
      sellers: drop.sellers.slice(0, NAMED_SELLERS),
      sellerCount: drop.sellers.length,
      fromAmount: drop.fromTotal.toString(),
      toAmount: drop.toTotal.toString(),
      droppedPct: Number(((drop.fromTotal - drop.toTotal) * 10_000n) / drop.fromTotal) / 100,
      supplyPct: shareOfSupply(left, last.totalSupply),
      windowSecs: Math.max(0, Math.round((update.at - drop.fromAt) / 1000)),
    },
  ];
}

declare module '../../model/events' {
  interface AlertEventsByKind {
    'insiders-selling': InsidersSellingEvent;
  }
}

function insidersSellingCard(event: InsidersSellingEvent): Card {
  const more = event.sellerCount - event.sellers.length;
  const wallets = joinRich([...event.sellers.map((wallet) => walletLink(wallet)), more > 0 ? `and ${more} more` : ''], ', ');
  const fields = [
    field('Wallets sold', String(event.sellerCount), true),
    field('Sold', rich(bold(percent(event.droppedPct)), ` of their holdings in ${changeWindow(event.windowSecs)}`), true),
    field('Supply that left them', event.supplyPct === null ? UNKNOWN : percent(event.supplyPct), true),
    field('Wallets', wallets.length === 0 ? UNKNOWN : wallets),
    field('Token', tokenLink(event.token), true),
    ...marketFields(event.token),
  ];
  return base(event, `Insiders selling: ${tokenName(event.token)}`, fields, tokenActions(event.token));
}

export const insidersSellingKind = defineAlertKind({
  name: 'insiders-selling',
  family: 'token',
  words: ['insiders', 'snipers'],
  describe: () => 'insiders selling',
  detector: { input: 'holder', detect: (last, update) => detectInsidersSelling(last, update) },
  card: insidersSellingCard,
});
