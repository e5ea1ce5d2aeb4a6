/**
 * Calls: the first post of a token in a chat that has calls on is that person's call, kept with the
 * market it was posted at, and its peak since, read from traded candles’ closes by the peak job. The shapes
 * and the repository every store implements (sqliteCalls.ts, postgres/pgCalls.ts); how a call, a
 * peak and the ranking are defined is docs/calls.md.
 */
import type { ChatRef } from '../model/chat';
import type { AlertDelivery } from '../model/follow';
import type { AlertEvent } from '../model/events';
import type { CommitFence } from './leaseLost';

/** A chat as calls know it: every topic of a group and every thread shares its chat's records. */
export type CallChat = Pick<ChatRef, 'platform' | 'chatId'>;

export interface NewCall {
  /** Where it was posted (its thread: where a milestone reply goes). */
  chat: ChatRef;
  address: string;
  /** As the card named it (untrusted text). */
  symbol: string;
  name: string;
  /** The platform's id of the person, and their display name then (untrusted text, never a mention). */
  userId: string;
  userName: string;
  /** The message that posted it, replied to by the milestones; null where there is none (a slash command). */
  messageId: string | null;
  calledAt: Date;
  /** SOL per token, from the same answer as the card; always above 0 (no price, no call). */
  priceSol: number;
  priceUsd: number | null;
  /** USD per SOL then; null when the rate could not be read. */
  solUsd: number | null;
  mcapSol: number | null;
  mcapUsd: number | null;
}

export interface Call extends NewCall {
  id: number;
  /** Highest close of a traded candle since the call (SOL per token), and the start of its candle. */
  peakSol: number;
  peakAt: Date;
  /** The last close read, and when. */
  lastSol: number;
  lastAt: Date;
  /** Unix seconds: candles starting at or after this are still to be read. */
  checkedTo: number;
  /** When the peak job reads it next; null: never again (older than the schedule goes). */
  nextCheckAt: Date | null;
  /** The highest milestone told (a multiple such as 5); 0 when none. */
  toldMultiple: number;
}

/** What one check of a call found, written with the milestone alerts it made. */
export type PeakUpdate = Pick<Call, 'id' | 'peakSol' | 'peakAt' | 'lastSol' | 'lastAt' | 'checkedTo' | 'nextCheckAt' | 'toldMultiple'>;

export interface CallRepository {
  /** Whether calls are on in the chat (off unless a manager turned them on). */
  enabled(chat: CallChat): Promise<boolean>;
  setEnabled(chat: CallChat, on: boolean, now: Date): Promise<void>;
  /**
   * Records the call unless the chat has a call of the token already: the first post wins, even
   * when two arrive at once. Returns the chat's call of the token and whether it is this one.
   */
  record(call: NewCall): Promise<{ call: Call; created: boolean }>;
  get(chat: CallChat, address: string): Promise<Call | null>;
  /** The chat's calls since `since` (null: all), newest first. */
  list(chat: CallChat, since: Date | null): Promise<Call[]>;
  /** Calls whose next check is due at `now`, the longest overdue first, in chats where calls are on. */
  due(now: Date, limit: number): Promise<Call[]>;
  /** Calls still checked (a next check set) in chats with calls on, the soonest due first, at most `limit`. */
  active(limit: number): Promise<Call[]>;
  /** Calls still checked (a next check set): what the peak job has to keep up with. */
  activeCount(): Promise<number>;
  /**
   * In one transaction: each call's new peak, last price, next check and milestone told, and the
   * milestone alerts as outbox rows (a commit's rules: a chat that has the event key gets no
   * second row). A restart in between writes both or neither, so a milestone is told once.
   * With a fence (several processes: the `calls:peaks` lease at the epoch this process took it),
   * nothing is written unless the lease is still this process's: a process that stalled past its
   * lease cannot tell a milestone the next holder tells too (LeaseLostError). One process, no fence.
   */
  recordPeaks(
    updates: readonly PeakUpdate[],
    alerts: ReadonlyArray<{ event: AlertEvent; to: readonly AlertDelivery[] }>,
    now: Date,
    fence?: CommitFence,
  ): Promise<number>;
  /** Removes the person's calls in the chat; returns what was removed. */
  forget(chat: CallChat, userId: string): Promise<Call[]>;
  /** Removes every call of the chat; returns how many. */
  clear(chat: CallChat): Promise<number>;
  /**
   * Stops following the chat's calls beyond its `keep` newest still followed (their next check
   * cleared: they keep their peaks, records and rankings); returns how many stopped.
   */
  retireBeyond(chat: CallChat, keep: number): Promise<number>;
}
