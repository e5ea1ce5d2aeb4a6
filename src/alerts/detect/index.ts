/**
 * The entries the watcher calls with new data: what changed between the last-seen snapshot and the
 * next (or a holder record, or a wallet's trades), asked of each kind that reads it
 * (src/alerts/registry.ts), in the order their alerts are listed. Each kind's own detector is in its
 * file in src/alerts/kinds/. Pure; the watcher and the tests call these entries.
 */
import type { AlertEvent } from '../../model/events';
import type { Follow } from '../../model/follow';
import type { Trade } from '../../market/schemas';
import type { TokenSnapshot, WalletSnapshot } from '../../model/snapshot';
import { kindsReading } from '../registry';
import type { HolderUpdate, TokenNamer } from './inputs';

/**
 * The alerts of a token whose data went from `last` (null: first sight, no alert) to `next`, by
 * every kind that reads a token. `follows`: the token's follows, for the kinds that tell each
 * follow of its own level (a target); without them those kinds find nothing.
 */
export function detectTokenChanges(last: TokenSnapshot | null, next: TokenSnapshot, follows: readonly Follow[] = []): AlertEvent[] {
  if (last === null) return [];
  // Nearly every push finds nothing, or one thing: no list is joined for it (this runs per frame).
  let found: AlertEvent[] | null = null;
  for (const kind of kindsReading('token')) {
    const events = kind.detectToken(last, next, follows);
    if (events.length > 0) (found ??= []).push(...events);
  }
  return found ?? [];
}

/** The alerts one holder record tells, by every kind that reads holder records. */
export function detectHolderChanges(last: TokenSnapshot, update: HolderUpdate): AlertEvent[] {
  let found: AlertEvent[] | null = null;
  for (const kind of kindsReading('holder')) {
    const events = kind.detectHolder(last, update);
    if (events.length > 0) (found ??= []).push(...events);
  }
  return found ?? [];
}

/** The alerts a wallet's trades tell, by every kind that reads trades. */
export function detectTradeChanges(
  last: WalletSnapshot | null,
  wallet: string,
  trades: readonly Trade[],
  at: number,
  name: TokenNamer,
): AlertEvent[] {
  let found: AlertEvent[] | null = null;
  for (const kind of kindsReading('trades')) {
    const events = kind.detectTrades(last, wallet, trades, at, name);
    if (events.length > 0) (found ??= []).push(...events);
  }
  return found ?? [];
}
