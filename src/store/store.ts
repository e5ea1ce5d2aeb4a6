/**
 * The one interface behind which every piece of persistent state lives: follows, chat settings,
 * last-seen state, the outbox of alerts and the keys of card actions. Callers know this interface
 * only; `sqliteStore.ts` implements it with better-sqlite3, and another database could implement
 * it without touching them. Every method is async for that reason, even where SQLite is not.
 */
import type { ChatRef, Platform } from '../model/chat';
import type { AlertEvent } from '../model/events';
import type { SharePlace } from '../model/place';
import type { AlertDelivery, Follow, FollowKind, FollowOptions, OutboxEntry } from '../model/follow';
import type { TokenSnapshot, WalletSnapshot } from '../model/snapshot';
import type { ActionKeyStore } from './actionKeys';
import type { CallRepository } from './calls';
import type { CommitFence } from './leaseLost';
import type { StoreRoom } from './storeRoom';

export type { CommitFence } from './leaseLost';

export interface NewFollow {
  chat: ChatRef;
  kind: FollowKind;
  address: string;
  label: string | null;
  options: FollowOptions;
  addedBy: string;
  now: Date;
}

/** Where follows are counted together for the fair-share limits (src/model/place.ts). */
export type FollowPlace = SharePlace;

/** What a place holds. */
export interface PlaceHoldings {
  /** Its follows, targets included. */
  follows: number;
  /** The distinct tokens and wallets among them: the live subscriptions it needs, whoever else needs them too. */
  watched: number;
  /** Whether it already follows the token or wallet asked about (so a follow of it adds nothing to `watched`). */
  watchesAlready: boolean;
}

export interface FollowRepository {
  /**
   * Adds a follow, or updates the options and label of the chat's follow of that address: its
   * /track follow, or, when `options.target` is set, its target of that address with that very
   * target (a chat may hold several targets of one token beside its /track of it).
   */
  upsert(follow: NewFollow): Promise<{ follow: Follow; created: boolean }>;
  /** Removes the chat's follow of `address` (its /track, not its targets); false when there was none. */
  remove(chat: ChatRef, address: string): Promise<boolean>;
  /** The chat's follow of `address` (its /track, not its targets). */
  get(chat: ChatRef, address: string): Promise<Follow | null>;
  /** The chat's targets, oldest first. */
  targetsOf(chat: ChatRef): Promise<Follow[]>;
  /** Removes the chat's targets of `address`; how many there were. */
  removeTargets(chat: ChatRef, address: string): Promise<number>;
  /**
   * Removes every target whose crossing has been told (its event, keyed `target:ADDRESS:FOLLOW_ID`,
   * is in the outbox's events): a target is done once told. Returns the addresses whose follows changed.
   */
  removeReachedTargets(): Promise<string[]>;
  /** The chat's follows, oldest first, targets included. */
  list(chat: ChatRef, page: { offset: number; limit: number }): Promise<{ follows: Follow[]; total: number }>;
  countForChat(chat: ChatRef): Promise<number>;
  /** What a whole chat or a Discord server holds, and whether it follows `kind` `address` already. */
  holdings(place: FollowPlace, kind: FollowKind, address: string): Promise<PlaceHoldings>;
  /** Sets or clears (null) the mute of the chat's follow of `address` (its /track); false when there is no such follow. */
  setMutedUntil(chat: ChatRef, address: string, until: Date | null): Promise<boolean>;
  /** Follows of a token or wallet in chats that are not paused (muted ones included: the caller checks the time). */
  followersOf(kind: FollowKind, address: string): Promise<Follow[]>;
  /** The distinct tokens and wallets followed in chats that are not paused: the watcher's targets. */
  targets(): Promise<{ tokens: string[]; wallets: string[] }>;
  /** Every follow, and the number of chats that have one. */
  totals(): Promise<{ follows: number; chats: number }>;
  /** Follows of tokens and of wallets: `totals().follows` split by kind. */
  countByKind(): Promise<Record<FollowKind, number>>;
}

