/**
 * Keeps a burst of pasted addresses from flooding a chat: the same person gets one card per
 * cooldown, a chat at most `perChatPerMinute` cards a minute, and the same address pasted again
 * in a chat within `repeatMs` (several people pasting one launch) gets no second card. The limiter
 * says how long until a paste may be answered; the chat decides what to do with that: a group is
 * not told (an answer would be the very flood being avoided), a private chat is, since the person
 * there is the only one reading and silence would look like a dead bot.
 * Commands are not limited here; the dispatcher's cooldowns cover them.
 */
export interface PasteLimitOptions {
  perUserCooldownMs: number;
  perChatPerMinute: number;
  repeatMs: number;
}

export const DEFAULT_PASTE_LIMITS: PasteLimitOptions = { perUserCooldownMs: 10_000, perChatPerMinute: 6, repeatMs: 60_000 };

/** Bounds memory: state older than a minute is useless and is swept when this many keys are held. */
const SWEEP_AT = 5_000;

export class PasteLimiter {
  private readonly users = new Map<string, number>();
  private readonly chats = new Map<string, number[]>();
  private readonly addresses = new Map<string, number>();

  constructor(private readonly options: PasteLimitOptions = DEFAULT_PASTE_LIMITS) {}

  /** 0 when a card may answer this paste now (and counts it); else the milliseconds until one may. */
  take(chatKey: string, userId: string, address: string, now: number): number {
    const userKey = `${chatKey}|${userId}`;
    const addressKey = `${chatKey}|${address}`;
    const recent = (this.chats.get(chatKey) ?? []).filter((at) => now - at < 60_000);
    this.chats.set(chatKey, recent);
    const userLast = this.users.get(userKey);
    const addressLast = this.addresses.get(addressKey);
    const wait = Math.max(
      userLast === undefined ? 0 : userLast + this.options.perUserCooldownMs - now,
      addressLast === undefined ? 0 : addressLast + this.options.repeatMs - now,
      // Times are in order: the chat is under its cap again once enough of the oldest are a minute old.
      recent.length < this.options.perChatPerMinute ? 0 : (recent[recent.length - this.options.perChatPerMinute] ?? now) + 60_000 - now,
    );
    if (wait > 0) return wait;
    recent.push(now);
    this.users.set(userKey, now);
    this.addresses.set(addressKey, now);
    if (this.users.size + this.addresses.size + this.chats.size > SWEEP_AT) this.sweep(now);
    return 0;
  }

  private sweep(now: number): void {
    const horizon = Math.max(this.options.perUserCooldownMs, this.options.repeatMs, 60_000);
    for (const map of [this.users, this.addresses]) for (const [key, at] of map) if (now - at >= horizon) map.delete(key);
    for (const [key, times] of this.chats) if (times.every((at) => now - at >= 60_000)) this.chats.delete(key);
  }
}
