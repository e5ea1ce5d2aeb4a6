/**
 * The outbox: one row per alert per chat, unique on platform + chat + event key, with the event
 * itself kept once in `events`. Rows are written by the state repository's commits (in the same
 * transaction as the new last-seen state) through `OutboxWriter`, and drained by the senders.
 */
import type { ChatRef, Platform } from '../model/chat';
import type { AlertEvent } from '../model/events';
import type { Statement } from 'better-sqlite3';
import type { AlertTold, DeliveredAlert, HoldReason, OutboxRepository } from './store';
import type { AlertDelivery, OutboxEntry } from '../model/follow';
import type { SqliteDatabase } from './openDatabase';
import { entriesOf, historyOf, MAX_ERROR_LENGTH, toldOf, type DueRow, type HistoryRow, type ToldRow } from './outboxRows';
import { ChatInterner, threadColumn } from './rows';

/** Rows written by one statement at most: an event told to many chats is a few statements, not one per chat. */
const ROWS_PER_INSERT = 16;
type RowValue = number | string | null;

/** Writes events and their outbox rows; the caller owns the transaction. */
export class OutboxWriter {
  private readonly insertEvent;
  private readonly selectEventId;
  /** The insert of n rows, at index n - 1, prepared when first needed. */
  private readonly insertRows: Array<Statement<[RowValue[]]> | undefined> = [];
  /** The values of up to ROWS_PER_INSERT rows, reused from one statement to the next. */
  private readonly values: RowValue[] = [];

  constructor(private readonly db: SqliteDatabase) {
    this.insertEvent = db.prepare<[string, string, string, number]>(
      'INSERT OR IGNORE INTO events (key, kind, event, created_at) VALUES (?, ?, ?, ?)',
    );
    this.selectEventId = db.prepare<[string], { id: number }>('SELECT id FROM events WHERE key = ?');
  }

  private insertOf(rows: number): Statement<[RowValue[]]> {
    let statement = this.insertRows[rows - 1];
    if (statement === undefined) {
      const values = Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
      statement = this.db.prepare<[RowValue[]]>(
        `INSERT OR IGNORE INTO outbox (event_id, platform, chat_id, thread_id, scope_id, label, created_at, next_attempt_at) ` +
          `VALUES ${values}`,
      );
      this.insertRows[rows - 1] = statement;
    }
    return statement;
  }

  /** Rows added; a chat that already has this event key gets none. Call inside a transaction. */
  write(alerts: ReadonlyArray<{ event: AlertEvent; to: readonly AlertDelivery[] }>, now: number): number {
    let added = 0;
    for (const { event, to } of alerts) {
      if (to.length === 0) continue;
      const eventId = this.eventId(event, now);
      for (let first = 0; first < to.length; first += ROWS_PER_INSERT) {
        const last = Math.min(to.length, first + ROWS_PER_INSERT);
        const values = this.values;
        values.length = 0;
        for (let index = first; index < last; index++) {
          const { chat, label } = to[index] as AlertDelivery;
          values.push(eventId, chat.platform, chat.chatId, threadColumn(chat.threadId), chat.scopeId, label, now, now);
        }
        added += this.insertOf(last - first).run(values).changes;
      }
    }
    return added;
  }

  private eventId(event: AlertEvent, now: number): number {
    const inserted = this.insertEvent.run(event.key, event.kind, JSON.stringify(event), now);
    if (inserted.changes > 0) return Number(inserted.lastInsertRowid);
    // Seen before (the stream and the reconciliation both found it): the first copy stands.
    const row = this.selectEventId.get(event.key);
    if (!row) throw new Error('An alert event vanished while it was written');
    return row.id;
  }
}

export class SqliteOutbox implements OutboxRepository {
  private readonly chats = new ChatInterner();
  private readonly selectDue;
  private readonly deliver;
  private readonly retry;
  private readonly defer;
  private readonly countPending;
  private readonly countWaiting;
  private readonly oldestWaiting;
  private readonly pruneRows;
  private readonly pruneEvents;
  private readonly deliverTx;
  private readonly retryTx;
  private readonly pruneTx;
  private readonly addTx;
  private readonly selectKnown;
  private readonly holdTx;
  private readonly countDelivered;
  private readonly selectHistory;
  private readonly selectTold;

