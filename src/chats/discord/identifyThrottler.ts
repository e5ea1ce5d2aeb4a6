/**
 * When a shard may IDENTIFY, for every process of the bot: Discord starts one session per
 * `max_concurrency` bucket (shard id % max_concurrency) every 5 seconds, counted for the bot as a
 * whole, so the wait goes through the shared coordination rather than a clock of this process.
 *
 * Within the process, the shards of one bucket wait in turn: only the first of them asks the
 * coordination at a time (PostgreSQL's holds a connection while it waits), the next once the first
 * was let through.
 *
 * When the coordination fails (the database is away), the bucket is paced in this process alone
 * rather than not at all, and the line says so: @discordjs/ws would otherwise take the failure for
 * a broken connection and start the shard over, again and again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { IIdentifyThrottler } from 'discord.js';
import type { Logger } from '../../log';
import type { GatewayCoordination } from './gatewayCoordination';

/** Discord's spacing of two IDENTIFYs of one bucket. */
export const IDENTIFY_SPACING_MS = 5_000;

/** Rejects with the signal's reason when it aborts before `promise` settles. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export class ClusterIdentifyThrottler implements IIdentifyThrottler {
  /** Each bucket's line in this process: settles when its last waiter is through (or gave up) and every one before it. */
  private readonly lines = new Map<number, Promise<void>>();
  /** When each bucket last let a shard through in this process, for the pace without the coordination. */
  private readonly lastHere = new Map<number, number>();
  private readonly maxConcurrency: number;

  constructor(
    maxConcurrency: number,
    private readonly coordination: Pick<GatewayCoordination, 'waitForIdentify'>,
    private readonly logger: Logger,
  ) {
    this.maxConcurrency = Math.max(1, Math.floor(maxConcurrency));
  }

  async waitForIdentify(shardId: number, signal: AbortSignal): Promise<void> {
    const bucket = shardId % this.maxConcurrency;
    const before = this.lines.get(bucket) ?? Promise.resolve();
    let through: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => {
      through = resolve;
    });
    this.lines.set(
      bucket,
      before.then(() => mine),
    );
    try {
      await untilAborted(before, signal);
      try {
        await this.coordination.waitForIdentify(bucket, signal);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        this.logger.warn(
          { err: error, shard: shardId, bucket },
          'discord identify not paced with the other processes (coordination failed); paced in this process only',
        );
        await sleep(Math.max(0, (this.lastHere.get(bucket) ?? Number.NEGATIVE_INFINITY) + IDENTIFY_SPACING_MS - Date.now()), undefined, {
          signal,
        });
      }
      this.lastHere.set(bucket, Date.now());
    } finally {
      through();
    }
  }
}
