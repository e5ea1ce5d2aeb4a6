/**
 * The targets this watcher is responsible for, when the bot runs several watcher processes
 * (src/cluster/): the addresses of the partitions it holds, and the fence its commits carry so
 * that a commit made after a partition moved on is refused by the database. Without a scope (one
 * process) every target is this watcher's.
 */
import type { CommitFence } from '../store/store';

export interface WatchScope {
  owns(address: string): boolean;
  /** The fence of a commit that writes these addresses' state. */
  fence(addresses: Iterable<string>): CommitFence;
  /** A commit was refused for a lease that moved on: the scope should look at its leases now. */
  fenced(): void;
}
