/**
 * How the watchers of a bot share the followed targets: each address hashes into one of 256
 * partitions, and each live watcher holds a fair share of them, ceil(256 / live watchers), under
 * one lease each (`partition:<n>`).
 *
 * Which partitions a watcher takes and gives back is ranked by rendezvous hashing of (process,
 * partition): each process prefers its own, so a partition changes hands only when the share
 * must change, not at every count of who is there.
 */
export const PARTITIONS = 256;

/** 32-bit FNV-1a: fast, stable across processes and versions, and spread well enough for 256 buckets. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function partitionOf(address: string): number {
  return fnv1a(address) % PARTITIONS;
}

export function partitionLease(partition: number): string {
  return `partition:${partition}`;
}

/** The partition a lease name stands for, or null for another lease. */
export function partitionOfLease(name: string): number | null {
  const match = /^partition:(\d{1,3})$/.exec(name);
  const partition = match === null ? NaN : Number(match[1]);
  return Number.isInteger(partition) && partition < PARTITIONS ? partition : null;
}

export function fairShare(watchers: number): number {
  return Math.ceil(PARTITIONS / Math.max(1, watchers));
}

function rank(owner: string, partition: number): number {
  return fnv1a(`${owner}/${partition}`);
}

/**
 * What a watcher should take and give back: free partitions (no live lease) in its order of
 * preference up to its share, or its least preferred ones past it. Partitions another watcher
 * holds are left to it: it gives back its own excess on its own turn.
 */
export function rebalance(
  owner: string,
  held: ReadonlySet<number>,
  takenByOthers: ReadonlySet<number>,
  watchers: number,
): { take: number[]; release: number[] } {
  const share = fairShare(watchers);
  if (held.size > share) {
    const release = [...held].sort((a, b) => rank(owner, a) - rank(owner, b)).slice(0, held.size - share);
    return { take: [], release };
  }
  const free: number[] = [];
  for (let partition = 0; partition < PARTITIONS; partition += 1)
    if (!held.has(partition) && !takenByOthers.has(partition)) free.push(partition);
  const take = free.sort((a, b) => rank(owner, b) - rank(owner, a)).slice(0, share - held.size);
  return { take, release: [] };
}
