/**
 * What every chat shares, whatever its platform: where a message goes, and the buttons that go with
 * a card. A leaf module: the pipeline, the store, delivery and each platform import it.
 */

/** The platforms the bot comes with: the console, and the two in src/chats/platforms.ts's table. */
export const BUILT_IN_PLATFORMS = ['console', 'discord', 'telegram'] as const;

/** A platform's name: a built-in one, or one a ChatPlatform entry registered (`addPlatform`). */
export type Platform = (typeof BUILT_IN_PLATFORMS)[number] | (string & { readonly registeredPlatform?: never });

/** Every platform known in this process: the store reads back only rows of these. */
const known = new Set<string>(BUILT_IN_PLATFORMS);

export function isPlatform(text: string): text is Platform {
  return known.has(text);
}

/**
 * Makes a registered platform's name known (src/chats/platforms.ts), for good: the rows written
 * under it stay readable after the entry is taken out again.
 */
export function addPlatform(name: string): Platform {
  known.add(name);
  return name;
}

/**
 * A place the bot writes to. `chatId` is the Discord channel id, the Telegram chat id, or
 * `console`; `threadId` a Telegram forum topic (Discord threads are channels of their own).
 * `scopeId` is the Discord server a channel belongs to, so that one server's follows cannot be
 * seen or changed from another; null elsewhere.
 */
export interface ChatRef {
  platform: Platform;
  chatId: string;
  threadId: string | null;
  scopeId: string | null;
}

/** A card action as a platform shows it: the label, and the short key the pipeline resolves. */
export interface ActionButton {
  label: string;
  /** At most 20 bytes of [A-Za-z0-9_-]: fits Telegram's callback_data (64 bytes) and Discord's custom_id (100). */
  key: string;
}

/** One key per chat (thread included), for maps and logs. */
export function chatKey(chat: ChatRef): string {
  return `${chat.platform}:${chat.chatId}${chat.threadId === null ? '' : `:${chat.threadId}`}`;
}
