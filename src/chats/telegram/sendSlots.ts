/**
 * Telegram's sending limits kept at the moment each message leaves: at most one message every
 * `overallMinMs` over every chat, one every `perChatMinMs` in a chat, and `perGroup` in a group per
 * `groupWindowMs`.
 *
 * Each send reserves, when it is asked for, the earliest time that keeps all three, and waits for
 * it. A chained pair of limiters (a chat's limiter, then the bot's) does not keep the chat's gap:
 * it spaces a chat's messages when they leave the chat's queue, and a message may then wait in the
 * bot's queue for a few hundred milliseconds or none, so two messages to one chat can leave well
 * under a second apart, which Telegram answers with 429. Here the chat's gap is measured between
 * the times the messages actually leave.
 *
 * Reservations to one chat are in the order asked, so a chat's messages keep their order; the bot's
 * slots are filled earliest first, so a chat waiting for its own gap does not hold back the others.
 */
/** Telegram's limits as the bot keeps them, each with a small margin (api.ts says why these figures). */
export interface TelegramPace {
  /** Smallest gap between two messages, all chats together (ms). */
  overallMinMs: number;
  /** Smallest gap between two messages to one chat (ms). */
  perChatMinMs: number;
  /** Messages to one group per `groupWindowMs`. */
  perGroup: number;
  groupWindowMs: number;
}

export const DEFAULT_PACE: TelegramPace = { overallMinMs: 34, perChatMinMs: 1_020, perGroup: 20, groupWindowMs: 60_500 };

/** Reservations between two sweeps of what is past: chats whose next slot has come, groups whose window is over. */
const PRUNE_EVERY = 1_000;

export class SendSlots {
  /** Reserved sending times, every chat together, ascending; only those that can still constrain a new one. */
  private readonly reserved: number[] = [];
  private readonly chatNext = new Map<string, number>();
  /** Per group, its last `perGroup` sending times, ascending. */
  private readonly groupSends = new Map<string, number[]>();
  private calls = 0;

  constructor(
    private readonly pace: TelegramPace,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reserves the earliest time (epoch ms, not before now) at which a message to `chatId` keeps every limit. */
  reserve(chatId: string): number {
    const now = this.now();
    const gap = this.pace.overallMinMs;
    while (this.reserved.length > 0 && (this.reserved[0] ?? 0) <= now - gap) this.reserved.shift();
    let at = Math.max(now, this.chatNext.get(chatId) ?? 0);
    const group = chatId.startsWith('-');
    const sends = group ? (this.groupSends.get(chatId) ?? []) : [];
    if (group && sends.length >= this.pace.perGroup)
      at = Math.max(at, (sends[sends.length - this.pace.perGroup] ?? 0) + this.pace.groupWindowMs);
    // The first time at or after `at` at least `gap` from every reserved slot.
    let index = 0;
    for (; index < this.reserved.length; index += 1) {
      const slot = this.reserved[index] ?? 0;
      if (slot + gap <= at) continue;
      if (slot - gap >= at) break;
      at = slot + gap;
    }
    this.reserved.splice(index, 0, at);
    this.chatNext.set(chatId, at + this.pace.perChatMinMs);
    if (group) {
      sends.push(at);
      if (sends.length > this.pace.perGroup) sends.shift();
      this.groupSends.set(chatId, sends);
    }
    this.calls += 1;
    if (this.calls % PRUNE_EVERY === 0) this.prune(now);
    return at;
  }

  /** Chats whose next slot is past and groups whose window is over hold nothing worth keeping. */
  private prune(now: number): void {
    for (const [chat, next] of this.chatNext) if (next <= now) this.chatNext.delete(chat);
    for (const [chat, sends] of this.groupSends) if ((sends.at(-1) ?? 0) + this.pace.groupWindowMs <= now) this.groupSends.delete(chat);
  }
}
