/** Calls in PostgreSQL (src/store/calls.ts), as sqliteCalls.ts keeps them; milestones written with the peaks in one transaction. */
import { CHAT_MILESTONE_EVENTS, withoutCallers } from '../forgetCaller';
import type { AlertDelivery } from '../../model/follow';
import type { AlertEvent } from '../../model/events';
import type { Call, CallChat, CallRepository, NewCall, PeakUpdate } from '../calls';
import { CALL_COLUMNS, callOf, type CallRow } from '../callRows';
import { ChatInterner, threadColumn } from '../rows';
import type { PgDatabase } from './pgDatabase';
import { insertAlertRows } from './alertRows';
import { checkFence } from './fence';
import type { CommitFence } from '../leaseLost';
import { pgText } from './pgText';

type Alerts = ReadonlyArray<{ event: AlertEvent; to: readonly AlertDelivery[] }>;

export class PgCalls implements CallRepository {
  private readonly chats = new ChatInterner();

  /** `settle` writes the state commits still waiting, so that outbox rows keep their order. */
  constructor(
    private readonly db: PgDatabase,
    private readonly settle: () => Promise<void> = async () => undefined,
  ) {}

  async enabled(chat: CallChat): Promise<boolean> {
    const { rows } = await this.db.query<{ enabled: boolean }>({
      text: 'SELECT enabled FROM call_chats WHERE platform = $1 AND chat_id = $2',
      values: [chat.platform, chat.chatId],
    });
    return rows[0]?.enabled === true;
  }

  async setEnabled(chat: CallChat, on: boolean, now: Date): Promise<void> {
    await this.db.query({
      text: `INSERT INTO call_chats (platform, chat_id, enabled, changed_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (platform, chat_id) DO UPDATE SET enabled = excluded.enabled, changed_at = excluded.changed_at`,
      values: [chat.platform, chat.chatId, on, now.getTime()],
    });
  }

  async record(call: NewCall): Promise<{ call: Call; created: boolean }> {
    const at = call.calledAt.getTime();
    const inserted = await this.db.query({
      text:
        `INSERT INTO calls (platform, chat_id, thread_id, scope_id, address, symbol, name, user_id, user_name, message_id, called_at,
               price_sol, price_usd, sol_usd, mcap_sol, mcap_usd, peak_sol, peak_at, last_sol, last_at, checked_to, ` +
        `next_check_at, told_multiple)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $12, $11, $12, $11, $17, $11, 0)
             ON CONFLICT (platform, chat_id, address) DO NOTHING`,
      values: [
        call.chat.platform,
        call.chat.chatId,
        threadColumn(call.chat.threadId),
        call.chat.scopeId,
        call.address,
        pgText(call.symbol),
        pgText(call.name),
        call.userId,
        pgText(call.userName),
        call.messageId,
        at,
        call.priceSol,
        call.priceUsd,
        call.solUsd,
        call.mcapSol,
        call.mcapUsd,
        Math.ceil(at / 1000),
      ],
    });
    const stored = await this.get(call.chat, call.address);
    if (stored === null) throw new Error('a call just written could not be read back');
    return { call: stored, created: (inserted.rowCount ?? 0) > 0 };
  }

  async get(chat: CallChat, address: string): Promise<Call | null> {
    const { rows } = await this.db.query<CallRow>({
      text: `SELECT ${CALL_COLUMNS} FROM calls WHERE platform = $1 AND chat_id = $2 AND address = $3`,
      values: [chat.platform, chat.chatId, address],
    });
    const row = rows[0];
    return row === undefined ? null : callOf(row, this.chats);
  }

  async list(chat: CallChat, since: Date | null): Promise<Call[]> {
    const { rows } = await this.db.query<CallRow>({
      text: `SELECT ${CALL_COLUMNS} FROM calls WHERE platform = $1 AND chat_id = $2 AND called_at >= $3 ORDER BY called_at DESC, id DESC`,
      values: [chat.platform, chat.chatId, since?.getTime() ?? 0],
    });
    return rows.map((row) => callOf(row, this.chats));
  }

