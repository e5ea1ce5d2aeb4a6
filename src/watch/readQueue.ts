/**
 * The queue of targets to read. An input whose target is in memory is compared at once, so the
 * decoded frame is garbage at once rather than state the collector copies. Otherwise it waits,
 * behind its target's inputs already waiting, for a read of what it needs (its state, its
 * follows, a traded token's name); other targets' inputs go on meanwhile (a trade waiting for its
 * token's name from a slow service holds back no other alert). Either way its result joins the
 * next commit, and it settles once that is committed.
 */
import { errorText, type Logger } from '../log';
import type { FollowKind } from '../model/follow';
import { isStoreUnavailable } from '../store/storeUnavailable';
import { LogEvery, type Uncommitted } from './commits';
import { settling, targetOf, waitKey, type Input, type Settling } from './inputs';

export interface ReadQueueHooks {
  /** Whether everything the input is compared with is in memory. */
  inMemory(input: Input): boolean;
  /** Reads what a target's inputs need into memory. */
  prepare(target: { kind: FollowKind; address: string }, inputs: readonly Input[]): Promise<void>;
  /**
   * Whether the target's state is in memory (or known to be absent from the store): a commit that
   * failed while its read was under way forgot it again, and it is read again before its inputs
   * are compared (compared with nothing, a change would be taken for a first sight).
   */
  hasState(target: { kind: FollowKind; address: string }): boolean;
  /** Compares one input with the state in memory; what it found joins `into`. */
  compare(input: Input, into: Uncommitted): void;
  /** The target's state is read again from the store next time. */
  forget(target: { kind: FollowKind; address: string }): void;
  /** The batch the next commit writes. */
  pending(): Uncommitted;
  /** The store refused a read for being away or full: the service is to be read again. */
  refused(): void;
}

/** Inputs of one target that wait for a read, in arrival order. */
interface Waiting extends Settling {
  target: { kind: FollowKind; address: string };
  inputs: Input[];
}

export class ReadQueue {
  /** Per target (waitKey), the inputs waiting for a read: later inputs of that target wait behind them. */
  private readonly waiting = new Map<string, Waiting>();
  /** The reads under way (idle() waits for them). */
  private readonly reads = new Set<Promise<void>>();

  private readonly unavailableLog: LogEvery;

  constructor(
    private readonly hooks: ReadQueueHooks,
    private readonly logger: Logger,
    now: () => number,
  ) {
    this.unavailableLog = new LogEvery(now);
  }

  /** Takes an input in its target's arrival order; settles once committed. */
  accept(input: Input): Settling {
    // The key is made only while something waits: the usual input needs none.
    const key = this.waiting.size === 0 ? null : waitKey(input);
    if ((key === null || !this.waiting.has(key)) && this.hooks.inMemory(input)) {
      const into = this.hooks.pending();
      this.hooks.compare(input, into);
      return into;
    }
    const waitingKey = key ?? waitKey(input);
    let entry = this.waiting.get(waitingKey);
    if (entry === undefined) {
      entry = { ...settling(), target: targetOf(input), inputs: [] };
      this.waiting.set(waitingKey, entry);
      const read = this.readFor(waitingKey, entry);
      this.reads.add(read);
      void read.finally(() => this.reads.delete(read));
    }
    entry.inputs.push(input);
    return entry;
  }

  /** Inputs waiting for a read. */
  get queued(): number {
    let count = 0;
    for (const entry of this.waiting.values()) count += entry.inputs.length;
    return count;
  }

  /** The reads under way, to wait for; null when none is. */
  underWay(): Promise<unknown> | null {
    return this.reads.size === 0 ? null : Promise.all([...this.reads]);
  }

  /**
   * Reads what a target's waiting inputs need, compares them in order, and again for the inputs
   * that came meanwhile, until none is left; they settle with the commit of the last of them.
   */
  private async readFor(key: string, entry: Waiting): Promise<void> {
    // The input that made the entry is pushed right after this call: let it (and its turn's others) in.
    await null;
    let last: Uncommitted | null = null;
    try {
      while (entry.inputs.length > 0) {
        const inputs = entry.inputs.splice(0);
        try {
          await this.hooks.prepare(entry.target, inputs);
        } catch (error) {
          this.readFailed(error, inputs.length);
          this.hooks.forget(entry.target);
          continue;
        }
        if (!this.hooks.hasState(entry.target)) {
          entry.inputs.unshift(...inputs);
          continue;
        }
        last = this.hooks.pending();
        for (const input of inputs) this.hooks.compare(input, last);
      }
    } catch (error) {
      // A detector that throws is a bug; the target is read again from the store next time.
      this.logger.error({ error: errorText(error), key }, 'could not compare inputs; their target is read again from the store');
      entry.inputs.length = 0;
      this.hooks.forget(entry.target);
    } finally {
      this.waiting.delete(key);
    }
    if (last === null) entry.resolve(0);
    else void last.done.then(entry.resolve);
  }

  /** A store away or full is said once a minute (it fails every read meanwhile); anything else each time. */
  private readFailed(error: unknown, inputs: number): void {
    if (!isStoreUnavailable(error)) {
      this.logger.error({ error: errorText(error), inputs }, 'could not read the state to compare with; these inputs are dropped');
      return;
    }
    const skipped = this.unavailableLog.take();
    if (skipped !== null)
      this.logger.warn(
        { reason: error.detail, store: error.reason, inputs, refusedSince: skipped },
        'could not read the state to compare with: the store is unavailable; the service is read again when it is back',
      );
    this.hooks.refused();
  }
}
