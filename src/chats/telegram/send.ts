/**
 * Sends a rendered card (html.ts) to a chat through grammY, in order: the first message replies to
 * the user's message when there is one, every message goes to the forum topic when there is one.
 * When Telegram refuses a message itself (markup, length, buttons) it is sent once more as plain
 * text without buttons; when the topic is gone, once more to the chat itself. Any other failure is
 * thrown to the caller, who decides (failures.ts).
 */
import { InputFile, type Api } from 'grammy';
import type { Message } from 'grammy/types';
import { classifyTelegramError } from './failures';
import { htmlToPlainText, type TelegramMessage } from './html';

export interface SendTarget {
  chatId: number | string;
  threadId: number | null;
  /** The user's message this answers. */
  replyTo: number | null;
}

function sendOne(api: Api, target: SendTarget, message: TelegramMessage, reply: boolean, plain: boolean): Promise<Message> {
  const common = {
    ...(target.threadId === null ? {} : { message_thread_id: target.threadId }),
    ...(reply && target.replyTo !== null ? { reply_parameters: { message_id: target.replyTo, allow_sending_without_reply: true } } : {}),
    ...(!plain && message.keyboard !== null ? { reply_markup: message.keyboard } : {}),
  };
  if (message.kind === 'photo') {
    const caption = plain ? { caption: htmlToPlainText(message.caption) } : { caption: message.caption, parse_mode: 'HTML' as const };
    // A file that is no picture (a CSV export) goes as a document.
    if (!message.image.contentType.startsWith('image/'))
      return api.sendDocument(target.chatId, new InputFile(message.image.data, message.image.filename), { ...common, ...caption });
    return api.sendPhoto(target.chatId, new InputFile(message.image.data, message.image.filename), { ...common, ...caption });
  }
  return api.sendMessage(target.chatId, plain ? htmlToPlainText(message.html) : message.html, {
    ...common,
    ...(plain ? {} : { parse_mode: 'HTML' as const }),
    // Only the card's own logo is previewed; a stranger's link in the text never is.
    link_preview_options:
      message.previewUrl === null || plain ? { is_disabled: true } : { url: message.previewUrl, prefer_small_media: true },
  });
}

async function sendWithFallbacks(api: Api, target: SendTarget, message: TelegramMessage, reply: boolean): Promise<Message> {
  try {
    return await sendOne(api, target, message, reply, false);
  } catch (error) {
    const failure = classifyTelegramError(error);
    if (failure.kind === 'bad-message') return sendOne(api, target, message, reply, true);
    if (failure.kind === 'thread-gone' && target.threadId !== null)
      return sendOne(api, { ...target, threadId: null }, message, reply, false);
    throw error;
  }
}

/** Sends every message of a card; returns what Telegram made of them. */
export async function sendRendered(api: Api, target: SendTarget, messages: readonly TelegramMessage[]): Promise<Message[]> {
  const sent: Message[] = [];
  for (const [index, message] of messages.entries()) sent.push(await sendWithFallbacks(api, target, message, index === 0));
  return sent;
}
