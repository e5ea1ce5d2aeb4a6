/**
 * Discord's pace for messages in one channel: at most 5 in any 5 seconds. discord.js's REST queue
 * also obeys the rate-limit headers and waits out a 429, but a 429 still counts toward the
 * invalid-request budget (10,000 401/403/429 answers in 10 minutes bans the bot for a while), so
 * alerts wait here first and never ask for a 429.
 */
export interface PacerClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const REAL_CLOCK: PacerClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export class ChannelPacer {
  /** Send times within the window, oldest first, per channel. */
  private readonly sent = new Map<string, number[]>();

  constructor(
    private readonly limit = 5,
    private readonly windowMs = 5000,
    private readonly clock: PacerClock = REAL_CLOCK,
  ) {}

  /** How long a send to `channel` must wait now (0: go). */
  delayFor(channel: string): number {
    const now = this.clock.now();
    const times = (this.sent.get(channel) ?? []).filter((t) => t > now - this.windowMs);
    if (times.length === 0) this.sent.delete(channel);
    else this.sent.set(channel, times);
    if (times.length < this.limit) return 0;
    return (times[times.length - this.limit] ?? now) + this.windowMs - now;
  }

  /** Waits for a slot in `channel`'s window and takes it. */
  async take(channel: string): Promise<void> {
    for (let wait = this.delayFor(channel); wait > 0; wait = this.delayFor(channel)) await this.clock.sleep(wait);
    const times = this.sent.get(channel) ?? [];
    times.push(this.clock.now());
    this.sent.set(channel, times);
  }

  /** Channels with sends inside the window (bounded by the channels alerted in 5 s). */
  get size(): number {
    return this.sent.size;
  }
}
