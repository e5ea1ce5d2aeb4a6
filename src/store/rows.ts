/**
 * How a chat is spread over columns, shared by every table that names one. A missing thread is
 * kept as '' so that the UNIQUE indexes treat "no thread" as one value.
 */
import { isPlatform, type ChatRef, type Platform } from '../model/chat';

export interface ChatColumns {
  platform: string;
  chat_id: string;
  thread_id: string;
  scope_id: string | null;
}

export function threadColumn(threadId: string | null): string {
  return threadId ?? '';
}

function platformOf(text: string): Platform {
  // Rows are only ever written from a Platform; anything else means the file was edited by hand.
  if (!isPlatform(text)) throw new Error(`Unknown platform in the database: ${text.slice(0, 40)}`);
  return text;
}

/**
 * Chats are interned: 100,000 follows over a few thousand chats share a few thousand frozen
 * ChatRef objects instead of holding one each.
 */
export class ChatInterner {
  private readonly chats = new Map<string, ChatRef>();

  chat(row: ChatColumns): ChatRef {
    const id = `${row.platform}\u0000${row.chat_id}\u0000${row.thread_id}\u0000${row.scope_id ?? ''}`;
    let chat = this.chats.get(id);
    if (chat === undefined) {
      chat = Object.freeze({
        platform: platformOf(row.platform),
        chatId: row.chat_id,
        threadId: row.thread_id === '' ? null : row.thread_id,
        scopeId: row.scope_id,
      });
      // A bound, not an LRU: the map is a saving, never a requirement.
      if (this.chats.size >= 50_000) this.chats.clear();
      this.chats.set(id, chat);
    }
    return chat;
  }
}
