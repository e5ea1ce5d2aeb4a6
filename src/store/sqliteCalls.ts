/** Calls in SQLite (src/store/calls.ts): statements prepared once, milestones written with the peaks in one transaction. */
import { CHAT_MILESTONE_EVENTS, withoutCallers } from './forgetCaller';
import type { AlertDelivery } from '../model/follow';
import type { AlertEvent } from '../model/events';
import type { Call, CallChat, CallRepository, NewCall, PeakUpdate } from './calls';
import { CALL_COLUMNS, callOf, type CallRow } from './callRows';
import type { SqliteDatabase } from './openDatabase';
import { ChatInterner, threadColumn } from './rows';
import type { OutboxWriter } from './sqliteOutbox';

type Alerts = ReadonlyArray<{ event: AlertEvent; to: readonly AlertDelivery[] }>;

export class SqliteCalls implements CallRepository {
  private readonly chats = new ChatInterner();
  private readonly selectEnabled;
  private readonly upsertEnabled;
  private readonly insertCall;
  private readonly selectCall;
  private readonly selectList;
  private readonly selectSince;
  private readonly selectDue;
  private readonly countActive;
  private readonly selectActive;
  private readonly updatePeak;
  private readonly selectOfUser;
  private readonly deleteOfUser;
  private readonly deleteChat;
  private readonly retireOld;
  private readonly peaksTx;
  private readonly forgetTx;

  /** `settle` writes the state commits still waiting, so that outbox rows keep their order. */
  constructor(
    db: SqliteDatabase,
    outbox: OutboxWriter,
    private readonly settle: () => void = () => undefined,
  ) {
    this.selectEnabled = db.prepare<[string, string], { enabled: number }>(
      'SELECT enabled FROM call_chats WHERE platform = ? AND chat_id = ?',
    );
    this.upsertEnabled = db.prepare<[string, string, number, number]>(
      'INSERT INTO call_chats (platform, chat_id, enabled, changed_at) VALUES (?, ?, ?, ?) ON CONFLICT (platform, chat_id) DO ' +
        'UPDATE SET enabled = excluded.enabled, changed_at = excluded.changed_at',
    );
    this.insertCall = db.prepare(
      `INSERT OR IGNORE INTO calls (platform, chat_id, thread_id, scope_id, address, symbol, name, user_id, user_name, ` +
        `message_id, called_at,
         price_sol, price_usd, sol_usd, mcap_sol, mcap_usd, peak_sol, peak_at, last_sol, last_at, checked_to, next_check_at, told_multiple)
       VALUES (@platform, @chat_id, @thread_id, @scope_id, @address, @symbol, @name, @user_id, @user_name, @message_id, @called_at,
         @price_sol, @price_usd, @sol_usd, @mcap_sol, @mcap_usd, @price_sol, @called_at, @price_sol, @called_at, @checked_to, ` +
        `@called_at, 0)`,
    );
    this.selectCall = db.prepare<[string, string, string], CallRow>(
      `SELECT ${CALL_COLUMNS} FROM calls WHERE platform = ? AND chat_id = ? AND address = ?`,
    );
    this.selectList = db.prepare<[string, string], CallRow>(
      `SELECT ${CALL_COLUMNS} FROM calls WHERE platform = ? AND chat_id = ? ORDER BY called_at DESC, id DESC`,
    );
    this.selectSince = db.prepare<[string, string, number], CallRow>(
      `SELECT ${CALL_COLUMNS} FROM calls WHERE platform = ? AND chat_id = ? AND called_at >= ? ORDER BY called_at DESC, id DESC`,
    );
    // Round-robin by chat, then by how overdue: a chat's first due call before any chat's second,
    // so a chat with a thousand calls never keeps another chat's waiting (docs/calls.md).
    this.selectDue = db.prepare<[number, number], CallRow>(
      `SELECT ${CALL_COLUMNS} FROM (
         SELECT c.*, ROW_NUMBER() OVER (PARTITION BY c.platform, c.chat_id ORDER BY c.next_check_at, c.id) AS turn FROM calls c
         JOIN call_chats s ON s.platform = c.platform AND s.chat_id = c.chat_id AND s.enabled = 1
         WHERE c.next_check_at IS NOT NULL AND c.next_check_at <= ?
       ) ORDER BY turn, next_check_at, id LIMIT ?`,
    );
    this.selectActive = db.prepare<[number], CallRow>(
      `SELECT ${CALL_COLUMNS.split(', ')
        .map((column) => `c.${column}`)
        .join(', ')} FROM calls c
       JOIN call_chats s ON s.platform = c.platform AND s.chat_id = c.chat_id AND s.enabled = 1
       WHERE c.next_check_at IS NOT NULL ORDER BY c.next_check_at, c.id LIMIT ?`,
    );
    this.countActive = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM calls WHERE next_check_at IS NOT NULL');
    this.updatePeak = db.prepare<[number, number, number, number, number, number | null, number, number]>(
      'UPDATE calls SET peak_sol = ?, peak_at = ?, last_sol = ?, last_at = ?, checked_to = ?, next_check_at = ?, ' +
        'told_multiple = ? WHERE id = ?',
    );
    this.selectOfUser = db.prepare<[string, string, string], CallRow>(
      `SELECT ${CALL_COLUMNS} FROM calls WHERE platform = ? AND chat_id = ? AND user_id = ? ORDER BY called_at DESC, id DESC`,
    );
    this.deleteOfUser = db.prepare<[string, string, string]>('DELETE FROM calls WHERE platform = ? AND chat_id = ? AND user_id = ?');
    this.deleteChat = db.prepare<[string, string]>('DELETE FROM calls WHERE platform = ? AND chat_id = ?');
    this.retireOld = db.prepare<[string, string, string, string, number]>(
      'UPDATE calls SET next_check_at = NULL WHERE platform = ? AND chat_id = ? AND id IN (' +
        'SELECT id FROM calls WHERE platform = ? AND chat_id = ? AND next_check_at IS NOT NULL ' +
        'ORDER BY called_at DESC, id DESC LIMIT -1 OFFSET ?)',
    );
    this.peaksTx = db.transaction((updates: readonly PeakUpdate[], alerts: Alerts, now: number): number => {
      for (const update of updates) {
        this.updatePeak.run(
          update.peakSol,
          update.peakAt.getTime(),
          update.lastSol,
          update.lastAt.getTime(),
          update.checkedTo,
          update.nextCheckAt?.getTime() ?? null,
          update.toldMultiple,
          update.id,
        );
      }
      return outbox.write(alerts, now);
    });
    const milestoneEvents = db.prepare<[string, string], { id: number; event: string }>(
      CHAT_MILESTONE_EVENTS.replace('{1}', '?').replace('{2}', '?'),
    );
    const rewriteEvent = db.prepare<[string, number]>('UPDATE events SET event = ? WHERE id = ?');
    this.forgetTx = db.transaction((chat: CallChat, userId: string): CallRow[] => {
      const rows = this.selectOfUser.all(chat.platform, chat.chatId, userId);
      this.deleteOfUser.run(chat.platform, chat.chatId, userId);
      // Their names leave the milestone alerts too, sent or waiting (forgetCaller.ts).
      const forgotten = new Set(rows.map((row) => Number(row.id)));
      if (forgotten.size > 0)
        for (const found of milestoneEvents.all(chat.platform, chat.chatId)) {
          const rewritten = withoutCallers(found.event, forgotten);
          if (rewritten !== null) rewriteEvent.run(rewritten, found.id);
        }
      return rows;
    });
  }

