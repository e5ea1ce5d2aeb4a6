/**
 * What the Discord gateway processes of one bot share, in PostgreSQL (the shape the chat's
 * GatewayCoordination asks for, src/chats/discord/gatewayCoordination.ts; the store stands below
 * the chats, so it matches by shape rather than by name):
 *
 * - IDENTIFY pacing: Discord allows one IDENTIFY per `max_concurrency` bucket every 5 seconds for
 *   the whole bot. A process takes the bucket's advisory lock on a connection of its own, sends its
 *   IDENTIFY, and keeps the lock IDENTIFY_HOLD_MS more, so that no process's next IDENTIFY in that
 *   bucket comes sooner. A process that dies meanwhile loses its connection and with it the lock:
 *   the next IDENTIFY may then come early, and Discord answers it with "invalid session", after
 *   which the shard identifies again (through the lock).
 * - Sessions: each shard's gateway session (table discord_sessions), for a process started in
 *   place of a dead one to resume.
 */
import { z } from 'zod';
import type { PoolClient } from 'pg';
import { unbounded, type PgDatabase } from './pgDatabase';
import { checkOut } from './checkOut';

/** "twdi" in ASCII, moved up 16 bits: bucket n's advisory lock is this plus n (buckets are fewer than 2^16). */
export const IDENTIFY_LOCK_BASE = 0x74776469 * 0x10000;

/**
 * Discord's 5 seconds between two IDENTIFYs of a bucket, and a second's room: for the IDENTIFY to
 * travel there, and for a process that paused between its turn and its send (a collection, a busy
 * host), whose hold runs on meanwhile. A shard's start costs a second more; a refused IDENTIFY costs
 * the shard a reconnect.
 */
export const IDENTIFY_HOLD_MS = 6_000;

/** A shard's gateway session, as the gateway keeps it: what a RESUME needs. */
export interface DiscordGatewaySession {
  sessionId: string;
  sequence: number;
  resumeURL: string;
  shardId: number;
  shardCount: number;
}

const StoredSession = z.object({
  sessionId: z.string().min(1),
  sequence: z.number().int().nonnegative(),
  resumeURL: z.string().min(1),
  shardId: z.number().int().nonnegative(),
  shardCount: z.number().int().positive(),
});

export interface PgDiscordGatewayOptions {
  /** How long a bucket stays taken after its IDENTIFY was allowed (default IDENTIFY_HOLD_MS). */
  holdMs?: number;
}

export class PgDiscordGateway {
  private readonly holdMs: number;

  constructor(
    private readonly db: PgDatabase,
    options: PgDiscordGatewayOptions = {},
  ) {
    this.holdMs = options.holdMs ?? IDENTIFY_HOLD_MS;
  }

  /**
   * Resolves once this process holds `bucket`'s lock, which it keeps `holdMs` more; rejects with
   * the signal's reason when `signal` aborts first (the wait for the lock is cancelled).
   */
  async waitForIdentify(bucket: number, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const key = IDENTIFY_LOCK_BASE + bucket;
    // Heard while checked out (checkOut.ts): unheard, an error of the connection would stop the process.
    const checkedOut = await checkOut(this.db.pool);
    const { client } = checkedOut;
    const release = (broken: boolean) => checkedOut.release(broken);
    let pid: number;
    try {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      pid = rows[0]?.pid ?? 0;
    } catch (error) {
      release(true);
      throw error;
    }
    if (signal.aborted) {
      release(false);
      throw signal.reason;
    }
    // An abort while the lock is awaited cancels the wait from another connection. A cancel may
    // land late, on whatever this connection runs next: the connection is ended rather than given
    // back to the pool (ending it gives back the lock too).
    const cancel = () => {
      this.db.pool.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => undefined);
    };
    signal.addEventListener('abort', cancel, { once: true });
    try {
      // The turn may be several IDENTIFYs away: this one wait is not a bot's statement, and has no limit.
      // The connection is ended afterwards (release(true) in unlock), so the setting goes with it.
      await client.query('SET statement_timeout = 0');
      await client.query(unbounded('SELECT pg_advisory_lock($1)', [key]));
    } catch (error) {
      // Ended, not given back: a cancel may land late, and the connection runs without a statement limit.
      release(true);
      if (signal.aborted) throw signal.reason;
      throw error;
    } finally {
      signal.removeEventListener('abort', cancel);
    }
    if (signal.aborted) {
      // The lock came as the wait was given up: no IDENTIFY follows.
      release(true);
      throw signal.reason;
    }
    setTimeout(() => void this.unlock(client, key, release), this.holdMs);
  }

  /** The stored session of `shardId` opened with `shardCount` shards, or null (none, or unreadable). */
  async readSession(shardId: number, shardCount: number): Promise<DiscordGatewaySession | null> {
    const { rows } = await this.db.query<{ session: unknown }>({
      text: 'SELECT session FROM discord_sessions WHERE shard_id = $1 AND shard_count = $2',
      values: [shardId, shardCount],
    });
    const parsed = StoredSession.safeParse(rows[0]?.session);
    return parsed.success && parsed.data.shardId === shardId && parsed.data.shardCount === shardCount ? parsed.data : null;
  }

  /** Stores a shard's session (the whole row), or with null forgets it. Fails at once while the server is away. */
  async writeSession(shardId: number, session: DiscordGatewaySession | null): Promise<void> {
    if (session === null) {
      await this.db.query({ text: 'DELETE FROM discord_sessions WHERE shard_id = $1', values: [shardId] });
      return;
    }
    const stored = StoredSession.parse(session);
    await this.db.query({
      name: 'tw_discord_session',
      text: `INSERT INTO discord_sessions (shard_id, shard_count, session, updated_at) VALUES ($1, $2, $3, now())
             ON CONFLICT (shard_id) DO UPDATE SET shard_count = EXCLUDED.shard_count, session = EXCLUDED.session, updated_at = now()`,
      values: [shardId, stored.shardCount, JSON.stringify(stored)],
    });
  }

  private async unlock(client: PoolClient, key: number, release: (broken: boolean) => void): Promise<void> {
    try {
      await client.query('SELECT pg_advisory_unlock($1)', [key]);
      // Not given back to the pool: it runs without a statement limit (see the lock above).
      release(true);
    } catch {
      // Ending the connection gives the lock back all the same.
      release(true);
    }
  }
}
