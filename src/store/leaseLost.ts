/**
 * Leases a writer must still hold for its commit to land (src/cluster/): a watcher process writes
 * a partition's state and alerts only while its lease on that partition is the one it took. A
 * commit whose fence no longer holds (the process stalled, the lease ran out and another took it)
 * is refused whole with LeaseLostError, and the newer owner's state stands.
 */
export interface CommitFence {
  /** The process that holds the leases. */
  owner: string;
  /** Each lease by name, with the epoch this process took it at. */
  leases: ReadonlyArray<{ name: string; epoch: number }>;
}

export class LeaseLostError extends Error {
  constructor(readonly lost: readonly string[]) {
    super(`lease${lost.length === 1 ? '' : 's'} no longer held: ${lost.slice(0, 5).join(', ')}${lost.length > 5 ? ', …' : ''}`);
    this.name = 'LeaseLostError';
  }
}

export function isLeaseLost(error: unknown): error is LeaseLostError {
  return error instanceof LeaseLostError;
}
