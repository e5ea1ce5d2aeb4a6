/**
 * What the holder-reading kinds read of a holder record: its balance, and, when the service shows
 * them, its tags, what it sold and when the service synced it (a record from an older reader or a
 * test may carry only the balance).
 */
import type { Holder } from '../market/schemas';

export type HolderRecord = Pick<Holder, 'address' | 'currentlyHoldingAmount'> &
  Partial<Pick<Holder, 'tags' | 'totalSoldAmount' | 'totalSoldETH' | 'syncedAt'>>;
