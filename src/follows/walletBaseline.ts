/**
 * A newly followed wallet's baseline: the trades read when it was followed (the check `/track
 * wallet` makes), written as its last-seen state before the watcher is told of the follow. Every
 * trade the service shows after that read is then news. Without it the first read the watcher
 * made (a poll or a reconciliation up to a minute later) was the baseline, and a trade made in
 * between was taken as old and never told.
 *
 * A wallet that already has a last-seen state (another chat follows it, or followed it before)
 * keeps it: its state is older than this read, and what came since is news for every chat.
 */
import type { Trade } from '../market/schemas';
import { snapshotOfWallet } from '../alerts/snapshot';
import type { Store } from '../store/store';

export async function writeWalletBaseline(
  state: Pick<Store['state'], 'wallet' | 'commitWallet'>,
  address: string,
  trades: readonly Trade[],
  now: Date,
): Promise<boolean> {
  if ((await state.wallet(address)) !== null) return false;
  await state.commitWallet(snapshotOfWallet(address, null, trades, now.getTime()), [], now);
  return true;
}