  /** `settle` writes commits still waiting (see SqliteState), so that every read sees them. */
  constructor(
    db: SqliteDatabase,
    private readonly settle: () => void = () => {},
  ) {
    this.selectDue = db.prepare<[string, number, number], DueRow>(
      `SELECT o.id, o.event_id, o.platform, o.chat_id, o.thread_id, o.scope_id, o.label, o.attempts, o.created_at, ` +
        `o.next_attempt_at, o.held, e.event
       FROM outbox o JOIN events e ON e.id = o.event_id
       WHERE o.platform = ? AND o.delivered_at IS NULL AND o.next_attempt_at <= ?
         AND NOT EXISTS (SELECT 1 FROM chats c WHERE c.platform = o.platform AND c.chat_id = o.chat_id AND c.paused_at IS NOT NULL)
       ORDER BY o.id LIMIT ?`,
    );
    this.deliver = db.prepare<[number, number]>('UPDATE outbox SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL');
    this.retry = db.prepare<[number, string, number]>(
      'UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ? AND delivered_at IS NULL',
    );
    this.defer = db.prepare<[number, string, string]>(
      'UPDATE outbox SET next_attempt_at = max(next_attempt_at, ?) WHERE delivered_at IS NULL AND platform = ? AND chat_id = ?',
    );
    this.countPending = db.prepare<[], { count: number; oldest: number | null }>(
      'SELECT count(*) AS count, min(created_at) AS oldest FROM outbox WHERE delivered_at IS NULL',
    );
    const waitingRows = `FROM outbox o WHERE o.platform = ? AND o.delivered_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM chats c WHERE c.platform = o.platform AND c.chat_id = o.chat_id AND c.paused_at IS NOT NULL)`;
    this.countWaiting = db.prepare<[string, number], { count: number }>(`SELECT count(*) AS count FROM (SELECT 1 ${waitingRows} LIMIT ?)`);
    // Rows are numbered in the order they were written: the first is the oldest, found without a scan.
    this.oldestWaiting = db.prepare<[string], { created_at: number }>(`SELECT o.created_at ${waitingRows} ORDER BY o.id LIMIT 1`);
    this.pruneRows = db.prepare<[number]>('DELETE FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < ?');
    this.pruneEvents = db.prepare('DELETE FROM events WHERE NOT EXISTS (SELECT 1 FROM outbox o WHERE o.event_id = events.id)');
    this.deliverTx = db.transaction((ids: readonly number[], at: number) => {
      for (const id of ids) this.deliver.run(at, id);
    });
    this.retryTx = db.transaction((ids: readonly number[], next: number, error: string) => {
      for (const id of ids) this.retry.run(next, error, id);
    });
    this.pruneTx = db.transaction((before: number): number => {
      const removed = this.pruneRows.run(before).changes;
      if (removed > 0) this.pruneEvents.run();
      return removed;
    });
    const writer = new OutboxWriter(db);
    this.addTx = db.transaction((alerts: ReadonlyArray<{ event: AlertEvent; to: readonly AlertDelivery[] }>, now: number) =>
      writer.write(alerts, now),
    );
    this.selectKnown = db.prepare<[string], { key: string }>('SELECT key FROM events WHERE key IN (SELECT value FROM json_each(?))');
    const hold = db.prepare<[number, string, number]>(
      'UPDATE outbox SET next_attempt_at = ?, held = ? WHERE id = ? AND delivered_at IS NULL',
    );
    this.holdTx = db.transaction((ids: readonly number[], until: number, reason: HoldReason) => {
      for (const id of ids) hold.run(until, reason, id);
    });
    this.countDelivered = db.prepare<[string, string, number], { count: number }>(
      'SELECT count(*) AS count FROM outbox WHERE platform = ? AND chat_id = ? AND delivered_at >= ? AND held IS NULL',
    );
    this.selectHistory = db.prepare<[string, string, number], HistoryRow>(
      `SELECT o.label, o.created_at, o.delivered_at, o.held, e.event FROM outbox o JOIN events e ON e.id = o.event_id
       WHERE o.platform = ? AND o.chat_id = ? AND o.delivered_at IS NOT NULL ORDER BY o.delivered_at DESC, o.id DESC LIMIT ?`,
    );
    this.selectTold = db.prepare<[string, string, string, number, number], ToldRow>(
      `SELECT o.event_id, o.platform, o.chat_id, o.thread_id, o.scope_id, o.label, e.event FROM outbox o JOIN events e ON e.id = o.event_id
       WHERE o.platform = ? AND o.chat_id = ? AND e.kind = ? AND o.created_at >= ? ORDER BY o.id LIMIT ?`,
    );
  }