export interface ChatSettings {
  /** Pasted addresses answered with a card (Telegram groups switch it on; private chats have it on). */
  detectAddresses: boolean | null;
  /** The daily watchlist (`/digest`): absent when off. In an update, null turns it off and absent leaves it as it is. */
  digest?: DigestSetting | null;
  /** Quiet hours (`/quiet`): absent when none. In an update, null clears them and absent leaves them. */
  quiet?: QuietSetting | null;
  /** Alerts sent one by one in a clock hour (`/settings budget`); the rest wait for a digest. Absent: no budget. */
  budget?: number | null;
  /** Wallets moving together (`/track cluster`): absent when off. In an update, null turns it off and absent leaves it. */
  cluster?: ClusterSetting | null;
}

/** How many of a chat's followed wallets trading one token within how many seconds make a wallet-cluster alert. */
export interface ClusterSetting {
  wallets: number;
  windowSecs: number;
}

/** Quiet hours: alerts held from `from` to `to` (wall clock in `zone`) and sent as a digest at the end. */
export interface QuietSetting {
  /** "HH:MM", 24-hour; `from` after `to` runs across midnight. */
  from: string;
  to: string;
  /** An IANA time zone name, "UTC" by default. */
  zone: string;
  /** When set, a change to DANGER waits too; otherwise it goes at once. */
  strict: boolean;
}

/** Why an outbox row was held back: quiet hours, or the chat's hourly budget spent. */
export type HoldReason = 'quiet' | 'budget';

/** An alert delivered to a chat, as /history shows it. */
export interface DeliveredAlert {
  event: AlertEvent;
  label: string | null;
  /** When it was written to the outbox: when it was detected. */
  createdAt: Date;
  deliveredAt: Date;
  held: HoldReason | null;
}

/** An alert written for a chat: where in the chat it went and the name the follow gave (untrusted). */
export interface AlertTold {
  chat: ChatRef;
  event: AlertEvent;
  label: string | null;
}

/** A chat's daily watchlist: when, in which zone, and where in the chat it goes. */
export interface DigestSetting {
  /** "HH:MM", 24-hour, in `zone`. */
  time: string;
  /** An IANA time zone name ("Europe/Paris"); "UTC" by default. */
  zone: string;
  /** The forum topic (Telegram) and server (Discord) it was set in: where it goes. */
  threadId: string | null;
  scopeId: string | null;
  /** Epoch ms when it was set: a day's time already past then is not sent late. */
  since: number;
}

export interface ChatRepository {
  /** A chat the bot can no longer write to: its follows stop alerting until it is resumed. */
  pause(chat: Pick<ChatRef, 'platform' | 'chatId'>, reason: string, now: Date): Promise<void>;
  resume(chat: Pick<ChatRef, 'platform' | 'chatId'>): Promise<void>;
  pausedReason(chat: Pick<ChatRef, 'platform' | 'chatId'>): Promise<string | null>;
  /** Chats of a platform that are paused now. */
  pausedCount(platform: Platform): Promise<number>;
  settings(chat: Pick<ChatRef, 'platform' | 'chatId'>): Promise<ChatSettings>;
  updateSettings(chat: Pick<ChatRef, 'platform' | 'chatId'>, settings: Partial<ChatSettings>): Promise<void>;
  /** Every chat not paused that has a daily watchlist, with the chat it goes to (its thread and scope). */
  digests(): Promise<Array<{ chat: ChatRef; digest: DigestSetting }>>;
  /** The chats not paused with a wallet cluster setting (`/track cluster`). */
  clusters(): Promise<Array<{ chat: Pick<ChatRef, 'platform' | 'chatId'>; cluster: ClusterSetting }>>;
  /** A Telegram group that became a supergroup: follows, settings and pending alerts move to the new id. */
  migrate(platform: Platform, fromChatId: string, toChatId: string): Promise<void>;
}

