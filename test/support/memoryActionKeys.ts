/**
 * Card actions kept in memory under short random keys: the ActionKeyStore of tests that need no
 * database. It answers as the SQLite store does (test/store/actionKeysContract.test.ts runs the
 * same cases against both). Keys are kept until pruned.
 */
import { randomBytes } from 'node:crypto';
import { chatKey, type ChatRef } from '../../src/model/chat';
import {
  DEFAULT_ACTION_KEY_BUDGET,
  type ActionKeyStore,
  type KeyIssuer,
  type ResolvedAction,
  type StoredAction,
} from '../../src/store/actionKeys';

/** 12 random bytes: 16 characters of base64url, inside the 20 the contract allows. */
const KEY_BYTES = 12;
/** A key longer than the contract allows was never issued here; it is refused before any lookup. */
const MAX_KEY_LENGTH = 20;

interface Entry {
  action: StoredAction;
  chat: string;
  /** Platform and chat id: the budget's chat, every topic together. */
  wholeChat: string;
  /** Platform and person; null for a key of nobody's. */
  person: string | null;
  expiresAtMs: number;
}

export class MemoryActionKeyStore implements ActionKeyStore {
  private readonly entries = new Map<string, Entry>();

  /** Entries are kept in issue order (a Map's), so the oldest past a budget are the first found. */
  issueAll(actions: readonly StoredAction[], chat: ChatRef, expiresAt: Date, issuer: KeyIssuer = { userId: null }): Promise<string[]> {
    const person = issuer.userId === null ? null : `${chat.platform}:${issuer.userId}`;
    const wholeChat = `${chat.platform}:${chat.chatId}`;
    const keys: string[] = [];
    for (const action of actions) {
      const key = randomBytes(KEY_BYTES).toString('base64url');
      // A copy, so a card changed after its buttons were issued cannot change what they do.
      const stored: StoredAction = { command: action.command, args: [...action.args] };
      if (action.refresh === true) stored.refresh = true;
      this.entries.set(key, { action: stored, chat: chatKey(chat), wholeChat, person, expiresAtMs: expiresAt.getTime() });
      keys.push(key);
    }
    const budget = issuer.budget ?? DEFAULT_ACTION_KEY_BUDGET;
    if (person !== null) this.keepNewest((entry) => entry.person === person, budget.perPerson);
    this.keepNewest((entry) => entry.wholeChat === wholeChat, budget.perChat);
    return Promise.resolve(keys);
  }

  private keepNewest(belongs: (entry: Entry) => boolean, budget: number): void {
    const mine = [...this.entries].filter(([, entry]) => belongs(entry));
    for (const [key] of mine.slice(0, Math.max(0, mine.length - budget))) this.entries.delete(key);
  }

  resolve(key: string, chat: ChatRef, now: Date): Promise<ResolvedAction> {
    const entry = key.length > MAX_KEY_LENGTH ? undefined : this.entries.get(key);
    if (entry === undefined) return Promise.resolve({ status: 'unknown' });
    if (entry.expiresAtMs <= now.getTime()) return Promise.resolve({ status: 'expired' });
    if (entry.chat !== chatKey(chat)) return Promise.resolve({ status: 'wrong-chat' });
    return Promise.resolve({ status: 'ok', action: { ...entry.action, args: [...entry.action.args] } });
  }

  prune(now: Date): Promise<number> {
    let removed = 0;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAtMs <= now.getTime()) {
        this.entries.delete(key);
        removed++;
      }
    }
    return Promise.resolve(removed);
  }
}
