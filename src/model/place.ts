/**
 * Where the bot's shared budgets are counted: a whole chat, every forum topic of a Telegram group
 * together (a topic is a corner of one group, not a group of its own), or on Discord the server a
 * channel belongs to, every channel of it together (a server's managers could otherwise open
 * channels to multiply their share).
 */
import type { ChatRef, Platform } from './chat';

export type SharePlace = { platform: Platform; chatId: string } | { platform: Platform; scopeId: string };

/** The whole chat a message came from, topics together. */
export function wholeChat(chat: ChatRef): SharePlace {
  return { platform: chat.platform, chatId: chat.chatId };
}

/** The place whose share a chat spends: its Discord server when it has one, else the whole chat. */
export function sharePlaceOf(chat: ChatRef): SharePlace {
  return chat.scopeId === null ? wholeChat(chat) : { platform: chat.platform, scopeId: chat.scopeId };
}

/** One key per place, for maps and logs. */
export function sharePlaceKey(place: SharePlace): string {
  return 'scopeId' in place ? `${place.platform}:server:${place.scopeId}` : `${place.platform}:chat:${place.chatId}`;
}
