/**
 * Card action keys in SQLite, so that buttons keep working across a restart until they expire.
 * The key's form (issue time, then random bytes) and the order a press is judged in are shared
 * with the PostgreSQL store (actionKeyForm.ts).
 *
 * As in the PostgreSQL store, a card does not wait for its keys to be written: `issueAll` makes
 * them and hands them back, and they are written at the end of the turn (setImmediate), after the
 * answer went out, in one transaction with the person's and the chat's budgets kept (finding what
 * is past a budget walks up to 5,000 keys of a busy chat). Right after a wait for the network, the
 * card's transaction cost it 150 µs or more. Every other call of this store (a press, a prune, the
 * next card), a chat's move to another id, a backup and the store's close first write what waits,
 * in the order the cards were issued, so that what any of them sees is what writing at once would
 * have left. What a crash in that turn loses is the keys of the cards it answered: their buttons
 * answer "unknown", as they would after a PostgreSQL insert that failed.
 *
 * A disk with no room loses them the same way: keys that cannot be written for lack of room are
 * dropped (`onNoRoom` hears of it) rather than kept waiting, so that a look-up still answers while
 * the disk is full, its buttons answering "unknown"; and a prune that finds no room (a delete is
 * an append to the log too) waits for the next.
 */
import { setImmediate } from 'node:timers';
import type { ChatRef } from '../model/chat';
import {
  DEFAULT_ACTION_KEY_BUDGET,
  type ActionKeyBudget,
  type ActionKeyStore,
  type KeyIssuer,
  type ResolvedAction,
  type StoredAction,
} from './actionKeys';
import { hasKeyForm, IssueOrder, judgePress, newActionKey } from './actionKeyForm';
import type { SqliteDatabase } from './openDatabase';
import { threadColumn } from './rows';
import { sqliteNoRoom, type StoreUnavailableError } from './storeUnavailable';

type KeyRow = [
  key: string,
  platform: string,
  chatId: string,
  threadId: string,
  command: string,
  args: string,
  refresh: number,
  expiresAt: number,
  userId: string,
  issuedAt: number,
];

/** A card's keys as they wait to be written, with the budgets its issue keeps. */
interface IssuedCard {
  rows: KeyRow[];
  platform: string;
  chatId: string;
  userId: string;
  budget: ActionKeyBudget;
}

export class SqliteActionKeys implements ActionKeyStore {
  private readonly insert;
  private readonly select;
  private readonly deleteExpired;
  private readonly trimPerson;
  private readonly trimChat;
  private readonly writeAll;
  private readonly order = new IssueOrder();
  /** Cards whose keys were handed out and are not written yet, in the order issued. */
  private waiting: IssuedCard[] = [];
  private writeScheduled = false;