  async due(now: Date, limit: number): Promise<Call[]> {
    const { rows } = await this.db.query<CallRow>({
      // Round-robin by chat, then by how overdue (as the SQLite store: sqliteCalls.ts).
      text: `SELECT ${CALL_COLUMNS} FROM (
               SELECT c.*, ROW_NUMBER() OVER (PARTITION BY c.platform, c.chat_id ORDER BY c.next_check_at, c.id) AS turn FROM calls c
               JOIN call_chats s ON s.platform = c.platform AND s.chat_id = c.chat_id AND s.enabled
               WHERE c.next_check_at IS NOT NULL AND c.next_check_at <= $1
             ) AS due ORDER BY turn, next_check_at, id LIMIT $2`,
      values: [now.getTime(), limit],
    });
    return rows.map((row) => callOf(row, this.chats));
  }

  async active(limit: number): Promise<Call[]> {
    const { rows } = await this.db.query<CallRow>({
      text: `SELECT ${CALL_COLUMNS.split(', ')
        .map((column) => `c.${column}`)
        .join(', ')} FROM calls c
             JOIN call_chats s ON s.platform = c.platform AND s.chat_id = c.chat_id AND s.enabled
             WHERE c.next_check_at IS NOT NULL ORDER BY c.next_check_at, c.id LIMIT $1`,
      values: [limit],
    });
    return rows.map((row) => callOf(row, this.chats));
  }

  async activeCount(): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>({ text: 'SELECT count(*)::int AS n FROM calls WHERE next_check_at IS NOT NULL' });
    return rows[0]?.n ?? 0;
  }

  async recordPeaks(updates: readonly PeakUpdate[], alerts: Alerts, now: Date, fence?: CommitFence): Promise<number> {
    if (alerts.length > 0) await this.settle();
    const at = now.getTime();
    return this.db.transaction(async (client) => {
      // The lease checked and locked in the write's own transaction (fence.ts): it cannot change hands before the commit.
      if (fence !== undefined) await checkFence(client, fence);
      for (const update of updates) {
        await client.query({
          text:
            'UPDATE calls SET peak_sol = $1, peak_at = $2, last_sol = $3, last_at = $4, checked_to = $5, next_check_at = $6, ' +
            'told_multiple = $7 WHERE id = $8',
          values: [
            update.peakSol,
            update.peakAt.getTime(),
            update.lastSol,
            update.lastAt.getTime(),
            update.checkedTo,
            update.nextCheckAt?.getTime() ?? null,
            update.toldMultiple,
            update.id,
          ],
        });
      }
      // A handful at a time (milestones are rare), in the peaks' transaction (alertRows.ts).
      return insertAlertRows(client, alerts, at);
    });
  }

  async forget(chat: CallChat, userId: string): Promise<Call[]> {
    const rows = await this.db.transaction(async (client) => {
      const removed = await client.query<CallRow>({
        text: `DELETE FROM calls WHERE platform = $1 AND chat_id = $2 AND user_id = $3 RETURNING ${CALL_COLUMNS}`,
        values: [chat.platform, chat.chatId, userId],
      });
      // Their names leave the milestone alerts too, sent or waiting (../forgetCaller.ts).
      const forgotten = new Set(removed.rows.map((row) => Number(row.id)));
      if (forgotten.size > 0) {
        const events = await client.query<{ id: string; event: string }>({
          text: CHAT_MILESTONE_EVENTS.replace('{1}', '$1').replace('{2}', '$2'),
          values: [chat.platform, chat.chatId],
        });
        for (const found of events.rows) {
          const rewritten = withoutCallers(found.event, forgotten);
          if (rewritten !== null) await client.query({ text: 'UPDATE events SET event = $1 WHERE id = $2', values: [rewritten, found.id] });
        }
      }
      return removed.rows;
    });
    return rows.map((row) => callOf(row, this.chats)).sort((a, b) => b.calledAt.getTime() - a.calledAt.getTime());
  }

  async clear(chat: CallChat): Promise<number> {
    const result = await this.db.query({
      text: 'DELETE FROM calls WHERE platform = $1 AND chat_id = $2',
      values: [chat.platform, chat.chatId],
    });
    return result.rowCount ?? 0;
  }

  async retireBeyond(chat: CallChat, keep: number): Promise<number> {
    const result = await this.db.query({
      text:
        'UPDATE calls SET next_check_at = NULL WHERE id IN (' +
        'SELECT id FROM calls WHERE platform = $1 AND chat_id = $2 AND next_check_at IS NOT NULL ' +
        'ORDER BY called_at DESC, id DESC OFFSET $3)',
      values: [chat.platform, chat.chatId, Math.max(0, Math.floor(keep))],
    });
    return result.rowCount ?? 0;
  }
}
