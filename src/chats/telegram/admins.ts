/**
 * Who manages a Telegram chat: in a private chat, the person in it; in a group, its administrators
 * and creator, asked of Telegram with getChatMember and remembered briefly (a minute by default),
 * so a burst of commands costs one request while a demotion takes effect soon. A message sent "as
 * the group" by an anonymous administrator carries the group itself as its sender: that is an
 * administrator by definition.
 */
import type { Api } from 'grammy';

export const DEFAULT_ADMIN_CACHE_MS = 60_000;
/** Bounds the memory a very busy bot spends on remembered answers. */
const MAX_ENTRIES = 10_000;

export interface ManagerQuestion {
  chatId: number;
  chatType: string;
  userId: number;
  /** The message's sender_chat id, when it was sent on behalf of a chat. */
  senderChatId: number | null;
}

export class AdminCache {
  private readonly answers = new Map<string, { manager: boolean; until: number }>();

  constructor(
    private readonly api: Api,
    private readonly ttlMs = DEFAULT_ADMIN_CACHE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  async isManager(question: ManagerQuestion): Promise<boolean> {
    if (question.chatType === 'private') return true;
    if (question.senderChatId !== null && question.senderChatId === question.chatId) return true;
    const key = `${question.chatId}:${question.userId}`;
    const cached = this.answers.get(key);
    if (cached !== undefined && cached.until > this.now()) return cached.manager;
    const member = await this.api.getChatMember(question.chatId, question.userId);
    const manager = member.status === 'administrator' || member.status === 'creator';
    if (this.answers.size >= MAX_ENTRIES) this.answers.clear();
    this.answers.set(key, { manager, until: this.now() + this.ttlMs });
    return manager;
  }
}
