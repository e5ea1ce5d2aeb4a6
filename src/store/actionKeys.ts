/**
 * Card actions kept server-side under short keys: a button carries the key, never the command, so
 * it fits every platform (Telegram's callback_data is 64 bytes, a full address alone is 44). A key
 * belongs to the chat it was shown in and expires.
 */
import type { ChatRef } from '../model/chat';

/** A card action as the pipeline runs it. */
export interface StoredAction {
  command: string;
  args: string[];
  /** A Refresh button: its answer replaces the card it was pressed on (platforms edit in place). Stores keep it. */
  refresh?: boolean;
}

export type ResolvedAction =
  | { status: 'ok'; action: StoredAction }
  | { status: 'expired' }
  | { status: 'unknown' }
  /** The key was issued in another chat. */
  | { status: 'wrong-chat' };

/**
 * How many keys are kept for one person (on one platform, over every chat) and for one chat (every
 * topic together): a key is about 170 bytes kept a day, and a person pressing Refresh all day, or a
 * chat of many alerts, would otherwise grow the table without bound. Past a budget the oldest keys
 * go first: the buttons of the oldest cards stop working ("no longer known"), never the newest.
 */
export interface ActionKeyBudget {
  perPerson: number;
  perChat: number;
}

/** 1,000 a person is some 200 cards a day (about 170 KB); 5,000 a chat about 850 KB. */
export const DEFAULT_ACTION_KEY_BUDGET: ActionKeyBudget = { perPerson: 1_000, perChat: 5_000 };

/** Whom keys are issued to: the person whose command the card answers, or nobody (an alert's card, which counts for the chat only). */
export interface KeyIssuer {
  userId: string | null;
  budget?: ActionKeyBudget;
}

export interface ActionKeyStore {
  /**
   * Issues a key (at most 20 bytes of [A-Za-z0-9_-]) for each action shown in `chat`, in order,
   * valid until `expiresAt`: a card's buttons together (the SQLite store in one transaction), so
   * they cost one wait, not one each. The actions may be a card's own (with their labels): a store
   * keeps only command, args and refresh of each, copied. The issuer's and the chat's oldest keys
   * past the budget are dropped.
   */
  issueAll(actions: readonly StoredAction[], chat: ChatRef, expiresAt: Date, issuer?: KeyIssuer): Promise<string[]>;
  /** Looks a key up for a press in `chat` at `now`. */
  resolve(key: string, chat: ChatRef, now: Date): Promise<ResolvedAction>;
  /** Forgets keys expired before `now`; returns how many. */
  prune(now: Date): Promise<number>;
}
