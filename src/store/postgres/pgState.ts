/**
 * Last-seen state per token and per wallet in PostgreSQL, and the commits that write it with the
 * outbox rows of its alerts (commitStatement.ts: one statement, one round trip, atomic).
 *
 * Group commit, as in SQLite: commitToken/commitWallet calls made in one turn of the event loop
 * are written by one statement at the end of that turn (setImmediate), at most MAX_GROUP at a
 * time; each promise resolves once its rows are committed, with its own count, and if the shared
 * statement fails, each is written alone so that only the one at fault rejects. Writes go one
 * after another, in the order they were made, so a later state of a token never lands before an
 * earlier one. Every read first waits for the writes made before it.
 *
 * All of it is the watcher's, so it waits for the server through an outage (`durable`): the
 * watcher keeps its state in memory meanwhile, and its commits land when the server is back.
 */
import { setImmediate } from 'node:timers';
import type { TokenSnapshot, WalletSnapshot } from '../../model/snapshot';
import type { CommitFence, StateCommitBatch, StateRepository } from '../store';
import { checkFence } from './fence';
import { COMMIT_SQL, CommitValues, type AddedRow, type Alerts, type StateWrite } from './commitStatement';
import type { PgDatabase } from './pgDatabase';
import { isConnectionError } from './connectionErrors';
import { isStoreUnavailable } from '../storeUnavailable';

type Commit = StateWrite & { resolve: (rows: number) => void; reject: (error: unknown) => void };

/** A bound on one shared statement, so that a burst is written in steps. */
const MAX_GROUP = 2_000;

export class PgState implements StateRepository {
  private waiting: Commit[] = [];
  private scheduled = false;
  /** The last write queued: each write starts after the one before it settles. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: PgDatabase) {}

  async token(address: string): Promise<TokenSnapshot | null> {
    await this.flush();
    const { rows } = await this.db.durableQuery<{ snapshot: string }>({
      name: 'tw_token_state',
      text: 'SELECT snapshot FROM token_state WHERE address = $1',
      values: [address],
    });
    // Written by this store from a TokenSnapshot: read back as what it was.
    return rows[0] ? (JSON.parse(rows[0].snapshot) as TokenSnapshot) : null;
  }

  async wallet(address: string): Promise<WalletSnapshot | null> {
    await this.flush();
    const { rows } = await this.db.durableQuery<{ snapshot: string }>({
      name: 'tw_wallet_state',
      text: 'SELECT snapshot FROM wallet_state WHERE address = $1',
      values: [address],
    });
    return rows[0] ? (JSON.parse(rows[0].snapshot) as WalletSnapshot) : null;
  }

  async tokens(addresses: string[]): Promise<Map<string, TokenSnapshot>> {
    await this.flush();
    const found = new Map<string, TokenSnapshot>();
    if (addresses.length === 0) return found;
    const { rows } = await this.db.durableQuery<{ address: string; snapshot: string }>({
      name: 'tw_token_states',
      text: 'SELECT address, snapshot FROM token_state WHERE address = ANY($1::text[])',
      values: [addresses],
    });
    const byAddress = new Map(rows.map((row) => [row.address, row.snapshot]));
    // In the order asked, as SQLite answers.
    for (const address of addresses) {
      const snapshot = byAddress.get(address);
      if (snapshot !== undefined) found.set(address, JSON.parse(snapshot) as TokenSnapshot);
    }
    return found;
  }

  commitToken(snapshot: TokenSnapshot, alerts: Alerts, now: Date): Promise<number> {
    return new Promise((resolve, reject) => this.enqueue({ kind: 'token', snapshot, alerts, now: now.getTime(), resolve, reject }));
  }

  commitWallet(snapshot: WalletSnapshot, alerts: Alerts, now: Date): Promise<number> {
    return new Promise((resolve, reject) => this.enqueue({ kind: 'wallet', snapshot, alerts, now: now.getTime(), resolve, reject }));
  }

  /**
   * All or nothing, in one statement, after the single commits made before it. With a fence, the
   * leases are read first in the same transaction and locked FOR KEY SHARE: a lease cannot change
   * hands between the check and the commit (a take locks FOR UPDATE, pgLeases.ts), and a commit
   * under a lease that moved on writes nothing. KEY SHARE rather than SHARE, so that the owner's
   * own renewals (which keep the owner) never wait for its commits. A fence left open by a process
   * cut off from the server holds its lock only until the server ends the idle transaction
   * (pgDatabase.ts SESSION_LIMITS); until then a take skips that lease rather than waiting.
   */
  async commitMany(batch: StateCommitBatch, now: Date, fence?: CommitFence): Promise<number> {
    const at = now.getTime();
    const values = new CommitValues();
    let index = 0;
    // Serialised before anything is queued: a batch that cannot be written is refused whole, at once.
    for (const { snapshot, alerts } of batch.tokens) values.add({ kind: 'token', snapshot, alerts, now: at }, index++);
    for (const { snapshot, alerts } of batch.wallets) values.add({ kind: 'wallet', snapshot, alerts, now: at }, index++);
    this.flushWaiting();
    const added =
      fence !== undefined && fence.leases.length > 0
        ? await this.serial(() => this.fenced(values, fence))
        : await this.serial(async () => (values.empty ? 0 : (await this.run(values)).length));
    // Rows were added: the server had room (a disk that was full has room again).
    if (added > 0) this.db.room.wrote();
    return added;
  }

