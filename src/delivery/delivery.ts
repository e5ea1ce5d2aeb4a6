/**
 * Delivery: one outbox drain per platform, woken at once when the watcher commits new alerts
 * (`notify`), and by a slow poll as a safety net (a notify lost, a retry coming due, rows left by
 * a previous run). Alert cards are built once per event and shared by every platform.
 */
import type { Card } from '../cards/card';
import type { ChatRef, Platform } from '../model/chat';
import type { Logger } from '../log';
import type { Store } from '../store/store';
import { isStoreUnavailable } from '../store/storeUnavailable';
import { DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
import { AlertCardCache, type AlertCardBuilder } from './cardCache';
import { DIGEST_THRESHOLD } from './digest';
import { OutboxDrain, type ButtonsFor, type DrainCounters, type DrainDeps } from './outboxDrain';
import type { AlertSender } from './sender';

export interface DeliveryOptions {
  store: Store;
  senders: readonly AlertSender[];
  /** The pipeline's button issuer: a card's actions as short keys valid in one chat. */
  buttonsFor: ButtonsFor;
  alertCard: AlertCardBuilder;
  logger: Logger;
  now?: () => Date;
  /** The safety-net poll, in ms (default 5 s). */
  pollMs?: number;
  batchSize?: number;
  /** Chats sent to at once, for every platform; unset, each sender's own (`AlertSender.concurrency`), else 8. */
  concurrency?: number;
  digestThreshold?: number;
  backoff?: BackoffPolicy;
  onPaused?: (chat: ChatRef, reason: string) => void;
  /** Called after a platform accepted a message, with the rows it carried (the alert delivery time is read from them). */
  onDelivered?: DrainDeps['onDelivered'];
  /** Delivered rows older than this are forgotten (default 7 days); checked at start and every 6 hours. */
  keepDeliveredMs?: number;
  /** Whether this process sends a platform's alerts now (several processes: its lease); absent, always. */
  active?: (platform: Platform) => boolean;
}

const DEFAULT_CONCURRENCY = 8;
const PRUNE_EVERY_MS = 6 * 3_600_000;
const KEEP_DELIVERED_MS = 7 * 24 * 3_600_000;

export interface Delivery {
  /** Starts the poll and drains what an earlier run left. */
  start(): void;
  /** New rows were committed: drain now. */
  notify(): void;
  /**
   * This process took `platform`'s sender lease (several processes): `take` gives back the rows
   * another sender had claimed and returns their ids. Run between two of the platform's rounds, and
   * a round follows; those rows go out again as the messages the other sender made of them, since it
   * may have handed some to the platform and died before marking them. Resolves with their number.
   */
  takeOver(platform: Platform, take: () => Promise<readonly number[]>): Promise<number>;
  /** Drains every platform until nothing more is due now (tests and shutdown use it). */
  drain(): Promise<void>;
  /** Stops polling; sends under way finish and are recorded before it resolves. */
  stop(): Promise<void>;
  counters(platform: Platform): DrainCounters | null;
  /** Alert cards built so far (one per event and label). */
  readonly cardsBuilt: number;
}

class PlatformLoop {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    readonly drain: OutboxDrain,
    private readonly pollMs: number,
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {}

  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running !== null) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async loop(): Promise<void> {
    let nextRetryAt: number | null = null;
    for (;;) {
      this.again = false;
      try {
        const round = await this.drain.round();
        if (round.nextRetryAt !== null) nextRetryAt = nextRetryAt === null ? round.nextRetryAt : Math.min(nextRetryAt, round.nextRetryAt);
        if (this.stopped || (!round.more && !this.again)) break;
      } catch (error) {
        // The store closed under us or a disk error: the poll tries again later. A database away
        // for a while is the store's to log (once when it goes, once when it is back).
        if (isStoreUnavailable(error)) this.logger.debug({ platform: this.drain.platform }, 'alert delivery waits for the database');
        else this.logger.error({ err: error, platform: this.drain.platform }, 'alert delivery round failed');
        break;
      }
    }
    this.schedule(nextRetryAt);
  }

  private schedule(nextRetryAt: number | null): void {
    if (this.stopped) return;
    if (this.timer !== null) clearTimeout(this.timer);
    const untilRetry = nextRetryAt === null ? this.pollMs : Math.max(0, nextRetryAt - this.now().getTime()) + 5;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        void this.kick();
      },
      Math.min(this.pollMs, untilRetry),
    );
    // The poll never keeps the process alive by itself.
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.drain.stop();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}

export function createDelivery(options: DeliveryOptions): Delivery {
  const now = options.now ?? (() => new Date());
  const cards = new AlertCardCache(options.alertCard);
  const settings = {
    batchSize: options.batchSize ?? 200,
    digestThreshold: options.digestThreshold ?? DIGEST_THRESHOLD,
    backoff: options.backoff ?? DEFAULT_BACKOFF,
  };
  const loops = new Map<Platform, PlatformLoop>();
  for (const sender of options.senders) {
    if (loops.has(sender.platform)) throw new Error(`two alert senders for ${sender.platform}`);
    const drain = new OutboxDrain(
      {
        store: options.store,
        sender,
        cards,
        buttonsFor: options.buttonsFor,
        logger: options.logger,
        now,
        ...(options.onPaused === undefined ? {} : { onPaused: options.onPaused }),
        ...(options.onDelivered === undefined ? {} : { onDelivered: options.onDelivered }),
        ...(options.active === undefined ? {} : { active: () => options.active?.(sender.platform) ?? true }),
      },
      { ...settings, concurrency: options.concurrency ?? sender.concurrency ?? DEFAULT_CONCURRENCY },
    );
    loops.set(sender.platform, new PlatformLoop(drain, options.pollMs ?? 5_000, options.logger, now));
  }

  // Delivered rows only guard against sending a change twice while its event could still be seen
  // again; after a week the last-seen state alone does that, and the rows would only grow the file.
  let pruneTimer: NodeJS.Timeout | null = null;
  const prune = (): void => {
    const before = new Date(now().getTime() - (options.keepDeliveredMs ?? KEEP_DELIVERED_MS));
    options.store.outbox
      .prune(before)
      .then((removed) => {
        if (removed > 0) options.logger.info({ removed }, 'delivered alerts pruned');
      })
      .catch((error: unknown) => options.logger.warn({ err: error }, 'pruning delivered alerts failed'));
  };

  return {
    start() {
      prune();
      pruneTimer = setInterval(prune, PRUNE_EVERY_MS);
      pruneTimer.unref();
      for (const loop of loops.values()) void loop.kick();
    },
    notify() {
      for (const loop of loops.values()) void loop.kick();
    },
    async takeOver(platform, take) {
      const loop = loops.get(platform);
      if (loop === undefined) return (await take()).length;
      const taken = loop.drain.takeOver(take);
      void loop.kick();
      return taken;
    },
    async drain() {
      await Promise.all([...loops.values()].map((loop) => loop.kick()));
    },
    async stop() {
      if (pruneTimer !== null) clearInterval(pruneTimer);
      await Promise.all([...loops.values()].map((loop) => loop.stop()));
    },
    counters(platform) {
      return loops.get(platform)?.drain.counters ?? null;
    },
    get cardsBuilt() {
      return cards.built;
    },
  };
}

export type { AlertCardBuilder, ButtonsFor, Card };