  async enabled(chat: CallChat): Promise<boolean> {
    return this.selectEnabled.get(chat.platform, chat.chatId)?.enabled === 1;
  }

  async setEnabled(chat: CallChat, on: boolean, now: Date): Promise<void> {
    this.upsertEnabled.run(chat.platform, chat.chatId, on ? 1 : 0, now.getTime());
  }

  async record(call: NewCall): Promise<{ call: Call; created: boolean }> {
    const at = call.calledAt.getTime();
    const { changes } = this.insertCall.run({
      platform: call.chat.platform,
      chat_id: call.chat.chatId,
      thread_id: threadColumn(call.chat.threadId),
      scope_id: call.chat.scopeId,
      address: call.address,
      symbol: call.symbol,
      name: call.name,
      user_id: call.userId,
      user_name: call.userName,
      message_id: call.messageId,
      called_at: at,
      price_sol: call.priceSol,
      price_usd: call.priceUsd,
      sol_usd: call.solUsd,
      mcap_sol: call.mcapSol,
      mcap_usd: call.mcapUsd,
      checked_to: Math.ceil(at / 1000),
    });
    const stored = await this.get(call.chat, call.address);
    if (stored === null) throw new Error('a call just written could not be read back');
    return { call: stored, created: changes > 0 };
  }

  async get(chat: CallChat, address: string): Promise<Call | null> {
    const row = this.selectCall.get(chat.platform, chat.chatId, address);
    return row === undefined ? null : callOf(row, this.chats);
  }

  async list(chat: CallChat, since: Date | null): Promise<Call[]> {
    const rows =
      since === null ? this.selectList.all(chat.platform, chat.chatId) : this.selectSince.all(chat.platform, chat.chatId, since.getTime());
    return rows.map((row) => callOf(row, this.chats));
  }

  async due(now: Date, limit: number): Promise<Call[]> {
    return this.selectDue.all(now.getTime(), limit).map((row) => callOf(row, this.chats));
  }

  async active(limit: number): Promise<Call[]> {
    return this.selectActive.all(limit).map((row) => callOf(row, this.chats));
  }

  async activeCount(): Promise<number> {
    return this.countActive.get()?.n ?? 0;
  }

  /** One process writes a SQLite file: no lease to fence against. */
  async recordPeaks(updates: readonly PeakUpdate[], alerts: Alerts, now: Date): Promise<number> {
    if (alerts.length > 0) this.settle();
    return this.peaksTx(updates, alerts, now.getTime());
  }

  async forget(chat: CallChat, userId: string): Promise<Call[]> {
    return this.forgetTx(chat, userId).map((row) => callOf(row, this.chats));
  }

  async clear(chat: CallChat): Promise<number> {
    return this.deleteChat.run(chat.platform, chat.chatId).changes;
  }

  async retireBeyond(chat: CallChat, keep: number): Promise<number> {
    return this.retireOld.run(chat.platform, chat.chatId, chat.platform, chat.chatId, Math.max(0, Math.floor(keep))).changes;
  }
}
