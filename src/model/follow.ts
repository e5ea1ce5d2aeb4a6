/**
 * A chat's follow of a token or a wallet, and the alert rows the outbox holds for chats: the
 * shapes the store keeps and the watcher, the follow commands, delivery and the cards read.
 */
import type { ChatRef } from './chat';
import type { AlertEvent } from './events';

export type FollowKind = 'token' | 'wallet';
export type TradeSide = 'buy' | 'sell' | 'both';
/** Which price moves a token follow is told of. */
export type PriceDirection = 'up' | 'down' | 'both';

/**
 * A one-shot target (`/target`): told once when the token's USD price or market cap crosses
 * `value` in the direction named, then done. A follow with a target is told of nothing else.
 */
export interface FollowTarget {
  metric: 'price' | 'mcap';
  side: 'above' | 'below';
  /** USD: a price per token, or a market cap. */
  value: number;
}

/**
 * The event key of a target's crossing: one per target follow, so that it is told once whoever
 * sees it (the stream, a reconciliation), and so that the store knows a target told is done.
 */
export function targetEventKey(address: string, followId: number): string {
  return `target:${address}:${followId}`;
}

export interface FollowOptions {
  /** Alert kinds wanted; every kind that fits the follow's kind when empty. */
  events: string[];
  /** Wallet follows: trades below this USD value are not alerted (0: all). */
  minUsd: number;
  /** Token follows: a price move at least this many percent (absolute) is alerted. */
  thresholdPct: number;
  /** Wallet follows: which trades. */
  side: TradeSide;
  /** Token follows: which price moves (absent: both). */
  direction?: PriceDirection;
  /** A target (absent or null: the follow is no target). */
  target?: FollowTarget | null;
}

/**
 * The end of a mute "forever" (`/mute ADDR forever`): a date every store keeps as it keeps any
 * other, so a mute for good is a mute like the others and /unmute ends it the same way.
 */
export const MUTED_FOREVER = new Date(Date.UTC(9999, 11, 31));

export interface Follow {
  id: number;
  chat: ChatRef;
  kind: FollowKind;
  address: string;
  /** The name the chat gave it (wallets), or null. */
  label: string | null;
  options: FollowOptions;
  mutedUntil: Date | null;
  addedBy: string;
  addedAt: Date;
}

/** One alert for one chat, as the outbox holds it. */
export interface OutboxEntry {
  id: number;
  chat: ChatRef;
  event: AlertEvent;
  /** The follow's label at the time (a wallet's name), for the card. */
  label: string | null;
  attempts: number;
  createdAt: Date;
  nextAttemptAt: Date;
  /** Held back by quiet hours or the hourly budget: it goes out in a digest. Absent: never held. */
  held?: 'quiet' | 'budget';
}

export interface AlertDelivery {
  chat: ChatRef;
  label: string | null;
}
