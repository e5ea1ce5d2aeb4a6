/**
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
import type { TokenSnapshot } from '../../model/snapshot';
import { insidersAfter } from '../insiders';
import type { EventBase } from '../../model/events';
import { shareOfSupply } from '../snapshot';
import type { HolderUpdate } from './whale';
import { eventKey, tokenRef } from './key';

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
