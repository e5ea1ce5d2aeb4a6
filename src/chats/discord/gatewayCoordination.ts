/**
 * What the gateway processes of one bot share (clusterGateway.ts tells discord.js to use it):
 *
 * - IDENTIFYs: Discord allows one per `max_concurrency` bucket (shard id % max_concurrency) every
 *   5 seconds for the whole bot, whichever process sends it;
 * - sessions: each shard's session id, sequence and resume address, so that a process started in
 *   place of one that died RESUMEs its shards instead of identifying them again.
 *
 * PostgreSQL's implementation (src/store/postgres/pgDiscordGateway.ts) matches it by shape, as the
 * store stands below the chats.
 */

/** A shard's gateway session, as @discordjs/ws keeps it (its SessionInfo): what a RESUME needs. */
export interface GatewaySession {
  sessionId: string;
  /** The last event number received: Discord replays what came after it. */
  sequence: number;
  /** Where Discord wants the RESUME sent. */
  resumeURL: string;
  shardId: number;
  /** The shard count the session was opened with: a session of another count is never resumed. */
  shardCount: number;
}

export interface GatewayCoordination {
  /**
   * Resolves once this process may send one IDENTIFY in `bucket` (shard id % max_concurrency); the
   * bucket then stays taken, for every process, for Discord's 5 seconds. Rejects when `signal`
   * aborts first (the shard closed meanwhile).
   */
  waitForIdentify(bucket: number, signal: AbortSignal): Promise<void>;
  /** The stored session of `shardId` opened with `shardCount` shards, or null. */
  readSession(shardId: number, shardCount: number): Promise<GatewaySession | null>;
  /** Stores a shard's session, or with null forgets it (it was closed, or Discord refused it). */
  writeSession(shardId: number, session: GatewaySession | null): Promise<void>;
}
