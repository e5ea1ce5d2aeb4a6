/**
 * Telegram's sending limits as a fake Bot API enforces them: about 30 messages a second overall,
 * one a second in a chat, 20 a minute in a group. Telegram publishes the figures, not the
 * algorithm; each is modelled here as a token bucket (capacity = the limit, refilled evenly over
 * its window), the usual reading of "N per window": a sender that keeps under the rate is never
 * refused, one that goes faster is refused once the bucket is empty, with the wait until it
 * would be accepted.
 */

export interface PaceLimits {
  /** Messages a second, every chat together. */
  overallPerSecond: number;
  /** Messages a second in one chat. */
  perChatPerSecond: number;
  /** Messages a minute in one group (a chat id below zero). */
  perGroupPerMinute: number;
}

export const TELEGRAM_LIMITS: PaceLimits = { overallPerSecond: 30, perChatPerSecond: 1, perGroupPerMinute: 20 };

class Bucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly capacity: number,
    private readonly windowMs: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.at = now;
  }

  private refill(now: number): void {
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) * this.capacity) / this.windowMs);
    this.at = now;
  }

  /** Milliseconds until one token is there (0: now). */
  waitMs(now: number): number {
    this.refill(now);
    return this.tokens >= 1 ? 0 : ((1 - this.tokens) * this.windowMs) / this.capacity;
  }

  take(): void {
    this.tokens -= 1;
  }
}

export interface PaceDecision {
  ok: boolean;
  /** Whole seconds to wait, as Telegram's retry_after, when refused. */
  retryAfter: number;
}

export class PaceKeeper {
  private readonly overall: Bucket;
  private readonly chats = new Map<string, Bucket>();
  private readonly groups = new Map<string, Bucket>();

  constructor(
    private readonly limits: PaceLimits = TELEGRAM_LIMITS,
    now = Date.now(),
  ) {
    this.overall = new Bucket(limits.overallPerSecond, 1000, now);
  }

  private bucket(map: Map<string, Bucket>, key: string, capacity: number, windowMs: number, now: number): Bucket {
    let bucket = map.get(key);
    if (bucket === undefined) {
      bucket = new Bucket(capacity, windowMs, now);
      map.set(key, bucket);
    }
    return bucket;
  }

  /** Accepts a message to `chatId` at `now` (taking its tokens), or says how long to wait. */
  admit(chatId: string, now = Date.now()): PaceDecision {
    const buckets = [this.overall, this.bucket(this.chats, chatId, this.limits.perChatPerSecond, 1000, now)];
    if (chatId.startsWith('-')) buckets.push(this.bucket(this.groups, chatId, this.limits.perGroupPerMinute, 60_000, now));
    const wait = Math.max(...buckets.map((bucket) => bucket.waitMs(now)));
    if (wait > 0) return { ok: false, retryAfter: Math.max(1, Math.ceil(wait / 1000)) };
    for (const bucket of buckets) bucket.take();
    return { ok: true, retryAfter: 0 };
  }
}