  constructor(
    private readonly db: SqliteDatabase,
    /** Keys were dropped, or a prune left for later, for lack of room. */
    private readonly onNoRoom: (error: StoreUnavailableError) => void = () => undefined,
  ) {
    this.insert = db.prepare<[string, string, string, string, string, string, number, number, string, number]>(
      'INSERT OR IGNORE INTO action_keys (key, platform, chat_id, thread_id, command, args, refresh, expires_at, user_id, ' +
        'issued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    // Past the budget, the oldest go: everything after the newest N, read from the index of each.
    this.trimPerson = db.prepare<[string, string, number]>(
      "DELETE FROM action_keys WHERE key IN (SELECT key FROM action_keys WHERE platform = ? AND user_id = ? AND user_id <> '' " +
        'ORDER BY issued_at DESC LIMIT -1 OFFSET ?)',
    );
    this.trimChat = db.prepare<[string, string, number]>(
      'DELETE FROM action_keys WHERE key IN (SELECT key FROM action_keys WHERE platform = ? AND chat_id = ? ' +
        'ORDER BY issued_at DESC LIMIT -1 OFFSET ?)',
    );
    this.select = db.prepare<
      [string],
      { platform: string; chat_id: string; thread_id: string; command: string; args: string; refresh: number; expires_at: number }
    >('SELECT platform, chat_id, thread_id, command, args, refresh, expires_at FROM action_keys WHERE key = ?');
    this.deleteExpired = db.prepare<[number]>('DELETE FROM action_keys WHERE expires_at <= ?');
    this.writeAll = db.transaction((cards: readonly IssuedCard[]) => {
      for (const card of cards) {
        // INSERT OR IGNORE: a key already there (the same millisecond and 72 random bits alike) keeps its first action.
        card.rows.forEach((row) => this.insert.run(...row));
        if (card.userId !== '') this.trimPerson.run(card.platform, card.userId, card.budget.perPerson);
        this.trimChat.run(card.platform, card.chatId, card.budget.perChat);
      }
    });
  }

  /** The card's keys at once; they are written at the end of the turn (see the file's head). */
  async issueAll(
    actions: readonly StoredAction[],
    chat: ChatRef,
    expiresAt: Date,
    issuer: KeyIssuer = { userId: null },
  ): Promise<string[]> {
    if (actions.length === 0) return [];
    if (!this.db.open) throw new TypeError('The database connection is not open');
    this.flush();
    const nowMs = Date.now();
    const userId = issuer.userId ?? '';
    // 72 random bits per key: two alike do not happen; a Set keeps this card's keys apart all the same.
    const keys = new Set<string>();
    while (keys.size < actions.length) keys.add(newActionKey(nowMs));
    const issued = [...keys];
    const expiresAtMs = expiresAt.getTime();
    const rows = actions.map(
      (action, index): KeyRow => [
        issued[index] ?? '',
        chat.platform,
        chat.chatId,
        threadColumn(chat.threadId),
        action.command,
        JSON.stringify(action.args),
        action.refresh === true ? 1 : 0,
        expiresAtMs,
        userId,
        this.order.next(nowMs),
      ],
    );
    this.waiting.push({ rows, platform: chat.platform, chatId: chat.chatId, userId, budget: issuer.budget ?? DEFAULT_ACTION_KEY_BUDGET });
    if (!this.writeScheduled) {
      this.writeScheduled = true;
      // node:timers' own setImmediate, as the state's commits: a test that fakes timers must not stop it.
      setImmediate(() => {
        this.writeScheduled = false;
        if (!this.db.open) return;
        try {
          this.flush();
        } catch {
          // Kept waiting: the next call of this store writes them again and meets the error itself.
        }
      });
    }
    return issued;
  }

  /** Writes the cards' keys still waiting, in one transaction; rolled back, they wait for the next call. */
  flush(): void {
    if (this.waiting.length === 0) return;
    const cards = this.waiting;
    this.waiting = [];
    try {
      this.writeAll(cards);
    } catch (error) {
      const noRoom = sqliteNoRoom(error);
      if (noRoom !== null) {
        // Dropped: kept, they would fail every call of this store while the disk is full.
        this.onNoRoom(noRoom);
        return;
      }
      this.waiting = [...cards, ...this.waiting];
      throw error;
    }
  }

  /** The same checks, in the same order, as the in-memory store (actionKeyForm.ts). */
  async resolve(key: string, chat: ChatRef, now: Date): Promise<ResolvedAction> {
    if (!hasKeyForm(key)) return { status: 'unknown' };
    this.flush();
    const row = this.select.get(key);
    return judgePress(row === undefined ? undefined : { ...row, refresh: row.refresh !== 0 }, chat, now);
  }

  async prune(now: Date): Promise<number> {
    this.flush();
    try {
      return this.deleteExpired.run(now.getTime()).changes;
    } catch (error) {
      const noRoom = sqliteNoRoom(error);
      if (noRoom === null) throw error;
      this.onNoRoom(noRoom);
      return 0;
    }
  }
}
