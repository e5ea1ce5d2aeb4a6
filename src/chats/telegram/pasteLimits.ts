/**
 * Keeps a burst of pasted addresses from flooding a group: the same person gets one card per
 * cooldown, a chat at most `perChatPerMinute` cards a minute, and the same address pasted again
 * in a chat within `repeatMs` (several people pasting one launch) gets no second card. A paste
 * past a limit is ignored without a word: an answer would be the very flood being avoided.
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

  /** True when a card may answer this paste now (and counts it); false to stay silent. */
  allow(chatKey: string, userId: string, address: string, now: number): boolean {
    const userKey = `${chatKey}|${userId}`;
    const addressKey = `${chatKey}|${address}`;
    const userLast = this.users.get(userKey);
    if (userLast !== undefined && now - userLast < this.options.perUserCooldownMs) return false;
    const addressLast = this.addresses.get(addressKey);
    if (addressLast !== undefined && now - addressLast < this.options.repeatMs) return false;
    const recent = (this.chats.get(chatKey) ?? []).filter((at) => now - at < 60_000);
    if (recent.length >= this.options.perChatPerMinute) {
      this.chats.set(chatKey, recent);
      return false;
    }
    recent.push(now);
    this.chats.set(chatKey, recent);
    this.users.set(userKey, now);
    this.addresses.set(addressKey, now);
    if (this.users.size + this.addresses.size + this.chats.size > SWEEP_AT) this.sweep(now);
    return true;
  }

  private sweep(now: number): void {
    const horizon = Math.max(this.options.perUserCooldownMs, this.options.repeatMs, 60_000);
    for (const map of [this.users, this.addresses]) for (const [key, at] of map) if (now - at >= horizon) map.delete(key);
    for (const [key, times] of this.chats) if (times.every((at) => now - at >= 60_000)) this.chats.delete(key);
  }
}
