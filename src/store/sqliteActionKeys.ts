/**
 * Card action keys in SQLite, so that buttons keep working across a restart until they expire.
 * The key's form (issue time, then random bytes) and the order a press is judged in are shared
 * with the PostgreSQL store (actionKeyForm.ts).
 *
 * A card's keys are inserted before it is answered; keeping the person and the chat within their
 * budgets waits for the end of the turn (setImmediate), after the answer went out, as the
 * PostgreSQL store's trim does. Finding what is past a budget walks the newest keys of the chat up
 * to the budget (5,000 by default), so a card in a busy chat paid more for the trim than for its
 * own keys. Every other call of this store first runs the trims waiting, in the order their cards
 * were issued, so what any caller sees is what trimming at once would have left.
 */
import { setImmediate } from 'node:timers';
import type { ChatRef } from '../model/chat';
import { DEFAULT_ACTION_KEY_BUDGET, type ActionKeyBudget, type ActionKeyStore, type KeyIssuer, type ResolvedAction, type StoredAction } from './actionKeys';
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
  private readonly trimAll;
  private readonly order = new IssueOrder();
  /** Trims of the cards issued since the last ran, in the order issued. */
  private trims: Array<{ platform: string; chatId: string; userId: string; budget: ActionKeyBudget }> = [];
  private trimScheduled = false;

  constructor(private readonly db: SqliteDatabase) {
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
    this.insertAll = db.transaction((actions: readonly StoredAction[], chat: ChatRef, expiresAtMs: number, userId: string): string[] =>
      actions.map((action) => this.insertOne(action, chat, expiresAtMs, userId)),
    );
    this.trimAll = db.transaction((trims: ReadonlyArray<{ platform: string; chatId: string; userId: string; budget: ActionKeyBudget }>) => {
      for (const trim of trims) {
        if (trim.userId !== '') this.trimPerson.run(trim.platform, trim.userId, trim.budget.perPerson);
        this.trimChat.run(trim.platform, trim.chatId, trim.budget.perChat);
      }
    });
  }

  /**
   * A card's keys in one transaction: one write of the log for the card, not one per button (a
   * token card has five), which is most of what issuing them costs.
   */
  async issueAll(actions: readonly StoredAction[], chat: ChatRef, expiresAt: Date, issuer: KeyIssuer = { userId: null }): Promise<string[]> {
    if (actions.length === 0) return [];
    this.runTrims();
    const userId = issuer.userId ?? '';
    const keys = this.insertAll(actions, chat, expiresAt.getTime(), userId);
    this.trims.push({ platform: chat.platform, chatId: chat.chatId, userId, budget: issuer.budget ?? DEFAULT_ACTION_KEY_BUDGET });
    if (!this.trimScheduled) {
      this.trimScheduled = true;
      // node:timers' own setImmediate, as the state's commits: a test that fakes timers must not stop it.
      setImmediate(() => {
        this.trimScheduled = false;
        // A store closed meanwhile has nobody left to see the keys past a budget.
        if (!this.db.open) return;
        try {
          this.runTrims();
        } catch {
          // Kept waiting: the next call of this store runs them again and meets the error itself.
        }
      });
    }
    return keys;
  }

  /** Runs the trims still waiting: the store does before it closes. */
  flush(): void {
    this.runTrims();
  }

  /** Runs the trims waiting, in one transaction; rolled back, they wait for the next call. */
  private runTrims(): void {
    if (this.trims.length === 0) return;
    const trims = this.trims;
    this.trims = [];
    try {
      this.trimAll(trims);
    } catch (error) {
      this.trims = [...trims, ...this.trims];
      throw error;
    }
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
    this.runTrims();
    const row = this.select.get(key);
    return judgePress(row === undefined ? undefined : { ...row, refresh: row.refresh !== 0 }, chat, now);
  }

  async prune(now: Date): Promise<number> {
    this.runTrims();
    return this.deleteExpired.run(now.getTime()).changes;
  }
}
