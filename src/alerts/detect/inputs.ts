/**
 * What a detector reads besides the last-seen snapshot: one holder record as holders-live pushed it,
 * and, for a wallet's trades, how the traded token is named. Their own module, because the kind
 * descriptor's shape (../kind.ts) and several kinds' detectors read them, and none of those kinds
 * should import another for them.
 */
import type { TokenRef } from '../../model/events';
import type { HolderRecord } from '../holderRecord';

export interface HolderUpdate {
  holder: HolderRecord;
  /** Sent as the state after (re)subscribing, not as a change. */
  snapshot: boolean;
  at: number;
}

/** What the watcher knows of the traded token (its name and decimals for the card), or the bare address. */
export type TokenNamer = (address: string) => { token: TokenRef; decimals: number | null };

export const bareTokenRef: TokenNamer = (address) => ({ token: { address, symbol: '', name: '' }, decimals: null });
