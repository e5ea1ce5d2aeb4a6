/**
 * PostgreSQL's Discord gateway coordination, between two "processes" (two pools on one fresh
 * database): a shard's stored session, read back only for its shard count; an IDENTIFY bucket
 * kept taken after its permit, for everyone, while other buckets stay free; a wait given up when
 * its shard closes, cancelled in the database too.
 */
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { GatewayCoordination } from '../../src/chats/discord/gatewayCoordination';
import { silentLogger } from '../../src/log';
import { PgDatabase } from '../../src/store/postgres/pgDatabase';
import { PgDiscordGateway, type DiscordGatewaySession } from '../../src/store/postgres/pgDiscordGateway';
import { openPostgresStore } from '../../src/store/postgres/postgresStore';
import { freshDatabase } from '../support/postgres/databases';
import { postgresRunning } from './support/stores';

/**
 * How long the first process keeps a bucket after its permit: the other process's wait must be
 * seen (and, in one case, given up) within it, on a machine that may be slow to open a connection.
 */
const HOLD_MS = 4_000;

/** Advisory locks of this database by state: held, and waited for. */
async function advisoryLocks(db: PgDatabase): Promise<{ held: number; waiting: number }> {
  const { rows } = await db.query<{ held: number; waiting: number }>({
    text: `SELECT count(*) FILTER (WHERE granted)::int AS held, count(*) FILTER (WHERE NOT granted)::int AS waiting
             FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  });
  return rows[0] ?? { held: 0, waiting: 0 };
}

describe.runIf(postgresRunning())('PgDiscordGateway', () => {
  let drop: () => Promise<void>;
  let one: PgDatabase;
  let two: PgDatabase;

  beforeAll(async () => {
    const adminUrl = inject('postgres').adminUrl;
    if (adminUrl === null) throw new Error('PostgreSQL is not running');
    const database = await freshDatabase(adminUrl);
    drop = database.drop;
    // The store brings the schema (migration 004 makes discord_sessions); the gateway has pools of its own.
    await (await openPostgresStore(database.url)).close();
    one = new PgDatabase({ url: database.url, logger: silentLogger });
    two = new PgDatabase({ url: database.url, logger: silentLogger });
  });

  afterAll(async () => {
    await one?.close();
    await two?.close();
    await drop?.();
  });

  const session = (shardId: number, sequence: number, shardCount = 4): DiscordGatewaySession => ({
    sessionId: `session-${shardId}`,
    sequence,
    resumeURL: 'wss://gateway-us-east1-b.discord.gg',
    shardId,
    shardCount,
  });

  it('is the chat’s GatewayCoordination, by shape', () => {
    const coordination: GatewayCoordination = new PgDiscordGateway(one);
    expect(typeof coordination.waitForIdentify).toBe('function');
  });

  it('stores a shard’s session for the other process, read back only with its shard count, and forgets it', async () => {
    const writer = new PgDiscordGateway(one);
    const reader = new PgDiscordGateway(two);
    await writer.writeSession(1, session(1, 7));
    await writer.writeSession(1, session(1, 9));
    expect(await reader.readSession(1, 4)).toEqual(session(1, 9));
    expect(await reader.readSession(1, 8)).toBeNull();
    expect(await reader.readSession(2, 4)).toBeNull();
    await writer.writeSession(1, null);
    expect(await reader.readSession(1, 4)).toBeNull();
  });

  it('reads a row it cannot make sense of as no session', async () => {
    await one.query({ text: `INSERT INTO discord_sessions (shard_id, shard_count, session) VALUES (3, 4, '{"sessionId": 5}'::jsonb)` });
    expect(await new PgDiscordGateway(two).readSession(3, 4)).toBeNull();
  });

  it('keeps a bucket taken after its permit, for the other process too, while other buckets stay free', async () => {
    const first = new PgDiscordGateway(one, { holdMs: HOLD_MS });
    const second = new PgDiscordGateway(two, { holdMs: 0 });
    const signal = new AbortController().signal;
    await first.waitForIdentify(0, signal);
    await second.waitForIdentify(1, signal);
    const sameBucket = second.waitForIdentify(0, signal);
    // The second process waits in the database for the first one's hold to end, then goes through.
    await vi.waitFor(async () => expect((await advisoryLocks(one)).waiting).toBe(1), { timeout: 10_000 });
    await sameBucket;
    await vi.waitFor(async () => expect(await advisoryLocks(one)).toEqual({ held: 0, waiting: 0 }), { timeout: 10_000 });
  });

  it('gives up a wait when its shard closes, and the database stops waiting too', async () => {
    const first = new PgDiscordGateway(one, { holdMs: HOLD_MS });
    const second = new PgDiscordGateway(two, { holdMs: 0 });
    await first.waitForIdentify(2, new AbortController().signal);
    const closed = new AbortController();
    const waiting = second.waitForIdentify(2, closed.signal);
    await vi.waitFor(async () => expect((await advisoryLocks(one)).waiting).toBe(1), { timeout: 10_000 });
    closed.abort(new Error('shard closed'));
    await expect(waiting).rejects.toThrow('shard closed');
    await vi.waitFor(async () => expect((await advisoryLocks(one)).waiting).toBe(0), { timeout: 10_000 });
    // Once the first process's hold ends, the bucket is free for anyone: nothing of the given-up wait holds it.
    await vi.waitFor(async () => expect((await advisoryLocks(one)).held).toBe(0), { timeout: 10_000 });
    await second.waitForIdentify(2, new AbortController().signal);
  });
});
