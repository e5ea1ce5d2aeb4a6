/**
 * Baselines of the lists a stream sends on subscribing: holders-live's largest holders of a token
 * and trades-live's latest trades of a wallet. A target's first list sets its baseline without
 * alerting; a list sent again after the socket came back is compared. Also the holder records
 * that arrive before their token's first input (two streams, two sockets), kept until it comes.
 *
 * A token's first holders list counts as read (the snapshot's `holdersSeenAt`, written to the
 * store) only once it is whole: at the first live holder record, or at the token's first input
 * FIRST_HOLDERS_LIST_MS after the list began. A stop before then leaves no `holdersSeenAt` in the
 * store, so the next start reads the list again as a baseline instead of comparing it with the
 * part that was written, which would tell every holder that part lacked as a new whale.
 */
import type { TokenSnapshot } from '../model/snapshot';
import type { Input } from './inputs';

/**
 * How long holders-live's first list of a token may take to arrive whole (see above). The list is
 * sent at once on subscribing: two seconds is ample, and a token pushes more often than that.
 */
export const FIRST_HOLDERS_LIST_MS = 2_000;
/** Holder records kept for a token whose own data has not come yet (holders-live sends 20 on subscribing). */
const HOLDERS_WAITING = 100;

type HolderInput = Extract<Input, { type: 'holder' }>;

export class HolderBaselines {
  /** Lists whose records are baselines so far, by `holders:ADDRESS` or `wallet:ADDRESS`. */
  private readonly baselines = new Set<string>();
  /** Tokens whose first holders list is still arriving, with when it began. */
  private readonly firstLists = new Map<string, number>();
  private readonly waitingForToken = new Map<string, HolderInput[]>();

  /**
   * Whether a record of a list is a baseline, which the caller then does not compare. `first`: the
   * target has no list read whole before this one; `again`: the record opens a later serving of
   * the subscription, which is not the tail of the list before it. A live record ends its list.
   */
  isBaseline(list: string, record: { first: boolean; snapshot: boolean; again: boolean }): boolean {
    if (record.again) this.baselines.delete(list);
    const baseline = record.first || (record.snapshot && this.baselines.has(list));
    if (record.snapshot && baseline) this.baselines.add(list);
    if (!record.snapshot) this.baselines.delete(list);
    return baseline;
  }

  /** Keeps a holder record that came before its token's first input; a bounded number a token. */
  holdForToken(input: HolderInput): void {
    const waiting = this.waitingForToken.get(input.tokenAddress) ?? [];
    if (waiting.length < HOLDERS_WAITING) waiting.push(input);
    this.waitingForToken.set(input.tokenAddress, waiting);
  }

  /** The holder records that waited for this token, in their order, now that it came. */
  takeWaiting(address: string): readonly HolderInput[] {
    const waiting = this.waitingForToken.get(address);
    if (waiting === undefined) return [];
    this.waitingForToken.delete(address);
    return waiting;
  }

  /** A token whose holders were never read whole starts its first list now, unless one is already arriving. */
  beginFirstList(address: string, snapshot: TokenSnapshot, now: number): void {
    if ((snapshot.holdersSeenAt === null || snapshot.holdersSeenAt === undefined) && !this.firstLists.has(address))
      this.firstLists.set(address, now);
  }

  /**
   * The snapshot with its first holders list marked read (holdersSeenAt: when the list began) once
   * the list is whole: at a live holder record, or FIRST_HOLDERS_LIST_MS after it began.
   */
  firstListRead(address: string, snapshot: TokenSnapshot, now: number, live: boolean): TokenSnapshot {
    if (this.firstLists.size === 0) return snapshot;
    const began = this.firstLists.get(address);
    if (began === undefined || (!live && now - began < FIRST_HOLDERS_LIST_MS)) return snapshot;
    this.firstLists.delete(address);
    return snapshot.holdersSeenAt === null || snapshot.holdersSeenAt === undefined ? { ...snapshot, holdersSeenAt: began } : snapshot;
  }

  /** A token read again from the store: a first list it had under way starts over. */
  forget(address: string): void {
    this.firstLists.delete(address);
  }

  /** Drops what concerns tokens no longer followed. */
  retainTokens(followed: ReadonlySet<string>): void {
    for (const address of this.firstLists.keys()) if (!followed.has(address)) this.firstLists.delete(address);
  }
}
