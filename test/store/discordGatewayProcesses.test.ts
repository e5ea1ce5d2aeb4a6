/**
 * Discord's gateway run by several processes over one PostgreSQL, with the real discord.js against
 * the fake Discord:
 *
 * - two processes (each its own pool on one fresh database) start their shards at once, 0-1 and
 *   2-3 of 4, with max_concurrency 1: their IDENTIFYs come 5 seconds apart, as Discord asks of the
 *   bot as a whole (and without the coordination, two processes break that at once);
 * - a process is killed (SIGKILL, its session never closed); a process started in its place for
 *   the same shard RESUMEs the session it left in the database rather than identifying, and takes
 *   the shard's events.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Events, type Client } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createDiscordClient } from '../../src/chats/discord/start';
import { createLogger, silentLogger } from '../../src/log';
import { PgDatabase } from '../../src/store/postgres/pgDatabase';
import { PgDiscordGateway } from '../../src/store/postgres/pgDiscordGateway';
import { openPostgresStore } from '../../src/store/postgres/postgresStore';
import { FakeDiscord, nextSnowflake, snowflakeInShard } from '../support/discord/fakeDiscord';
import { freshDatabase } from '../support/postgres/databases';
import { tsNode } from '../support/processes';
import { postgresRunning } from './support/stores';

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAxMQ.GprocX.gatewayProcessesTestToken01234';
const APP_ID = nextSnowflake();

/** Logs in and resolves once the client is ready. */
async function started(client: Client): Promise<Client> {
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(TOKEN);
  await ready;
  return client;
}

describe.runIf(postgresRunning())('Discord gateway processes over one PostgreSQL', () => {
  let url: string;
  let drop: () => Promise<void>;
  const databases: PgDatabase[] = [];
  const clients: Client[] = [];
  const children: ChildProcess[] = [];
  let fake: FakeDiscord | null = null;

  /** A "process"'s own pool on the test's database. */
  function pool(): PgDatabase {
    const db = new PgDatabase({ url, logger: silentLogger });
    databases.push(db);
    return db;
  }

  beforeAll(async () => {
    const adminUrl = inject('postgres').adminUrl;
    if (adminUrl === null) throw new Error('PostgreSQL is not running');
    const database = await freshDatabase(adminUrl);
    url = database.url;
    drop = database.drop;
    await (await openPostgresStore(url)).close();
  });

  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await Promise.all(clients.splice(0).map((client) => client.destroy()));
    await Promise.all(databases.splice(0).map((db) => db.close()));
    await fake?.close();
    fake = null;
  });

  afterAll(async () => {
    await drop?.();
  });

  it('pace their IDENTIFYs together by max_concurrency', async () => {
    const servers = [0, 1, 2, 3].map((shard) => ({ id: snowflakeInShard(shard, 4), name: `Server on shard ${shard}`, channels: [] }));
    fake = await FakeDiscord.start({ appId: APP_ID, token: TOKEN, shards: 4, maxConcurrency: 1, guilds: servers });
    const first = createDiscordClient({ restApi: fake.restApi, shards: { ids: [0, 1], count: 4 }, gateway: new PgDiscordGateway(pool()) });
    const second = createDiscordClient({ restApi: fake.restApi, shards: { ids: [2, 3], count: 4 }, gateway: new PgDiscordGateway(pool()) });
    clients.push(first, second);
    await Promise.all([started(first), started(second)]);

    expect(fake.identifyLog.map((seen) => seen.shard).sort()).toEqual([0, 1, 2, 3]);
    expect(fake.identifyViolations).toBe(0);
    expect(first.guilds.cache.map((guild) => guild.shardId).sort()).toEqual([0, 1]);
    expect(second.guilds.cache.map((guild) => guild.shardId).sort()).toEqual([2, 3]);
  }, 90_000);

  it('without the coordination, two processes identify in one bucket at once (what the fake counts)', async () => {
    fake = await FakeDiscord.start({ appId: APP_ID, token: TOKEN, shards: 2, maxConcurrency: 1, guilds: [] });
    const first = createDiscordClient({ restApi: fake.restApi, shards: { ids: [0], count: 2 } });
    const second = createDiscordClient({ restApi: fake.restApi, shards: { ids: [1], count: 2 } });
    clients.push(first, second);
    await Promise.all([started(first), started(second)]);
    expect(fake.identifyViolations).toBe(1);
  }, 60_000);

  it('a process started in place of a killed one resumes its shard’s session', async () => {
    const guild = snowflakeInShard(1, 2);
    const channel = nextSnowflake();
    fake = await FakeDiscord.start({
      appId: APP_ID,
      token: TOKEN,
      shards: 2,
      guilds: [{ id: guild, name: 'Server on shard 1', channels: [{ id: channel, name: 'general' }] }],
    });
    const watcher = pool();

    const [command, args] = tsNode('test/store/support/discordGatewayProcess.ts');
    const child = spawn(command, args, {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATABASE_URL: url,
        DISCORD_TOKEN: TOKEN,
        DISCORD_REST_API: fake.restApi,
        SHARD_IDS: '1',
        SHARD_COUNT: '2',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await vi.waitFor(() => expect(output).toContain('ready'), { timeout: 30_000 });

    // The session the fake opened for the process, as the process stored it, its sequence past the
    // READY (the server that followed it, and a command).
    const opened = fake.latestSession(1);
    expect(opened).not.toBeNull();
    const storedSession = async () => {
      const { rows } = await watcher.query<{ session_id: string; sequence: number }>({
        text: `SELECT session->>'sessionId' AS session_id, (session->>'sequence')::int AS sequence FROM discord_sessions WHERE shard_id = 1 AND shard_count = 2`,
      });
      return rows[0] ?? null;
    };
    await vi.waitFor(async () => expect((await storedSession())?.session_id).toBe(opened), { timeout: 10_000 });
    const before = (await storedSession())?.sequence ?? 0;
    fake.slashCommand('status', {}, { guildId: guild, channelId: channel });
    await vi.waitFor(async () => expect((await storedSession())?.sequence).toBeGreaterThan(before), { timeout: 10_000 });
    const left = await storedSession();

    child.kill('SIGKILL');
    await exited;
    const identifies = fake.identifyLog.length;

    const replacement = createDiscordClient({
      restApi: fake.restApi,
      shards: { ids: [1], count: 2 },
      gateway: new PgDiscordGateway(pool()),
      logger: createLogger('info', { write: () => undefined }),
    });
    clients.push(replacement);
    await started(replacement);

    expect(fake.resumeLog).toEqual([{ shard: 1, sessionId: opened, sequence: left?.sequence, resumed: true }]);
    expect(fake.identifyLog).toHaveLength(identifies);
    expect(replacement.user?.id).toBe(fake.botId);
    const interaction = new Promise<string>((resolve) =>
      replacement.once(Events.InteractionCreate, (created) => resolve(created.guildId ?? '')),
    );
    fake.slashCommand('status', {}, { guildId: guild, channelId: channel });
    expect(await interaction).toBe(guild);
    expect(output).not.toContain(TOKEN);
  }, 90_000);
});
