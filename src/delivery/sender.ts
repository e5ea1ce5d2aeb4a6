/**
 * What delivery asks of a chat platform: send one card to one chat. Each platform implements it in
 * its own folder (Discord, Telegram, console) and keeps that platform's pace; delivery decides what
 * to do with the outcome (mark delivered, try again later, or pause a chat that is gone).
 */
import type { Card } from '../cards/card';
import type { ActionButton, ChatRef, Platform } from '../model/chat';

export type SendOutcome =
  | { status: 'sent' }
  /** Throttled or a passing failure: try again, after `afterMs` when the platform said so. */
  | { status: 'retry'; afterMs: number | null; reason: string }
  /** The chat cannot be written to (deleted, bot removed or blocked, permission lost): pause it. */
  | { status: 'gone'; reason: string };

export interface AlertSender {
  readonly platform: Platform;
  /**
   * How many chats delivery may send to at once. A platform whose pace is per chat (Telegram: one
   * message a second per chat, 30 overall) needs as many chats in flight as its overall rate, or a
   * backlog moves at the per-chat pace times this number. Default: delivery's own setting.
   */
  readonly concurrency?: number;
  /**
   * `key` names this message among every send of the bot (the outbox rows it carries): the same
   * key again is the same message sent again after a crash, which a platform that can tell
   * (Discord's nonce) posts once.
   */
  send(chat: ChatRef, card: Card, buttons: ActionButton[], key?: string): Promise<SendOutcome>;
}
