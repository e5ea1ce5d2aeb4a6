/**
 * The answers to interactions skipped past their channel's cap ("Too many commands at once…"),
 * sent a few at a time. A flood skips thousands of interactions within a second; answered all
 * together, they would crowd the bot's connections to Discord ahead of the answers other channels
 * are waiting for. So they wait their turn here, behind nothing else, and an answer whose turn comes
 * too late for Discord to accept it (its three seconds are up) is not sent: the person sees
 * Discord's own "The application did not respond", as they would have anyway.
 */

export interface SkippedRepliesOptions {
  /** Answers under way at once. */
  atOnce: number;
  /** An answer not started within this long after its interaction arrived is not sent. */
  giveUpAfterMs: number;
  now?: () => number;
}

/** 16 at once: about 200 answers a second at Discord's usual round trip, none of them in another channel's way. */
export const DEFAULT_SKIPPED_REPLIES: SkippedRepliesOptions = { atOnce: 16, giveUpAfterMs: 2_500 };

interface Waiting {
  send: () => Promise<void>;
  arrivedAt: number;
  done: () => void;
}

export class SkippedReplies {
  private readonly waiting: Waiting[] = [];
  private head = 0;
  private active = 0;
  private readonly now: () => number;
  /** Answers not sent because their turn came too late. */
  givenUp = 0;

  constructor(private readonly options: SkippedRepliesOptions = DEFAULT_SKIPPED_REPLIES) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Sends the answer of an interaction that arrived at `arrivedAt` when its turn comes. Resolves
   * once it is sent or given up; rejects only with the send's own failure.
   */
  add(send: () => Promise<void>, arrivedAt: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ send: () => send().then(resolve, reject), arrivedAt, done: resolve });
      this.next();
    });
  }

  private next(): void {
    while (this.active < this.options.atOnce && this.head < this.waiting.length) {
      const entry = this.waiting[this.head];
      this.head += 1;
      if (entry === undefined) continue;
      if (this.now() - entry.arrivedAt > this.options.giveUpAfterMs) {
        this.givenUp += 1;
        entry.done();
        continue;
      }
      this.active += 1;
      void entry.send().finally(() => {
        this.active -= 1;
        this.next();
      });
    }
    // The list is a queue read from `head`: what was read goes once it is all read, or once it is
    // most of a long list, so a flood that never pauses keeps it short.
    if (this.head === this.waiting.length) {
      this.waiting.length = 0;
      this.head = 0;
    } else if (this.head >= 1_024 && this.head * 2 >= this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
  }
}
