/**
 * Telegram's updates as the inbox's input (src/chats/inbox.ts): a command, a button press or a
 * pasted address in a message becomes the inbox's call, and each answer is rendered as HTML with
 * inline keyboards and sent to the message it answers, in that message's forum topic when it has
 * one. Who may change a group (track, untrack, mute, settings): its administrators and creator,
 * asked of Telegram and remembered for a minute (admins.ts); in a private chat, the person in it.
 * The bot's removal from a chat, its return and a group's move to a supergroup are the store's.
 */
import { sequentialize } from '@grammyjs/runner';
import type { Bot, Context } from 'grammy';
import type { Message, MessageEntity } from 'grammy/types';
import { plainText } from '../../cards/card';
import type { CommandCaller } from '../../dispatch/dispatcher';
import { newErrorId } from '../../dispatch/dispatcher';
import type { ChatReply } from '../../dispatch/reply';
import type { Logger } from '../../log';
import type { ChatRef } from '../../model/chat';
import type { Store } from '../../store/store';
import { SKIPPED_NOTICE, type ChatInbox } from '../inbox';
import { detectAddress } from '../pasteDetect';
import type { AdminCache } from './admins';
import { classifyTelegramError } from './failures';
import { plainNotice, renderCardMessages } from './html';
import { sendRendered, type SendTarget } from './send';

export interface TelegramHandlerDeps {
  bot: Bot<Context>;
  inbox: ChatInbox;
  store: Store;
  logger: Logger;
  admins: AdminCache;
  /** The bot's @username, without the @. */
  username: string;
  now: () => Date;
  onPausesChanged?: () => void;
}

/** A message's chat as the rest of the bot names it: the forum topic is part of it. */
export function chatRefOf(message: Pick<Message, 'chat' | 'message_thread_id' | 'is_topic_message'>): ChatRef {
  const thread = message.is_topic_message === true && message.message_thread_id !== undefined ? String(message.message_thread_id) : null;
  return { platform: 'telegram', chatId: String(message.chat.id), threadId: thread, scopeId: null };
}

/**
 * A message an administrator sent anonymously, "as the group": Telegram gives it from
 * GroupAnonymousBot, a bot, with the group itself as sender_chat. Every other bot's message is
 * dropped (bots answering bots loop), but this one is a manager speaking (admins.ts), so a group
 * whose administrators all post anonymously can still configure the bot. A linked channel's post
 * (sender_chat the channel, not the group) stays dropped.
 */
function isAnonymousAdmin(message: Message): boolean {
  return message.sender_chat !== undefined && message.sender_chat.id === message.chat.id;
}

/** Targets of links hidden behind text and of plain links, for address detection. */
function linksOf(entities: readonly MessageEntity[] | undefined): string[] {
  return (entities ?? []).flatMap((entity) => (entity.type === 'text_link' ? [entity.url] : []));
}

/** Telegram command names allow letters, digits and underscores; ours may have dashes. */
export function telegramCommandName(name: string): string {
  return name.replace(/-/g, '_');
}

/** A refusal or notice shown in a callback answer: Telegram shows 200 characters of plain text. */
function noticeText(reply: ChatReply): string {
  const description = reply.card.description === undefined ? '' : plainText(reply.card.description);
  return plainNotice(description === '' ? reply.card.title : `${reply.card.title}: ${description}`);
}

/** The author as the chat shows them (untrusted text): an anonymous administrator is the group's title. */
function displayNameOf(message: Message): string | null {
  if (message.sender_chat !== undefined && 'title' in message.sender_chat) return message.sender_chat.title ?? null;
  const from = message.from;
  if (from === undefined) return null;
  return [from.first_name, from.last_name].filter((part) => part !== undefined && part !== '').join(' ') || (from.username ?? null);
}

function targetOf(caller: CommandCaller, message: Message, replyTo: number | null): SendTarget {
  return { chatId: message.chat.id, threadId: caller.chat.threadId === null ? null : Number(caller.chat.threadId), replyTo };
}

