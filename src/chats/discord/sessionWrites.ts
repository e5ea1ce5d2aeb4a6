/**
 * One shard's session written to the shared coordination as it changes. The sequence moves with
 * every event the shard receives; writing each one would be a database write per event, so a
 * sequence is written at most once a second (the latest one), while a new session or a closed one
 * (null) is written as soon as the write before it is done. A replacement process that reads a
 * sequence up to a second old only has Discord replay a few events more.
 *
 * One write at a time, each with the latest state: a closed session is never overwritten by an
 * older sequence, and a slow or absent database never piles writes up. A failed write is logged
 * and dropped (the next change writes the whole session again): the gateway runs on; only a
 * replacement process would identify the shard again instead of resuming it.
 */
import type { Logger } from '../../log';
import type { GatewayCoordination, GatewaySession } from './gatewayCoordination';

export const SEQUENCE_WRITE_MS = 1_000;

export class SessionWrites {
  /** The latest state not written yet; undefined: nothing. */
  private pending: { session: GatewaySession | null } | undefined;
  private writing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private lastSessionId: string | null = null;
  private failing = false;

  constructor(
    private readonly shardId: number,
    private readonly coordination: Pick<GatewayCoordination, 'writeSession'>,
    private readonly logger: Logger,
    private readonly intervalMs = SEQUENCE_WRITE_MS,
  ) {}

  offer(session: GatewaySession | null): void {
    this.pending = { session };
    this.pump(false);
  }

  /** Writes what waits now, and resolves once it is written (or failed). */
  async settled(): Promise<void> {
    for (;;) {
      this.pump(true);
      if (this.writing === null) return;
      await this.writing;
    }
  }

  /** Starts the next write when one is due (`now`: whatever the second says), or times it. */
  private pump(now: boolean): void {
    const pending = this.pending;
    if (pending === undefined || this.writing !== null) return;
    const newSession = pending.session === null || pending.session.sessionId !== this.lastSessionId;
    const wait = this.lastWriteAt + this.intervalMs - Date.now();
    if (!now && !newSession && wait > 0) {
      if (this.timer === null) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.pump(true);
        }, wait);
        this.timer.unref();
      }
      return;
    }
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.pending = undefined;
    this.lastWriteAt = Date.now();
    this.lastSessionId = pending.session?.sessionId ?? null;
    this.writing = this.write(pending.session).finally(() => {
      this.writing = null;
      this.pump(false);
    });
  }

  private async write(session: GatewaySession | null): Promise<void> {
    // Only the fields a RESUME needs, whatever else the object given carries.
    const row: GatewaySession | null =
      session === null
        ? null
        : {
            sessionId: session.sessionId,
            sequence: session.sequence,
            resumeURL: session.resumeURL,
            shardId: session.shardId,
            shardCount: session.shardCount,
          };
    try {
      await this.coordination.writeSession(this.shardId, row);
      if (this.failing) this.logger.info({ shard: this.shardId }, 'discord session stored again');
      this.failing = false;
    } catch (error) {
      if (!this.failing)
        this.logger.warn(
          { err: error, shard: this.shardId },
          'discord session not stored; a process started in place of this one would identify the shard again',
        );
      this.failing = true;
    }
  }
}
