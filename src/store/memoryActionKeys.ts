/**
 * Card actions kept in memory under short random keys: the ActionKeyStore for the console and for
 * running without a database. Keys do not survive a restart; a press after one gets the clear
 * "no longer known" answer, never a wrong action.
 */
import { randomFillSync } from 'node:crypto';
import { chatKey, type ChatRef } from '../chats/chat';
import type { ActionKeyStore, ResolvedAction, StoredAction } from './actionKeys';

/** 12 random bytes: 16 characters of base64url, well inside the 20 the contract allows, and unguessable. */
const KEY_BYTES = 12;
/** A key longer than the contract allows was never issued here; it is refused before any lookup. */
const MAX_KEY_LENGTH = 20;
/**
 * The most keys held unless told otherwise: past it the oldest go first (a press on one gets "no longer known"), so a
 * busy bot without a database stays within tens of megabytes whatever the action lifetime.
 */
export const MAX_MEMORY_KEYS = 100_000;

interface Entry {
  action: StoredAction;
  chat: string;
  expiresAtMs: number;
}

/**
 * Random bytes drawn a few hundred keys at a time: a call into the system's generator per key cost
 * more than the rest of issuing it. Each key takes fresh bytes of the pool; none is used twice.
 * The pool is written out in base64url once per draw: 12 bytes are 16 characters with no padding,
 * so each key is its own 16 characters of that text, as if its bytes were encoded alone.
 */
const POOL_KEYS = 256;
const KEY_CHARS = (KEY_BYTES / 3) * 4;
const pool = Buffer.alloc(KEY_BYTES * POOL_KEYS);
let poolText = '';
let poolNext = POOL_KEYS;

function randomKey(): string {
  if (poolNext >= POOL_KEYS) {
    randomFillSync(pool);
    poolText = pool.toString('base64url');
    poolNext = 0;
  }
  const start = poolNext * KEY_CHARS;
  poolNext += 1;
  return poolText.slice(start, start + KEY_CHARS);
}

/** Evicted keys at the front of the issue order are dropped from it once they are this many and half of it. */
const COMPACT_AFTER = 1024;

export class MemoryActionKeyStore implements ActionKeyStore {
  private readonly entries = new Map<string, Entry>();
  /**
   * Keys in the order they were issued, oldest from `head` on: the next to evict when the store is
   * full. Asking the map for its first key instead is not O(1): V8 leaves a hole for every deleted
   * entry at the front of its ordered table, and each call walks past all of them, so past the
   * maximum every issue got slower (about 2.3 times a whole /token after 17,000 look-ups).
   * A key already gone from the map (pruned) is skipped when it comes up.
   */
  private order: string[] = [];
  private head = 0;

  constructor(private readonly maxKeys: number = MAX_MEMORY_KEYS) {}

  /** How many keys are held (expired ones included until pruned). */
  get size(): number {
    return this.entries.size;
  }

  issue(action: StoredAction, chat: ChatRef, expiresAt: Date): Promise<string> {
    return Promise.resolve(this.add(action, chatKey(chat), expiresAt.getTime()));
  }

  issueAll(actions: readonly StoredAction[], chat: ChatRef, expiresAt: Date): Promise<string[]> {
    const where = chatKey(chat);
    const expiresAtMs = expiresAt.getTime();
    const keys: string[] = [];
    for (const action of actions) keys.push(this.add(action, where, expiresAtMs));
    return Promise.resolve(keys);
  }

  private add(action: StoredAction, chat: string, expiresAtMs: number): string {
    const key = randomKey();
    // A copy, so a card changed after its buttons were issued cannot change what they do.
    const stored: StoredAction = { command: action.command, args: [...action.args] };
    if (action.refresh === true) stored.refresh = true;
    this.entries.set(key, { action: stored, chat, expiresAtMs });
    this.order.push(key);
    if (this.entries.size > this.maxKeys) this.evictOldest();
    return key;
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
    // The issue order is written again from the map (which keeps it), so pruned keys do not pile
    // up in it between evictions; a prune walks every entry anyway.
    if (removed > 0) {
      this.order = [...this.entries.keys()];
      this.head = 0;
    }
    return Promise.resolve(removed);
  }

  private evictOldest(): void {
    const order = this.order;
    while (this.head < order.length) {
      const key = order[this.head];
      this.head += 1;
      if (key !== undefined && this.entries.delete(key)) break;
    }
    if (this.head >= COMPACT_AFTER && this.head * 2 >= order.length) {
      this.order = order.slice(this.head);
      this.head = 0;
    }
  }
}