/** Wires every update the bot takes to the inbox and the store. */
export function handleTelegramUpdates(deps: TelegramHandlerDeps): void {
  const { bot, logger } = deps;
  // One chat's updates are handed to its queue in the order they came, even past an await (a
  // paste reads the chat's settings first); the handing is quick, the work waits in the queue.
  bot.use(sequentialize((ctx: Context) => (ctx.chat === undefined ? undefined : String(ctx.chat.id))));
  handleMembership(deps);
  const replies = telegramReplies(deps);
  bot.on('callback_query:data', (ctx) => replies.pressed(ctx));
  bot.on(['message:text', 'message:caption'], (ctx) => replies.message(ctx.message));
  bot.catch((error) => {
    logger.error({ errorId: newErrorId(), err: error.error, updateId: error.ctx.update.update_id }, 'Telegram update failed');
  });
}

/** A group turned supergroup, the bot removed from a chat or back in it: the store's. */
function handleMembership({ bot, store, logger, now, onPausesChanged }: TelegramHandlerDeps): void {
  bot.on('message:migrate_to_chat_id', async (ctx) => {
    const from = String(ctx.message.chat.id);
    const to = String(ctx.message.migrate_to_chat_id);
    await store.chats.migrate('telegram', from, to);
    logger.info({ from, to }, 'Telegram group became a supergroup: its follows moved');
  });
  bot.on('my_chat_member', async (ctx) => {
    const chat = { platform: 'telegram' as const, chatId: String(ctx.myChatMember.chat.id) };
    const status = ctx.myChatMember.new_chat_member.status;
    if (status === 'kicked' || status === 'left') {
      await store.chats.pause(chat, status === 'kicked' ? 'bot removed or blocked' : 'bot left the chat', now());
      logger.info({ chat: chat.chatId, status }, 'Telegram chat paused: the bot was removed');
      onPausesChanged?.();
    } else if ((await store.chats.pausedReason(chat)) !== null) {
      await store.chats.resume(chat);
      logger.info({ chat: chat.chatId, status }, 'Telegram chat resumed: the bot is back');
      onPausesChanged?.();
    }
  });
}

