/**
 * Gateway sessions shared between the processes of one bot, so that a process started in place of
 * one that died resumes its shards (Discord replays the missed events) instead of identifying them
 * again (one IDENTIFY per bucket every 5 seconds, 1,000 a day).
 *
 * discord.js gives @discordjs/ws its own in-memory `retrieveSessionInfo`/`updateSessionInfo`,
 * which @discordjs/ws calls through `manager.options` at every use. They are wrapped here, in the
 * strategy builder, before any shard runs:
 *
 * - retrieve: discord.js's session first; when it has none, the first time only, the stored one
 *   opened with the current shard count (@discordjs/ws then connects to its resume address and
 *   sends RESUME instead of IDENTIFY). It is handed to discord.js's memory too, which its own
 *   RESUMED handling reads. Later, memory is the truth: this process writes every change.
 * - update: discord.js's memory, then the store (sessionWrites.ts: a new or closed session at
 *   once, the sequence at most once a second). Nothing waits for the store: @discordjs/ws calls
 *   this for every event it receives.
 *
 * A session Discord refuses (op 9) is forgotten by @discordjs/ws (update with null), and the
 * shard identifies. A resumed session of another process gets the READY discord.js missed
 * (adoptedReady.ts). Destroying the client waits for the last writes (the closed sessions).
 */
import type { Awaitable, IShardingStrategy, SessionInfo } from 'discord.js';
import type { Logger } from '../../log';
import { announceResumedReady, SHARD_RESUMED, type GatewayManager } from './adoptedReady';
import type { GatewayCoordination, GatewaySession } from './gatewayCoordination';
import { SessionWrites } from './sessionWrites';

type SessionOptions = Pick<GatewayManager['options'], 'retrieveSessionInfo' | 'updateSessionInfo'>;

export class SharedSessions {
  /** Shards whose stored session was looked for (once per process). */
  private readonly looked = new Set<number>();
  /** Shards resuming a session read from the store, by its id: discord.js has had no READY for them. */
  private readonly adopted = new Map<number, string>();
  private readonly writes = new Map<number, SessionWrites>();
  /** Aborted when the shards are destroyed: a READY still being prepared is dropped. */
  private running = new AbortController();
  private readonly own: SessionOptions;

  constructor(
    private readonly manager: GatewayManager,
    private readonly coordination: GatewayCoordination,
    private readonly logger: Logger,
  ) {
    const options = manager.options;
    this.own = {
      retrieveSessionInfo: options.retrieveSessionInfo.bind(options),
      updateSessionInfo: options.updateSessionInfo.bind(options),
    };
    options.retrieveSessionInfo = (shardId) => this.retrieve(shardId);
    options.updateSessionInfo = (shardId, session) => this.update(shardId, session);
    manager.on(SHARD_RESUMED, ({ shardId }) => this.resumed(shardId));
  }

  /** `inner` (discord.js's usual strategy), whose destroy also waits for the sessions' last writes. */
  strategy(inner: IShardingStrategy): IShardingStrategy {
    return {
      spawn: (shardIds) => inner.spawn(shardIds),
      connect: () => inner.connect(),
      send: (shardId, payload) => inner.send(shardId, payload),
      fetchStatus: () => inner.fetchStatus(),
      destroy: async (options) => {
        this.running.abort();
        this.running = new AbortController();
        await inner.destroy(options);
        await Promise.all([...this.writes.values()].map((writes) => writes.settled()));
      },
    };
  }

  private async retrieve(shardId: number): Promise<SessionInfo | null> {
    const kept = await this.own.retrieveSessionInfo(shardId);
    if (kept !== null || this.looked.has(shardId)) return kept;
    this.looked.add(shardId);
    const stored = await this.stored(shardId);
    if (stored === null) return null;
    this.adopted.set(shardId, stored.sessionId);
    await this.own.updateSessionInfo(shardId, stored);
    this.logger.info({ shard: shardId, sequence: stored.sequence }, 'discord shard resumes the session a previous process left');
    return stored;
  }

  private async stored(shardId: number): Promise<GatewaySession | null> {
    try {
      const shardCount = await this.manager.getShardCount();
      const session = await this.coordination.readSession(shardId, shardCount);
      // A session of another shard count (the bot was resharded) cannot be resumed.
      return session !== null && session.shardId === shardId && session.shardCount === shardCount ? session : null;
    } catch (error) {
      this.logger.warn({ err: error, shard: shardId }, 'discord stored session not read; the shard identifies');
      return null;
    }
  }

  private update(shardId: number, session: SessionInfo | null): Awaitable<void> {
    const adopted = this.adopted.get(shardId);
    // A READY of its own (a new session) or a refusal: discord.js needs nothing more for this shard.
    if (adopted !== undefined && session?.sessionId !== adopted) this.adopted.delete(shardId);
    let writes = this.writes.get(shardId);
    if (writes === undefined) {
      writes = new SessionWrites(shardId, this.coordination, this.logger);
      this.writes.set(shardId, writes);
    }
    writes.offer(session);
    return this.own.updateSessionInfo(shardId, session);
  }

  private resumed(shardId: number): void {
    if (!this.adopted.delete(shardId)) return;
    void announceResumedReady(this.manager, shardId, this.running.signal, this.logger);
  }
}