  async toldSince(chat: Pick<ChatRef, 'platform' | 'chatId'>, kind: string, since: Date, limit: number): Promise<AlertTold[]> {
    this.settle();
    return toldOf(this.selectTold.all(chat.platform, chat.chatId, kind, since.getTime(), Math.max(0, Math.floor(limit))), this.chats);
  }

  async hold(ids: number[], until: Date, reason: HoldReason): Promise<void> {
    if (ids.length > 0) this.holdTx.immediate(ids, until.getTime(), reason);
  }

  async deliveredCount(chat: Pick<ChatRef, 'platform' | 'chatId'>, since: Date): Promise<number> {
    return this.countDelivered.get(chat.platform, chat.chatId, since.getTime())?.count ?? 0;
  }

  async history(chat: Pick<ChatRef, 'platform' | 'chatId'>, limit: number): Promise<DeliveredAlert[]> {
    this.settle();
    return historyOf(this.selectHistory.all(chat.platform, chat.chatId, Math.max(0, Math.floor(limit))));
  }

  async due(platform: Platform, now: Date, limit: number): Promise<OutboxEntry[]> {
    const count = Math.max(0, Math.floor(limit));
    if (count === 0) return [];
    this.settle();
    return entriesOf(this.selectDue.all(platform, now.getTime(), count), this.chats);
  }

  async markDelivered(ids: number[], at: Date): Promise<void> {
    if (ids.length > 0) this.deliverTx.immediate(ids, at.getTime());
  }

  async retryAt(ids: number[], next: Date, error: string): Promise<void> {
    if (ids.length > 0) this.retryTx.immediate(ids, next.getTime(), error.slice(0, MAX_ERROR_LENGTH));
  }

  async deferChat(chat: Pick<ChatRef, 'platform' | 'chatId'>, until: Date): Promise<void> {
    this.settle();
    this.defer.run(until.getTime(), chat.platform, chat.chatId);
  }

  async pending(): Promise<{ count: number; oldest: Date | null }> {
    this.settle();
    const row = this.countPending.get();
    return { count: row?.count ?? 0, oldest: row?.oldest == null ? null : new Date(row.oldest) };
  }

  async waiting(platform: Platform, limit: number): Promise<{ count: number; oldest: Date | null }> {
    this.settle();
    const oldest = this.oldestWaiting.get(platform);
    return { count: this.countWaiting.get(platform, limit)?.count ?? 0, oldest: oldest === undefined ? null : new Date(oldest.created_at) };
  }

  async add(alerts: Array<{ event: AlertEvent; to: AlertDelivery[] }>, now: Date): Promise<number> {
    this.settle();
    return alerts.length === 0 ? 0 : this.addTx.immediate(alerts, now.getTime());
  }

  async known(keys: readonly string[]): Promise<Set<string>> {
    this.settle();
    return new Set(keys.length === 0 ? [] : this.selectKnown.all(JSON.stringify(keys)).map((row) => row.key));
  }

  async prune(before: Date): Promise<number> {
    return this.pruneTx.immediate(before.getTime());
  }
}
