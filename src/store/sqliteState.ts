/**
 * Last-seen state per token and per wallet, kept as the snapshot's JSON, and the commits that
 * write it together with the outbox rows of the alerts it raised: one transaction, so that a crash
 * leaves either both or neither (never an alert without its state, which would repeat it, nor a
 * state without its alert, which would lose it).
 *
 * Group commit: a SQLite transaction costs far more than the one upsert inside it (each commit is
 * a write to the WAL), so the commits made within one turn of the event loop are written together
 * in one transaction, at the end of that turn (setImmediate). Each caller's promise still resolves
 * only once its writes are committed, with the rows its own alerts added; if the shared
 * transaction fails, each commit is retried alone so that only the one at fault rejects. Every
 * read of this store first writes what is waiting, so a reader always sees the commits it awaited
 * and any it did not.
 */
import { setImmediate } from 'node:timers';
import type { AlertEvent } from '../model/events';
import type { TokenSnapshot, WalletSnapshot } from '../model/snapshot';
import type { StateCommitBatch, StateRepository } from './store';
import type { AlertDelivery } from '../model/follow';
import type { SqliteDatabase } from './openDatabase';
import type { OutboxWriter } from './sqliteOutbox';

type Alerts = ReadonlyArray<{ event: AlertEvent; to: readonly AlertDelivery[] }>;

type Commit = { now: number; alerts: Alerts; resolve: (rows: number) => void; reject: (error: unknown) => void } & (
  | { kind: 'token'; snapshot: TokenSnapshot }
  | { kind: 'wallet'; snapshot: WalletSnapshot }
);

/** A bound on one shared transaction, so that a burst is written in steps the loop can breathe between. */
const MAX_GROUP = 2_000;

export class SqliteState implements StateRepository {
  private readonly selectToken;
  private readonly selectWallet;
  private readonly upsertToken;
  private readonly upsertWallet;
  private readonly writeOneTx;
  private readonly writeGroupTx;
  private readonly commitManyTx;
  private waiting: Commit[] = [];
  private scheduled = false;

  constructor(db: SqliteDatabase, outbox: OutboxWriter) {
    this.selectToken = db.prepare<[string], { snapshot: string }>('SELECT snapshot FROM token_state WHERE address = ?');
    this.selectWallet = db.prepare<[string], { snapshot: string }>('SELECT snapshot FROM wallet_state WHERE address = ?');
    this.upsertToken = db.prepare<[string, string, number]>(
      `INSERT INTO token_state (address, snapshot, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (address) DO UPDATE SET snapshot = excluded.snapshot, updated_at = excluded.updated_at`,
    );
    this.upsertWallet = db.prepare<[string, string, number]>(
      `INSERT INTO wallet_state (address, snapshot, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (address) DO UPDATE SET snapshot = excluded.snapshot, updated_at = excluded.updated_at`,
    );
    const write = (commit: Commit): number => {
      const json = JSON.stringify(commit.snapshot);
      if (commit.kind === 'token') this.upsertToken.run(commit.snapshot.address, json, commit.now);
      else this.upsertWallet.run(commit.snapshot.address, json, commit.now);
      return commit.alerts.length === 0 ? 0 : outbox.write(commit.alerts, commit.now);
    };
    this.writeOneTx = db.transaction(write);
    this.writeGroupTx = db.transaction((commits: readonly Commit[]): number[] => commits.map(write));
    // The watcher's batch (what one tick of the streams brought): one transaction for all of it.
    this.commitManyTx = db.transaction((batch: StateCommitBatch, now: number): number => {
      let added = 0;
      for (const { snapshot, alerts } of batch.tokens) {
        this.upsertToken.run(snapshot.address, JSON.stringify(snapshot), now);
        if (alerts.length > 0) added += outbox.write(alerts, now);
      }
      for (const { snapshot, alerts } of batch.wallets) {
        this.upsertWallet.run(snapshot.address, JSON.stringify(snapshot), now);
        if (alerts.length > 0) added += outbox.write(alerts, now);
      }
      return added;
    });
  }

  async token(address: string): Promise<TokenSnapshot | null> {
    this.flush();
    const row = this.selectToken.get(address);
    // Written by this store from a TokenSnapshot: read back as what it was.
    return row ? (JSON.parse(row.snapshot) as TokenSnapshot) : null;
  }

  async wallet(address: string): Promise<WalletSnapshot | null> {
    this.flush();
    const row = this.selectWallet.get(address);
    return row ? (JSON.parse(row.snapshot) as WalletSnapshot) : null;
  }

  async tokens(addresses: string[]): Promise<Map<string, TokenSnapshot>> {
    this.flush();
    const found = new Map<string, TokenSnapshot>();
    for (const address of addresses) {
      const row = this.selectToken.get(address);
      if (row) found.set(address, JSON.parse(row.snapshot) as TokenSnapshot);
    }
    return found;
  }

  commitToken(snapshot: TokenSnapshot, alerts: Alerts, now: Date): Promise<number> {
    return new Promise((resolve, reject) => this.enqueue({ kind: 'token', snapshot, alerts, now: now.getTime(), resolve, reject }));
  }

  commitWallet(snapshot: WalletSnapshot, alerts: Alerts, now: Date): Promise<number> {
    return new Promise((resolve, reject) => this.enqueue({ kind: 'wallet', snapshot, alerts, now: now.getTime(), resolve, reject }));
  }

  /** All or nothing, written at once (after any single commits still waiting, to keep their order). */
  async commitMany(batch: StateCommitBatch, now: Date): Promise<number> {
    this.flush();
    return this.commitManyTx.immediate(batch, now.getTime());
  }

  /** Writes every waiting commit now. Called before reads and on close. */
  flush(): void {
    while (this.waiting.length > 0) {
      const group = this.waiting.length <= MAX_GROUP ? this.waiting : this.waiting.slice(0, MAX_GROUP);
      this.waiting = group === this.waiting ? [] : this.waiting.slice(MAX_GROUP);
      this.writeGroup(group);
    }
  }

  private enqueue(commit: Commit): void {
    this.waiting.push(commit);
    if (!this.scheduled) {
      this.scheduled = true;
      // node:timers' own setImmediate, not the global: a test that fakes timers must not stop
      // commits from being written (the end of a turn is not a time to be faked).
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  private writeGroup(group: readonly Commit[]): void {
    if (group.length === 1) {
      this.writeAlone(group[0]!);
      return;
    }
    let added: number[];
    try {
      added = this.writeGroupTx.immediate(group);
    } catch {
      // Rolled back whole: find the one at fault by writing each alone.
      for (const commit of group) this.writeAlone(commit);
      return;
    }
    group.forEach((commit, index) => commit.resolve(added[index] ?? 0));
  }

  private writeAlone(commit: Commit): void {
    let added: number;
    try {
      added = this.writeOneTx.immediate(commit);
    } catch (error) {
      commit.reject(error);
      return;
    }
    commit.resolve(added);
  }
}
