/**
 * What the watcher found, committed: the newest state of each target changed, with its alerts, is
 * gathered over a turn of the event loop and written in one transaction
 * (`store.state.commitMany`), then the next turn's, until nothing waits. Listeners hear of the
 * outbox rows each commit added (delivery wakes then).
 *
 * A commit that fails leaves memory where the store is: its targets are forgotten (read again from
 * the store when next needed), and so is what the batch after it already holds of them, which was
 * compared with the state that failed. The next read of the service (a frame, a poll, a
 * reconciliation) then finds the change again, against what the store holds, and tells it once. If
 * the commit did land (its answer was lost), the store holds the change, and its event's key keeps
 * it to one row. A store that is away or full asks for that read too (`ReadAgain`).
 */
import { errorText, type Logger } from '../log';
import type { AlertEvent } from '../model/events';
import type { AlertDelivery, FollowKind } from '../model/follow';
import type { TokenSnapshot, WalletSnapshot } from '../model/snapshot';
import type { Store } from '../store/store';
import { isLeaseLost } from '../store/leaseLost';
import { isStoreUnavailable } from '../store/storeUnavailable';
import { settling, type Settling } from './inputs';
import type { WatchScope } from './scope';

export type Alerts = Array<{ event: AlertEvent; to: AlertDelivery[] }>;

/** What was detected since the last commit: the newest state of each target changed, with its alerts. */
export interface Uncommitted extends Settling {
  tokens: Map<string, { snapshot: TokenSnapshot; alerts: Alerts }>;
  wallets: Map<string, { snapshot: WalletSnapshot; alerts: Alerts }>;
  inputs: number;
}

/** A line said at most once a minute however often its cause comes back: a store away or full fails every commit. */
export const QUIET_LOG_MS = 60_000;

/** Tells at most once every QUIET_LOG_MS (on the watcher's clock) whether to log, and how many times it was left out since. */
export class LogEvery {
  private last = Number.NEGATIVE_INFINITY;
  private skipped = 0;

  constructor(private readonly now: () => number) {}

  /** Null: not now (counted); otherwise the times left out since the last line. */
  take(): number | null {
    const now = this.now();
    if (now - this.last < QUIET_LOG_MS) {
      this.skipped += 1;
      return null;
    }
    this.last = now;
    const skipped = this.skipped;
    this.skipped = 0;
    return skipped;
  }
}

/** The first wait before the service is read again after the store refused, and the longest (it doubles between). */
export const READ_AGAIN_FIRST_MS = 1_000;
export const READ_AGAIN_MAX_MS = 60_000;

/**
 * After the store refused a commit or a read for being away or full, the service is read again (a
 * reconciliation, through `ask`), so that what could not be written is found again even where no
 * frame of its target comes. Every refusal is followed by an ask after it: the first after
 * READ_AGAIN_FIRST_MS, and while the store keeps refusing, after twice the wait each time, up to
 * READ_AGAIN_MAX_MS. A commit that lands brings the wait back to the first.
 */
export class ReadAgain {
  private timer: NodeJS.Timeout | null = null;
  private waitMs = READ_AGAIN_FIRST_MS;
  private closed = false;

  constructor(private readonly ask: () => void) {}

