/**
 * Card action keys in SQLite, so that buttons keep working across a restart until they expire.
 * A key is 15 bytes in base64url, 20 characters of [A-Za-z0-9_-]: the time it was issued (6 bytes
 * of epoch milliseconds), then 9 random bytes. The random 72 bits cannot be guessed (and a key
 * works only in the chat it was shown in); the time in front keeps a card's keys, and the keys of
 * cards issued close together, side by side in the table's index, so a card's keys dirty one page
 * of it rather than one page each (random keys cost twice as much to insert). A key says nothing
 * about the action or the chat.
 */
import { randomBytes } from 'node:crypto';
import type { ChatRef } from '../model/chat';
import type { ActionKeyStore, ResolvedAction, StoredAction } from './actionKeys';
import type { SqliteDatabase } from './openDatabase';
import { threadColumn } from './rows';

const KEY_BYTES = 15;
const TIME_BYTES = 6;
const KEY_FORM = /^[A-Za-z0-9_-]{1,20}$/;

function newKey(nowMs: number): string {
  const bytes = randomBytes(KEY_BYTES);
  bytes.writeUIntBE(nowMs, 0, TIME_BYTES);
  return bytes.toString('base64url');
}

function parseArgs(text: string): string[] | null {
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : null;
}

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
      const key = newKey(nowMs);
      if (this.insert.run(key, chat.platform, chat.chatId, threadColumn(chat.threadId), action.command, args, refresh, expiresAtMs).changes > 0) return key;
    }
  }

  /**
   * The key is bound to the chat it was shown in: platform, chat id and thread (a forum topic),
   * as the in-memory store binds it. The checks come in the same order as there: unknown, then
   * expired, then another chat's.
   */
  async resolve(key: string, chat: ChatRef, now: Date): Promise<ResolvedAction> {
    if (!KEY_FORM.test(key)) return { status: 'unknown' };
    const row = this.select.get(key);
    if (!row) return { status: 'unknown' };
    if (row.expires_at <= now.getTime()) return { status: 'expired' };
    if (row.platform !== chat.platform || row.chat_id !== chat.chatId || row.thread_id !== threadColumn(chat.threadId)) return { status: 'wrong-chat' };
    const args = parseArgs(row.args);
    if (args === null) return { status: 'unknown' };
    const action: StoredAction = { command: row.command, args };
    if (row.refresh !== 0) action.refresh = true;
    return { status: 'ok', action };
  }

  async prune(now: Date): Promise<number> {
    return this.deleteExpired.run(now.getTime()).changes;
  }
}
