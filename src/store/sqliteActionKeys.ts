/**
 * Card action keys in SQLite, so that buttons keep working across a restart until they expire.
 * The key's form (issue time, then random bytes) and the order a press is judged in are shared
 * with the PostgreSQL store (actionKeyForm.ts).
 */
import type { ChatRef } from '../model/chat';
import type { ActionKeyStore, ResolvedAction, StoredAction } from './actionKeys';
import { hasKeyForm, judgePress, newActionKey } from './actionKeyForm';
import type { SqliteDatabase } from './openDatabase';
import { threadColumn } from './rows';

export class SqliteActionKeys implements ActionKeyStore {
  private readonly insert;
  private readonly select;
  private readonly deleteExpired;
  private readonly insertAll;

  constructor(db: SqliteDatabase) {
    this.insert = db.prepare<[string, string, string, string, string, string, number, number]>(
      'INSERT OR IGNORE INTO action_keys (key, platform, chat_id, thread_id, command, args, refresh, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.select = db.prepare<[string], { platform: string; chat_id: string; thread_id: string; command: string; args: string; refresh: number; expires_at: number }>(
      'SELECT platform, chat_id, thread_id, command, args, refresh, expires_at FROM action_keys WHERE key = ?',
    );
    this.deleteExpired = db.prepare<[number]>('DELETE FROM action_keys WHERE expires_at <= ?');
    this.insertAll = db.transaction((actions: readonly StoredAction[], chat: ChatRef, expiresAtMs: number): string[] =>
      actions.map((action) => this.insertOne(action, chat, expiresAtMs)),
    );
  }

  /**
   * A card's keys in one transaction: one write of the log for the card, not one per button (a
   * token card has five), which is most of what issuing them costs.
   */
  async issueAll(actions: readonly StoredAction[], chat: ChatRef, expiresAt: Date): Promise<string[]> {
    return this.insertAll(actions, chat, expiresAt.getTime());
  }

  private insertOne(action: StoredAction, chat: ChatRef, expiresAtMs: number): string {
    const args = JSON.stringify(action.args);
    const refresh = action.refresh === true ? 1 : 0;
    // Two keys of the same millisecond sharing 72 random bits does not happen; the loop is there so that it could not matter.
    const nowMs = Date.now();
    for (;;) {
      const key = newActionKey(nowMs);
      if (this.insert.run(key, chat.platform, chat.chatId, threadColumn(chat.threadId), action.command, args, refresh, expiresAtMs).changes > 0) return key;
    }
  }

  /** The same checks, in the same order, as the in-memory store (actionKeyForm.ts). */
  async resolve(key: string, chat: ChatRef, now: Date): Promise<ResolvedAction> {
    if (!hasKeyForm(key)) return { status: 'unknown' };
    const row = this.select.get(key);
    return judgePress(row === undefined ? undefined : { ...row, refresh: row.refresh !== 0 }, chat, now);
  }

  async prune(now: Date): Promise<number> {
    return this.deleteExpired.run(now.getTime()).changes;
  }
}