  private async fenced(values: CommitValues, fence: CommitFence): Promise<number> {
    return this.db.durableTransaction(async (client) => {
      await checkFence(client, fence);
      if (values.empty) return 0;
      const added = await client.query<AddedRow>({ name: 'tw_commit', text: COMMIT_SQL, values: values.values() });
      return added.rows.length;
    });
  }

  /** Resolves once every commit made so far is written (or has failed). */
  async flush(): Promise<void> {
    this.flushWaiting();
    await this.tail;
  }

  private flushWaiting(): void {
    while (this.waiting.length > 0) {
      const group = this.waiting.splice(0, MAX_GROUP);
      void this.serial(() => this.writeGroup(group));
    }
  }

  private serial<T>(write: () => Promise<T>): Promise<T> {
    const run = this.tail.then(write, write);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private enqueue(commit: Commit): void {
    this.waiting.push(commit);
    if (!this.scheduled) {
      this.scheduled = true;
      // node:timers' own setImmediate, not the global: a test that fakes timers must not stop
      // commits from being written (the end of a turn is not a time to be faked).
      setImmediate(() => {
        this.scheduled = false;
        this.flushWaiting();
      });
    }
  }

  private async run(values: CommitValues): Promise<AddedRow[]> {
    const { rows } = await this.db.durableQuery<AddedRow>({ name: 'tw_commit', text: COMMIT_SQL, values: values.values() });
    return rows;
  }

  private async writeGroup(group: readonly Commit[]): Promise<void> {
    const values = new CommitValues();
    const sendable: Commit[] = [];
    const unwritable: Array<{ commit: Commit; error: unknown }> = [];
    for (const commit of group) {
      try {
        values.add(commit, sendable.length);
        sendable.push(commit);
      } catch (error) {
        // Its snapshot or an event could not be serialised: it alone fails, when the others settle.
        unwritable.push({ commit, error });
      }
    }
    try {
      await this.writeValues(values, sendable);
    } finally {
      for (const { commit, error } of unwritable) commit.reject(error);
    }
  }

  private async writeValues(values: CommitValues, sendable: readonly Commit[]): Promise<void> {
    if (sendable.length === 0) return;
    let added: AddedRow[];
    try {
      added = values.empty ? [] : await this.run(values);
    } catch (error) {
      if (sendable.length === 1 || isStoreUnavailable(error) || isConnectionError(error)) {
        for (const commit of sendable) commit.reject(error);
        return;
      }
      // The shared statement failed as a whole: find the one at fault by writing each alone.
      for (const commit of sendable) await this.writeGroup([commit]);
      return;
    }
    if (added.length > 0) this.db.room.wrote();
    const counts = values.countsOf(added, sendable.length);
    sendable.forEach((commit, index) => commit.resolve(counts[index] ?? 0));
  }
}
