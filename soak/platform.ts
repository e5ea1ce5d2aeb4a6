/**
 * The soak's chat platform: 200 chats in memory, registered as the echo platform of the tests is
 * (`registerChatPlatform`), so every command, button press and alert goes the way a real
 * platform's does: the inbox, the chat's queue, the Dispatcher, the outbox, delivery and the
 * platform's AlertSender. Nothing is rendered: the sender counts what it was handed and keeps the
 * newest buttons of each chat for the load to press. Delivery is instant and always accepted.
 */
import type { ChatPlatform, ChatDeps, RunningChat } from '../src/chats/platform';
import { senderLeaseOf } from '../src/chats/platform';
import { ChatInbox } from '../src/chats/inbox';
import type { AlertSender } from '../src/delivery/sender';
import type { CommandCaller } from '../src/dispatch/dispatcher';
import type { ChatReply } from '../src/dispatch/reply';
import type { ActionButton, ChatRef, Platform } from '../src/model/chat';

export const SOAK = 'soak';

export function soakChat(chatId: string): ChatRef {
  return { platform: SOAK as Platform, chatId, threadId: null, scopeId: null };
}

/** What the chats saw, kept across the bot's restarts; bounded: one button list per chat. */
export class SoakChats {
  alertsSent = 0;
  answers = 0;
  failedAnswers = 0;
  skipped = 0;
  private readonly buttons = new Map<string, ActionButton[]>();
  inbox: ChatInbox | null = null;
  now: () => number = Date.now;

  record(chatId: string, buttons: readonly ActionButton[]): void {
    if (buttons.length > 0) this.buttons.set(chatId, [...buttons]);
  }

  buttonsOf(chatId: string): readonly ActionButton[] {
    return this.buttons.get(chatId) ?? [];
  }

  private caller(chatId: string): CommandCaller {
    return { chat: soakChat(chatId), userId: `u${chatId}`, isManager: async () => true };
  }

  private answer = (chatId: string) => async (reply: ChatReply | null) => {
    this.answers++;
    if (reply === null) return;
    if (reply.errorId !== null) this.failedAnswers++;
    this.record(chatId, reply.buttons);
  };

  /** A line typed in a chat; resolves when it was answered (or at once when the bot is down or the queue full). */
  async type(chatId: string, line: string): Promise<void> {
    const inbox = this.inbox;
    if (inbox === null) return;
    const taken = inbox.line(this.caller(chatId), line, this.answer(chatId));
    if (!taken.taken) this.skipped++;
    else await taken.done.catch(() => undefined);
  }

  async press(chatId: string, key: string): Promise<void> {
    const inbox = this.inbox;
    if (inbox === null) return;
    const taken = inbox.press(this.caller(chatId), key, this.answer(chatId));
    if (!taken.taken) this.skipped++;
    else await taken.done.catch(() => undefined);
  }
}

export const soakChats = new SoakChats();

function soakSender(chats: SoakChats): AlertSender {
  return {
    platform: SOAK as Platform,
    concurrency: 16,
    async send(chat, _card, buttons) {
      chats.alertsSent++;
      chats.record(chat.chatId, buttons);
      return { status: 'sent' };
    },
  };
}

async function startSoak(deps: ChatDeps): Promise<RunningChat> {
  const inbox = new ChatInbox({
    dispatcher: deps.dispatcher,
    queue: { maxWaiting: 100, noticeEveryMs: 60_000 },
    now: () => soakChats.now(),
    failed: (error, chat) => deps.logger.error({ err: error, chat: chat.chatId }, 'soak input failed'),
  });
  soakChats.inbox = inbox;
  return {
    name: SOAK,
    sender: soakSender(soakChats),
    ended: null,
    connected: () => true,
    async stop() {
      soakChats.inbox = null;
      await inbox.stop();
    },
  };
}

export const soakPlatform: ChatPlatform<{ on: true }> = {
  name: SOAK,
  settings: { read: (_config, env) => ((env.SOAK_CHATS ?? '') === '' ? null : { on: true }), token: 'SOAK_CHATS' },
  start: startSoak,
  sendOnly: async () => ({ name: SOAK, sender: soakSender(soakChats), ended: null, stop: async () => undefined }),
  leaseLabels: [senderLeaseOf(SOAK)],
};