  refused(): void {
    if (this.timer !== null || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.waitMs = Math.min(READ_AGAIN_MAX_MS, this.waitMs * 2);
      this.ask();
    }, this.waitMs);
    // A store that is away must not keep a finished process alive.
    this.timer.unref();
  }

  landed(): void {
    this.waitMs = READ_AGAIN_FIRST_MS;
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

export interface CommitHooks {
  /** A commit failed: memory may be ahead of the store for this target, which is read from it again. */
  failed(target: { kind: FollowKind; address: string }): void;
  /** The store refused a commit for being away or full: the service is to be read again. */
  refused(): void;
  /** A commit was written. */
  landed(): void;
}

export class Commits {
  private uncommitted: Uncommitted | null = null;
  private running: Promise<void> | null = null;
  private readonly listeners = new Set<(rows: number) => void>();
  private readonly unavailableLog: LogEvery;
  /** Outbox rows written since start. */
  rows = 0;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly now: () => number,
    private readonly hooks: CommitHooks,
    private readonly scope: WatchScope | null = null,
  ) {
    this.unavailableLog = new LogEvery(now);
  }

  /** The batch that the next commit writes (made, and its commit scheduled, when none is open). */
  pending(): Uncommitted {
    if (this.uncommitted === null) {
      this.uncommitted = { ...settling(), tokens: new Map(), wallets: new Map(), inputs: 0 };
      if (this.running === null) this.running = this.drain();
    }
    return this.uncommitted;
  }

  /** The open batch, if any, without making one. */
  get open(): Uncommitted | null {
    return this.uncommitted;
  }

  onRows(listener: (rows: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves when no commit is under way or waiting. */
  async idle(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  get busy(): boolean {
    return this.running !== null;
  }

  /** Commits what was found, a turn of the event loop at a time, until nothing waits to be committed. */
  private async drain(): Promise<void> {
    // Let the rest of this turn's frames join the commit.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.uncommitted !== null) {
      const batch = this.uncommitted;
      this.uncommitted = null;
      let rows = 0;
      try {
        rows = await this.commit(batch);
        this.rows += rows;
        this.hooks.landed();
      } catch (error) {
        this.failed(batch, error);
      }
      batch.resolve(rows);
      if (rows > 0) for (const listener of this.listeners) this.tell(listener, rows);
    }
    this.running = null;
  }

  /**
   * The batch was not written (or may not have been): its targets are forgotten, and so is what
   * the open batch holds of them, found by comparing with the state that failed (a later frame of
   * the same token, say). Were it written, the store would hold that later state without the
   * change before it, and the next read would find nothing to tell.
   */
  private failed(batch: Uncommitted, error: unknown): void {
    if (isLeaseLost(error)) {
      // Another watcher holds these partitions now: it reads their state from the store and reconciles them.
      this.logger.warn(
        { reason: errorText(error), inputs: batch.inputs },
        'commit refused: a partition moved to another watcher; its state is theirs',
      );
      this.scope?.fenced();
    } else if (isStoreUnavailable(error)) {
      const skipped = this.unavailableLog.take();
      if (skipped !== null)
        this.logger.warn(
          { reason: error.detail, store: error.reason, inputs: batch.inputs, refusedSince: skipped },
          'could not commit alerts: the store is unavailable; what they found is read again from the store and the service',
        );
      this.hooks.refused();
    } else
      this.logger.error(
        { error: errorText(error), inputs: batch.inputs },
        'could not commit alerts; their state is read again from the store',
      );
    const open = this.uncommitted;
    for (const address of batch.tokens.keys()) {
      open?.tokens.delete(address);
      this.hooks.failed({ kind: 'token', address });
    }
    for (const address of batch.wallets.keys()) {
      open?.wallets.delete(address);
      this.hooks.failed({ kind: 'wallet', address });
    }
  }

  /**
   * With a scope, what belongs to partitions no longer held is left out (and forgotten: the new
   * holder reads it from the store), and the rest carries the fence of its partitions.
   */
  private async commit(batch: Uncommitted): Promise<number> {
    const at = new Date(this.now());
    if (this.scope === null)
      return this.store.state.commitMany({ tokens: [...batch.tokens.values()], wallets: [...batch.wallets.values()] }, at);
    const scope = this.scope;
    const owned = <T>(kind: FollowKind, entries: Map<string, T>): T[] => {
      const kept: T[] = [];
      for (const [address, entry] of entries) {
        if (scope.owns(address)) kept.push(entry);
        else this.hooks.failed({ kind, address });
      }
      return kept;
    };
    const tokens = owned('token', batch.tokens);
    const wallets = owned('wallet', batch.wallets);
    if (tokens.length === 0 && wallets.length === 0) return 0;
    const addresses = [...tokens.map((entry) => entry.snapshot.address), ...wallets.map((entry) => entry.snapshot.address)];
    return this.store.state.commitMany({ tokens, wallets }, at, scope.fence(addresses));
  }

  private tell(listener: (rows: number) => void, rows: number): void {
    try {
      listener(rows);
    } catch (error) {
      this.logger.warn({ error: errorText(error) }, 'alert listener failed');
    }
  }
}
