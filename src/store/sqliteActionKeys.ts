/**
 * Card action keys in SQLite, so that buttons keep working across a restart until they expire.
 * The key's form (issue time, then random bytes) and the order a press is judged in are shared
 * with the PostgreSQL store (actionKeyForm.ts).
 */
import type { ChatRef } from '../model/chat';
import { DEFAULT_ACTION_KEY_BUDGET, type ActionKeyStore, type KeyIssuer, type ResolvedAction, type StoredAction } from './actionKeys';
import { hasKeyForm, IssueOrder, judgePress, newActionKey } from './actionKeyForm';
import type { SqliteDatabase } from './openDatabase';
import { threadColumn } from './rows';

export class SqliteActionKeys implements ActionKeyStore {
  private readonly insert;
  private readonly select;
  private readonly deleteExpired;
  private readonly insertAll;
  private readonly trimPerson;
  private readonly trimChat;
  private readonly order = new IssueOrder();

  constructor(db: SqliteDatabase) {
    this.insert = db.prepare<[string, string, string, string, string, string, number, number, string, number]>(
      'INSERT OR IGNORE INTO action_keys (key, platform, chat_id, thread_id, command, args, refresh, expires_at, user_id, issued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    // Past the budget, the oldest go: everything after the newest N, read from the index of each.
    this.trimPerson = db.prepare<[string, string, number]>(
      "DELETE FROM action_keys WHERE key IN (SELECT key FROM action_keys WHERE platform = ? AND user_id = ? AND user_id <> '' ORDER BY issued_at DESC LIMIT -1 OFFSET ?)",
    );
    this.trimChat = db.prepare<[string, string, number]>(
      'DELETE FROM action_keys WHERE key IN (SELECT key FROM action_keys WHERE platform = ? AND chat_id = ? ORDER BY issued_at DESC LIMIT -1 OFFSET ?)',
    );
    this.select = db.prepare<[string], { platform: string; chat_id: string; thread_id: string; command: string; args: string; refresh: number; expires_at: number }>(
      'SELECT platform, chat_id, thread_id, command, args, refresh, expires_at FROM action_keys WHERE key = ?',
    );
    this.deleteExpired = db.prepare<[number]>('DELETE FROM action_keys WHERE expires_at <= ?');
    this.insertAll = db.transaction((actions: readonly StoredAction[], chat: ChatRef, expiresAtMs: number, issuer: KeyIssuer): string[] => {
      const userId = issuer.userId ?? '';
      const keys = actions.map((action) => this.insertOne(action, chat, expiresAtMs, userId));
      const budget = issuer.budget ?? DEFAULT_ACTION_KEY_BUDGET;
      if (userId !== '') this.trimPerson.run(chat.platform, userId, budget.perPerson);
      this.trimChat.run(chat.platform, chat.chatId, budget.perChat);
      return keys;
    });
  }

  /**
   * A card's keys in one transaction: one write of the log for the card, not one per button (a
   * token card has five), which is most of what issuing them costs.
   */
  async issueAll(actions: readonly StoredAction[], chat: ChatRef, expiresAt: Date, issuer: KeyIssuer = { userId: null }): Promise<string[]> {
    if (actions.length === 0) return [];
    return this.insertAll(actions, chat, expiresAt.getTime(), issuer);
  }

  private insertOne(action: StoredAction, chat: ChatRef, expiresAtMs: number, userId: string): string {
    const args = JSON.stringify(action.args);
    const refresh = action.refresh === true ? 1 : 0;
    // Two keys of the same millisecond sharing 72 random bits does not happen; the loop is there so that it could not matter.
    const nowMs = Date.now();
    for (;;) {
      const key = newActionKey(nowMs);
      if (this.insert.run(key, chat.platform, chat.chatId, threadColumn(chat.threadId), action.command, args, refresh, expiresAtMs, userId, this.order.next(nowMs)).changes > 0) return key;
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
