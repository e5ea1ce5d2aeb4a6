/**
 * Alerts to Telegram chats: the delivery loop's AlertSender. A card (a wallet trade, a risk
 * change...) is rendered to HTML and sent at Telegram's pace (api.ts); the outcome tells delivery
 * what to do:
 *
 * - sent;
 * - gone: blocked by the user, kicked, chat deleted or rights lost — delivery pauses the chat;
 * - retry after Telegram's retry_after when it was longer than auto-retry waits: only that chat is
 *   rescheduled, and further sends to it answer `retry` at once until then, without a request;
 * - a group that became a supergroup: the chat's follows and pending alerts move to the new id
 *   (through `onMigrated`) and the alert goes there at once.
 */
import type { Api } from 'grammy';
import type { Card } from '../../cards/card';
import type { ActionButton, ChatRef } from '../../model/chat';
import type { AlertSender, SendOutcome } from '../../delivery/sender';
import type { Logger } from '../../log';
import { classifyTelegramError } from './failures';
import { renderCardMessages } from './html';
import { sendRendered, type SendTarget } from './send';

export interface TelegramAlertSenderOptions {
  api: Api;
  logger: Logger;
  /** A group became a supergroup: move its follows, settings and pending alerts. */
  onMigrated?: (fromChatId: string, toChatId: string) => Promise<void>;
  now?: () => number;
}

function targetOf(chat: ChatRef, chatId = chat.chatId): SendTarget {
  const thread = chat.threadId === null ? null : Number(chat.threadId);
  return { chatId, threadId: thread !== null && Number.isSafeInteger(thread) ? thread : null, replyTo: null };
}

export class TelegramAlertSender implements AlertSender {
  readonly platform = 'telegram' as const;
  /**
   * Telegram allows 30 messages a second overall but one a second per chat, so a chat's alerts go
   * out a second apart and the overall pace needs many chats at once. Every chat of a delivery
   * round (200 rows) at once: each waits for its own slot (sendSlots.ts) without holding a
   * connection, the slots keep the limits, and no round ends with a few slow chats alone.
   */
  readonly concurrency = 200;
  /** Chats Telegram asked to wait, until epoch ms. */
  private readonly waitUntil = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: TelegramAlertSenderOptions) {
    this.now = options.now ?? Date.now;
  }

  async send(chat: ChatRef, card: Card, buttons: ActionButton[]): Promise<SendOutcome> {
    const until = this.waitUntil.get(chat.chatId);
    if (until !== undefined) {
      const left = until - this.now();
      if (left > 0) return { status: 'retry', afterMs: left, reason: 'Telegram asked this chat to wait' };
      this.waitUntil.delete(chat.chatId);
    }
    const messages = renderCardMessages(card, buttons);
    try {
      // A call's milestone answers the post that made it (Telegram sends it plainly when the post is gone).
      const replyTo = card.replyTo === undefined ? null : Number(card.replyTo);
      await sendRendered(
        this.options.api,
        { ...targetOf(chat), replyTo: replyTo !== null && Number.isSafeInteger(replyTo) ? replyTo : null },
        messages,
      );
      return { status: 'sent' };
    } catch (error) {
      return this.outcomeOf(chat, error, messages);
    }
  }

  private async outcomeOf(chat: ChatRef, error: unknown, messages: ReturnType<typeof renderCardMessages>): Promise<SendOutcome> {
    const failure = classifyTelegramError(error);
    switch (failure.kind) {
      case 'gone':
        return { status: 'gone', reason: failure.reason };
      case 'rate-limited':
        this.waitUntil.set(chat.chatId, this.now() + failure.retryAfterMs);
        return { status: 'retry', afterMs: failure.retryAfterMs, reason: failure.reason };
      case 'migrated': {
        this.options.logger.info(
          { chat: chat.chatId, to: failure.toChatId },
          'Telegram group became a supergroup: its follows move to the new id',
        );
        try {
          await this.options.onMigrated?.(chat.chatId, failure.toChatId);
          // The supergroup has no topics of the old group: the alert goes to the chat itself.
          await sendRendered(this.options.api, { chatId: failure.toChatId, threadId: null, replyTo: null }, messages);
          return { status: 'sent' };
        } catch (retryError) {
          const again = classifyTelegramError(retryError);
          return again.kind === 'gone'
            ? { status: 'gone', reason: again.reason }
            : { status: 'retry', afterMs: null, reason: again.reason };
        }
      }
      case 'thread-gone':
      case 'bad-message':
      case 'passing':
        return { status: 'retry', afterMs: null, reason: failure.reason };
    }
  }
}
