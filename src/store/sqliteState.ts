/**
 * Last-seen state per token and per wallet, kept as the snapshot's JSON, and the commits that
 * write it together with the outbox rows of the alerts it raised: one transaction, so that a crash
 * leaves either both or neither (never an alert without its state, which would repeat it, nor a
 * state without its alert, which would lose it).
 */
import type { AlertEvent } from '../watch/events';
import type { TokenSnapshot, WalletSnapshot } from '../watch/snapshot';
import type { AlertDelivery, StateCommitBatch, StateRepository } from './store';
import type { SqliteDatabase } from './openDatabase';
import type { OutboxWriter } from './sqliteOutbox';

type Alerts = ReadonlyArray<{ event: AlertEvent; to: readonly AlertDelivery[] }>;

export class SqliteState implements StateRepository {
  private readonly selectToken;
  private readonly selectWallet;
  private readonly upsertToken;
  private readonly upsertWallet;
  private readonly commitTokenTx;
  private readonly commitWalletTx;
  private readonly commitManyTx;

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
    this.commitTokenTx = db.transaction((snapshot: TokenSnapshot, alerts: Alerts, now: number): number => {
      this.upsertToken.run(snapshot.address, JSON.stringify(snapshot), now);
      return alerts.length === 0 ? 0 : outbox.write(alerts, now);
    });
    this.commitWalletTx = db.transaction((snapshot: WalletSnapshot, alerts: Alerts, now: number): number => {
      this.upsertWallet.run(snapshot.address, JSON.stringify(snapshot), now);
      return alerts.length === 0 ? 0 : outbox.write(alerts, now);
    });
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
    const row = this.selectToken.get(address);
    // Written by this store from a TokenSnapshot: read back as what it was.
    return row ? (JSON.parse(row.snapshot) as TokenSnapshot) : null;
  }

  async wallet(address: string): Promise<WalletSnapshot | null> {
    const row = this.selectWallet.get(address);
    return row ? (JSON.parse(row.snapshot) as WalletSnapshot) : null;
  }

  async tokens(addresses: string[]): Promise<Map<string, TokenSnapshot>> {
    const found = new Map<string, TokenSnapshot>();
    for (const address of addresses) {
      const row = this.selectToken.get(address);
      if (row) found.set(address, JSON.parse(row.snapshot) as TokenSnapshot);
    }
    return found;
  }

  async commitToken(snapshot: TokenSnapshot, alerts: Alerts, now: Date): Promise<number> {
    return this.commitTokenTx.immediate(snapshot, alerts, now.getTime());
  }

  async commitWallet(snapshot: WalletSnapshot, alerts: Alerts, now: Date): Promise<number> {
    return this.commitWalletTx.immediate(snapshot, alerts, now.getTime());
  }

  async commitMany(batch: StateCommitBatch, now: Date): Promise<number> {
    return this.commitManyTx.immediate(batch, now.getTime());
  }
}
