/**
 * What the watcher found, committed: the newest state of each target changed, with its alerts, is
 * gathered over a turn of the event loop and written in one transaction
 * (`store.state.commitMany`), then the next turn's, until nothing waits. Listeners hear of the
 * outbox rows each commit added (delivery wakes then).
 */
import { errorText, type Logger } from '../log';
import type { AlertEvent } from '../model/events';
import type { AlertDelivery, FollowKind } from '../model/follow';
import type { TokenSnapshot, WalletSnapshot } from '../model/snapshot';
import type { Store } from '../store/store';
import { isLeaseLost } from '../store/leaseLost';
import { settling, type Settling } from './inputs';
import type { WatchScope } from './scope';

export type Alerts = Array<{ event: AlertEvent; to: AlertDelivery[] }>;

/** What was detected since the last commit: the newest state of each target changed, with its alerts. */
export interface Uncommitted extends Settling {
  tokens: Map<string, { snapshot: TokenSnapshot; alerts: Alerts }>;
  wallets: Map<string, { snapshot: WalletSnapshot; alerts: Alerts }>;
  inputs: number;
}

export class Commits {
  private uncommitted: Uncommitted | null = null;
  private running: Promise<void> | null = null;
  private readonly listeners = new Set<(rows: number) => void>();
  /** Outbox rows written since start. */
  rows = 0;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly now: () => number,
    /** A commit failed: memory may be ahead of the store for these targets. */
    private readonly onFailed: (target: { kind: FollowKind; address: string }) => void,
    private readonly scope: WatchScope | null = null,
  ) {}

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
      } catch (error) {
        if (isLeaseLost(error)) {
          // Another watcher holds these partitions now: it reads their state from the store and reconciles them.
          this.logger.warn(
            { reason: errorText(error), inputs: batch.inputs },
            'commit refused: a partition moved to another watcher; its state is theirs',
          );
          this.scope?.fenced();
        } else
          this.logger.error(
            { error: errorText(error), inputs: batch.inputs },
            'could not commit alerts; their state is read again from the store',
          );
        for (const address of batch.tokens.keys()) this.onFailed({ kind: 'token', address });
        for (const address of batch.wallets.keys()) this.onFailed({ kind: 'wallet', address });
      }
      batch.resolve(rows);
      if (rows > 0) for (const listener of this.listeners) this.tell(listener, rows);
    }
    this.running = null;
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
        else this.onFailed({ kind, address });
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
