/**
 * What each chat asked of the bot, waiting its turn: one lane per chat, whose jobs run one at a
 * time in the order they came, every lane independently of the others. A job is the whole of
 * answering one input (running the command and sending its answer at the chat's pace), so a chat
 * waiting for its own pace holds up no other chat: there is no shared slot to hold.
 *
 * A lane is bounded: with `maxWaiting` jobs waiting besides the one running, what the chat sends
 * next is dropped, not queued, so a burst of thousands of messages costs a few dozen answers and
 * flat memory. The first drop, and then at most one drop per `noticeEveryMs`, asks the caller to
 * tell the chat (SKIPPED_NOTICE): an answer to every dropped input would be the very flood being
 * held back.
 *
 * Platform-neutral: Telegram and Discord hand their updates to it, keyed by `chatKey`.
 */

/** What a chat is told, at most once a minute, when some of what it sent was dropped. */
export const SKIPPED_NOTICE = 'Too many commands at once; some were skipped.';

export interface ChatQueueOptions {
  /** Jobs that may wait for one chat besides the one it is running; past it, input is dropped. */
  maxWaiting: number;
  /** Shortest time between two notices to one chat that input was dropped. */
  noticeEveryMs: number;
  /** Epoch ms, for the notices' spacing. */
  now?: () => number;
}

export const DEFAULT_CHAT_QUEUE: ChatQueueOptions = { maxWaiting: 20, noticeEveryMs: 60_000 };

/** An offered job: taken (its result, or its failure, comes through `done`), or dropped. */
export type Offer<T> = { accepted: true; done: Promise<T> } | { accepted: false; notice: boolean };

/** The `done` of a job that was still waiting when the queue stopped. */
export class ChatQueueStoppedError extends Error {
  constructor() {
    super('the bot is stopping: this waiting command was not run');
    this.name = 'ChatQueueStoppedError';
  }
}

export interface ChatQueueCounts {
  /** Jobs taken into a lane. */
  accepted: number;
  /** Input dropped because its chat's lane was full. */
  dropped: number;
  /** Drops that asked for a notice (at most one per chat per `noticeEveryMs`). */
  notices: number;
  /** Jobs still waiting when the queue stopped, never run. */
  droppedAtStop: number;
}

interface Job {
  /** Runs the job and settles its `done`; never rejects. */
  run(): Promise<void>;
  /** Rejects its `done` without running it. */
  cancel(): void;
}

interface Lane {
  waiting: Job[];
}

/** Past this many chats remembered as noticed, those noticed longer ago than the spacing are forgotten. */
const SWEEP_NOTICES_AT = 1_000;

export class ChatQueue {
  private readonly lanes = new Map<string, Lane>();
  private readonly noticedAt = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private readonly options: Required<ChatQueueOptions>;
  private stopped = false;
  private readonly tally: ChatQueueCounts = { accepted: 0, dropped: 0, notices: 0, droppedAtStop: 0 };

  constructor(options: ChatQueueOptions = DEFAULT_CHAT_QUEUE) {
    this.options = { now: Date.now, ...options };
  }

  /**
   * Takes `job` into `chat`'s lane and starts it at once when the lane is idle; drops it when the
   * lane is full or the queue has stopped. A dropped offer's `notice` says whether to tell the
   * chat now.
   */
  offer<T>(chat: string, job: () => Promise<T>): Offer<T> {
    if (this.stopped) return { accepted: false, notice: false };
    const lane = this.lanes.get(chat);
    if (lane !== undefined && lane.waiting.length >= this.options.maxWaiting) {
      this.tally.dropped += 1;
      return { accepted: false, notice: this.noticeDue(chat) };
    }
    let settle!: { resolve: (value: T) => void; reject: (reason: unknown) => void };
    const done = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
    const entry: Job = {
      run: async () => {
        try {
          settle.resolve(await job());
        } catch (error) {
          settle.reject(error);
        }
      },
      cancel: () => settle.reject(new ChatQueueStoppedError()),
    };
    this.tally.accepted += 1;
    if (lane === undefined) {
      // An idle chat: no lane yet, the job runs now and the lane holds what comes while it does.
      const fresh: Lane = { waiting: [] };
      this.lanes.set(chat, fresh);
      this.start(chat, fresh, entry);
    } else {
      lane.waiting.push(entry);
    }
    return { accepted: true, done };
  }

  /** Jobs of `chat` not yet finished: the running one and those waiting. */
  pending(chat: string): number {
    const lane = this.lanes.get(chat);
    return lane === undefined ? 0 : 1 + lane.waiting.length;
  }

  counts(): ChatQueueCounts {
    return { ...this.tally };
  }

  /**
   * Takes nothing more, drops the jobs still waiting (their `done` rejects with
   * ChatQueueStoppedError) and resolves when the running ones have finished. Returns how many
   * were dropped.
   */
  async stop(): Promise<number> {
    this.stopped = true;
    let cancelled = 0;
    for (const lane of this.lanes.values()) {
      for (const job of lane.waiting.splice(0)) {
        job.cancel();
        cancelled += 1;
      }
    }
    this.tally.droppedAtStop += cancelled;
    await Promise.all([...this.running]);
    return cancelled;
  }

  private start(chat: string, lane: Lane, job: Job): void {
    const running: Promise<void> = job.run().then(() => {
      this.running.delete(running);
      const next = lane.waiting.shift();
      if (next === undefined) this.lanes.delete(chat);
      else this.start(chat, lane, next);
    });
    this.running.add(running);
  }

  private noticeDue(chat: string): boolean {
    const now = this.options.now();
    const last = this.noticedAt.get(chat);
    if (last !== undefined && now - last < this.options.noticeEveryMs) return false;
    if (this.noticedAt.size >= SWEEP_NOTICES_AT) {
      for (const [key, at] of this.noticedAt) if (now - at >= this.options.noticeEveryMs) this.noticedAt.delete(key);
    }
    this.noticedAt.set(chat, now);
    this.tally.notices += 1;
    return true;
  }
}