export interface StateRepository {
  token(address: string): Promise<TokenSnapshot | null>;
  wallet(address: string): Promise<WalletSnapshot | null>;
  tokens(addresses: string[]): Promise<Map<string, TokenSnapshot>>;
  /**
   * In one transaction: the new last-seen state, and one outbox row per (event, chat). A row whose
   * platform, chat and event key already exist is skipped. Returns the rows added.
   */
  commitToken(snapshot: TokenSnapshot, alerts: Array<{ event: AlertEvent; to: AlertDelivery[] }>, now: Date): Promise<number>;
  commitWallet(snapshot: WalletSnapshot, alerts: Array<{ event: AlertEvent; to: AlertDelivery[] }>, now: Date): Promise<number>;
  /**
   * Many commitToken and commitWallet in ONE transaction (the watcher commits what one tick of the
   * streams brought at once). Same rules as those two; returns the rows added. With a `fence`
   * (several processes, PostgreSQL only), nothing is written unless every lease it names is still
   * held by its owner at its epoch: LeaseLostError then.
   */
  commitMany(batch: StateCommitBatch, now: Date, fence?: CommitFence): Promise<number>;
}

export interface StateCommitBatch {
  tokens: Array<{ snapshot: TokenSnapshot; alerts: Array<{ event: AlertEvent; to: AlertDelivery[] }> }>;
  wallets: Array<{ snapshot: WalletSnapshot; alerts: Array<{ event: AlertEvent; to: AlertDelivery[] }> }>;
}

export interface OutboxRepository {
  /** Undelivered rows of a platform due at `now`, in chats not paused, oldest first. */
  due(platform: Platform, now: Date, limit: number): Promise<OutboxEntry[]>;
  markDelivered(ids: number[], at: Date): Promise<void>;
  /** One more failed attempt; tried again at `next`. */
  retryAt(ids: number[], next: Date, error: string): Promise<void>;
  /** Every undelivered row of a chat waits until `until` (a long Telegram retry_after). */
  deferChat(chat: Pick<ChatRef, 'platform' | 'chatId'>, until: Date): Promise<void>;
  /** Undelivered rows, and the creation time of the oldest. */
  pending(): Promise<{ count: number; oldest: Date | null }>;
  /**
   * Undelivered rows of a platform in chats not paused (those wait for the chat to be resumed, not
   * for delivery), counted up to `limit`, and the creation time of the oldest: how far delivery is
   * behind. The limit bounds the scan, so asking stays cheap however long the backlog.
   */
  waiting(platform: Platform, limit: number): Promise<{ count: number; oldest: Date | null }>;
  /**
   * Alerts that come from no last-seen state (a chat's daily watchlist): their events and rows,
   * in one transaction, with the rules of a commit (a chat that has the event key gets no second
   * row). Returns the rows added.
   */
  add(alerts: Array<{ event: AlertEvent; to: AlertDelivery[] }>, now: Date): Promise<number>;
  /** Which of these event keys the outbox holds (delivered or not, until pruned). */
  known(keys: readonly string[]): Promise<Set<string>>;
  /** Forgets delivered rows older than `before`; returns how many. */
  prune(before: Date): Promise<number>;
  /**
   * Rows held back (quiet hours, a spent budget): due again at `until`, no attempt counted, and
   * marked with why, so that they go out together in a digest then.
   */
  hold(ids: number[], until: Date, reason: HoldReason): Promise<void>;
  /** Rows of the chat delivered since `since` one by one (not held): what its hourly budget counts. */
  deliveredCount(chat: Pick<ChatRef, 'platform' | 'chatId'>, since: Date): Promise<number>;
  /** The chat's last `limit` alerts delivered (until pruned), newest first. */
  history(chat: Pick<ChatRef, 'platform' | 'chatId'>, limit: number): Promise<DeliveredAlert[]>;
  /**
   * The chat's alerts of one kind written since `since`, delivered or not (until pruned), oldest
   * first, at most `limit`: the trades a chat was told of, for wallets moving together.
   */
  toldSince(chat: Pick<ChatRef, 'platform' | 'chatId'>, kind: string, since: Date, limit: number): Promise<AlertTold[]>;
}

export interface Store {
  readonly follows: FollowRepository;
  readonly chats: ChatRepository;
  readonly state: StateRepository;
  readonly outbox: OutboxRepository;
  readonly actionKeys: ActionKeyStore;
  /** Calls and their peaks (src/store/calls.ts). */
  readonly calls: CallRepository;
  /** Whether it has room to write (a full disk: src/store/storeRoom.ts); absent: it never says. */
  readonly room?: StoreRoom;
  close(): Promise<void>;
}