/** `/name@bot args` as the command to run and its arguments, or null for a command meant for another bot. */
function commandOf(
  byName: ReadonlyMap<string, string>,
  username: string,
  message: Message,
  text: string,
): { name: string; args: string } | null {
  const head = text.split(/\s/, 1)[0] ?? '';
  const rest = text.slice(head.length).trim();
  const addressed = /@(\w+)$/.exec(head)?.[1];
  if (addressed !== undefined && addressed.toLowerCase() !== username.toLowerCase()) return null;
  const typed = head.replace(/^\//, '').replace(/@\w+$/, '').toLowerCase();
  // /start opens every private chat; with a deep-link address (t.me/bot?start=ADDR) it is /token.
  if (typed === 'start') {
    const address = detectAddress(rest);
    return address !== null && byName.has('token') ? { name: 'token', args: address.address } : { name: 'help', args: '' };
  }
  const name = byName.get(typed);
  // In a group, an unknown bare command is another bot's: answering it would be noise.
  if (name === undefined && message.chat.type !== 'private' && addressed === undefined) return null;
  return { name: name ?? typed, args: rest };
}

/** An answer sent to the message it answers; one that cannot be sent is a log line. */
async function answerWith({ bot, logger }: TelegramHandlerDeps, reply: ChatReply, target: SendTarget): Promise<void> {
  try {
    await sendRendered(bot.api, target, renderCardMessages(reply.card, reply.buttons));
  } catch (error) {
    logger.warn(
      { chat: String(target.chatId), reason: classifyTelegramError(error).reason, errorId: reply.errorId },
      'Telegram reply not sent',
    );
  }
}

/** A button press, in its chat's turn: the action's answer, a Refresh's edit, or a refusal shown to the presser. */
async function pressAnswer(
  deps: TelegramHandlerDeps,
  message: Message,
  queryId: string,
  reply: ChatReply & { refresh: boolean },
  target: SendTarget,
): Promise<void> {
  const { bot, logger } = deps;
  if (reply.ephemeral) {
    // Refusals and expired buttons are shown to the presser alone, as an alert.
    await bot.api.answerCallbackQuery(queryId, { text: noticeText(reply), show_alert: true });
    return;
  }
  await bot.api.answerCallbackQuery(queryId);
  const messages = renderCardMessages(reply.card, reply.buttons);
  const [only] = messages;
  if (reply.refresh && messages.length === 1 && only?.kind === 'text' && message.text !== undefined) {
    try {
      await bot.api.editMessageText(message.chat.id, message.message_id, only.html, {
        parse_mode: 'HTML',
        ...(only.keyboard === null ? {} : { reply_markup: only.keyboard }),
        link_preview_options: only.previewUrl === null ? { is_disabled: true } : { url: only.previewUrl, prefer_small_media: true },
      });
      return;
    } catch (error) {
      // Nothing changed since the card was shown: Telegram refuses the edit, and the card is right as it is.
      if (/message is not modified/i.test(classifyTelegramError(error).reason)) return;
      logger.debug({ reason: classifyTelegramError(error).reason }, 'refresh could not edit; sending anew');
    }
  }
  await answerWith(deps, reply, target);
}

/** The commands, presses and pastes of a chat, each answered through the inbox. */
function telegramReplies(deps: TelegramHandlerDeps) {
  const { inbox, store, admins, username } = deps;
  // Telegram's menu names (underscores) and our own (dashes) both lead to the command.
  const byName = new Map(
    inbox.dispatcher.commands.flatMap((command) => [
      [telegramCommandName(command.name), command.name] as const,
      [command.name, command.name] as const,
    ]),
  );

  const callerOf = (message: Message, userId: number): CommandCaller => ({
    chat: chatRefOf(message),
    // Every anonymous administrator of every group is the one GroupAnonymousBot: one is known by
    // the group it speaks for, so its calls, forget-me and cooldowns stay that group's.
    userId: isAnonymousAdmin(message) ? `group:${message.chat.id}` : String(userId),
    isManager: () =>
      admins.isManager({ chatId: message.chat.id, chatType: message.chat.type, userId, senderChatId: message.sender_chat?.id ?? null }),
  });

  const answer = (reply: ChatReply, target: SendTarget) => answerWith(deps, reply, target);

  const detectionOn = async (chat: ChatRef, chatType: string): Promise<boolean> => {
    if (!byName.has('token')) return false;
    const setting = (await store.chats.settings(chat)).detectAddresses;
    // On by default in private chats, off in groups until an administrator switches it on.
    return setting ?? chatType === 'private';
  };

  return {
    async pressed(ctx: Context & { callbackQuery: { data: string } }): Promise<void> {
      const query = ctx.callbackQuery;
      const pressed = query.message;
      if (pressed === undefined || !('chat' in pressed) || pressed.date === 0) {
        await ctx.answerCallbackQuery({ text: 'This button can no longer be used. Run the command again.', show_alert: true });
        return;
      }
      const message = pressed as Message;
      const caller = callerOf(message, query.from.id);
      const target = targetOf(caller, message, null);
      if (inbox.press(caller, query.data, (reply) => pressAnswer(deps, message, query.id, reply, target)).taken) return;
      // Telegram shows the presser a spinner until the press is answered: a skipped one is told so, to the presser alone.
      await ctx.answerCallbackQuery({ text: SKIPPED_NOTICE });
    },

    async message(message: Message): Promise<void> {
      const from = message.from;
      if (from === undefined || (from.is_bot && !isAnonymousAdmin(message))) return;
      const text = message.text ?? message.caption ?? '';
      // A post names its author and itself: a token's first post may be recorded as that person's call.
      const caller: CommandCaller = {
        ...callerOf(message, from.id),
        userName: displayNameOf(message),
        messageId: String(message.message_id),
      };
      const target = targetOf(caller, message, message.message_id);
      if (text.startsWith('/')) {
        const command = commandOf(byName, username, message, text);
        if (command !== null) inbox.command(caller, command.name, { kind: 'text', text: command.args }, (reply) => answer(reply, target));
        return;
      }
      if (!(await detectionOn(caller.chat, message.chat.type))) return;
      const links = linksOf(message.entities ?? message.caption_entities);
      inbox.paste(caller, text, { links, private: message.chat.type === 'private' }, (reply) => answer(reply, target));
    },
  };
}
