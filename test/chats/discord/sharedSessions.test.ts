/**
 * Gateway sessions shared between processes, with the coordination in memory (PostgreSQL's runs in
 * test/store/discordGatewayProcesses.test.ts): the real discord.js against the fake Discord. A
 * session another connection opened and left without closing is RESUMEd (no IDENTIFY), and the
 * client becomes ready and takes events; a session of another shard count is not used; one Discord
 * refuses is forgotten and the shard identifies. The whole chat on a resumed session answers
 * commands and pasted addresses (its servers are not in discord.js's cache). Then the pieces: the
 * writes' pace, and the IDENTIFY line of a bucket.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Events, type Client } from 'discord.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import type { GatewayCoordination, GatewaySession } from '../../../src/chats/discord/gatewayCoordination';
import { ClusterIdentifyThrottler } from '../../../src/chats/discord/identifyThrottler';
import { SessionWrites } from '../../../src/chats/discord/sessionWrites';
import { createDiscordClient, startDiscordChat } from '../../../src/chats/discord/start';
import { serverMessageOf } from '../../../src/chats/discord/serverMessages';
import { Dispatcher } from '../../../src/dispatch/dispatcher';
import { loadCommands } from '../../../src/dispatch/registry';
import { createLogger, silentLogger } from '../../../src/log';
import { openSqliteStore } from '../../../src/store/sqliteStore';
import { FakeDiscord, nextSnowflake, snowflakeInShard } from '../../support/discord/fakeDiscord';
import { startTestMarket } from '../../support/market';

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAxMA.GsessX.sharedSessionsTestToken0123456';
const APP_ID = nextSnowflake();
const GUILD = snowflakeInShard(0, 1);
const CHANNEL = nextSnowflake();

/** Sessions and IDENTIFY permits in memory, with what was asked of them. */
class MemoryCoordination implements GatewayCoordination {
  readonly sessions = new Map<number, GatewaySession>();
  readonly written: Array<GatewaySession | null> = [];
  readonly identifyBuckets: number[] = [];
  async waitForIdentify(bucket: number): Promise<void> {
    this.identifyBuckets.push(bucket);
  }
  /** Whatever is stored, of any shard count: the client is the one to refuse another count. */
  async readSession(shardId: number): Promise<GatewaySession | null> {
    return this.sessions.get(shardId) ?? null;
  }
  async writeSession(shardId: number, session: GatewaySession | null): Promise<void> {
    this.written.push(session);
    if (session === null) this.sessions.delete(shardId);
    else this.sessions.set(shardId, session);
  }
}

/** A session opened on the fake by a bare socket (IDENTIFY, READY), which then goes away without closing it, as a killed process's would. */
async function leftSession(fake: FakeDiscord, shard: number, count: number): Promise<GatewaySession> {
  const socket = new WebSocket(`ws://127.0.0.1:${fake.port}`);
  const ready = await new Promise<{ sessionId: string; sequence: number; resumeURL: string }>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('message', (raw) => {
      const packet = JSON.parse(raw.toString()) as {
        op: number;
        t?: string;
        s?: number;
        d?: { session_id?: string; resume_gateway_url?: string };
      };
      if (packet.op === 10) socket.send(JSON.stringify({ op: 2, d: { token: TOKEN, intents: 1, properties: {}, shard: [shard, count] } }));
      if (packet.op === 0 && packet.t === 'READY')
        resolve({ sessionId: packet.d?.session_id ?? '', sequence: packet.s ?? 0, resumeURL: packet.d?.resume_gateway_url ?? '' });
    });
  });
  socket.terminate();
  return { ...ready, shardId: shard, shardCount: count };
}

function readyOf(client: Client): Promise<void> {
  return new Promise((resolve) => client.once(Events.ClientReady, () => resolve()));
}

describe('a shared session, with the real discord.js', () => {
  let fake: FakeDiscord;
  let client: Client | null = null;

  afterEach(async () => {
    await client?.destroy();
    client = null;
    await fake.close();
  });

  async function start(coordination: MemoryCoordination, logLines?: string[]): Promise<Client> {
    const logger = logLines === undefined ? silentLogger : createLogger('debug', { write: (line: string) => void logLines.push(line) });
    client = createDiscordClient({ restApi: fake.restApi, shards: { ids: [0], count: 1 }, gateway: coordination, logger });
    const ready = readyOf(client);
    await client.login(TOKEN);
    await ready;
    return client;
  }

  it('is resumed (no IDENTIFY), and the client becomes ready and takes events', async () => {
    fake = await FakeDiscord.start({
      appId: APP_ID,
      token: TOKEN,
      guilds: [{ id: GUILD, name: 'Server', channels: [{ id: CHANNEL, name: 'general' }] }],
    });
    const left = await leftSession(fake, 0, 1);
    const coordination = new MemoryCoordination();
    coordination.sessions.set(0, left);
    const logLines: string[] = [];

    const resumed = await start(coordination, logLines);
    expect(fake.resumeLog).toEqual([{ shard: 0, sessionId: left.sessionId, sequence: left.sequence, resumed: true }]);
    expect(fake.identifyLog).toHaveLength(1);
    expect(coordination.identifyBuckets).toEqual([]);
    expect(resumed.user?.id).toBe(fake.botId);
    expect(resumed.application?.id).toBe(APP_ID);
    expect(logLines.join('\n')).toContain('discord shard resumes the session a previous process left');
    expect(logLines.join('\n')).not.toContain(TOKEN);

    const interaction = new Promise<string>((resolve) =>
      resumed.once(Events.InteractionCreate, (created) => resolve(created.channelId ?? '')),
    );
    fake.slashCommand('status', {}, { guildId: GUILD, channelId: CHANNEL });
    expect(await interaction).toBe(CHANNEL);
    // The resumed session's later events move its sequence on in the store.
    await vi.waitFor(() => expect(coordination.sessions.get(0)?.sequence).toBeGreaterThan(left.sequence), { timeout: 10_000 });
    expect(coordination.sessions.get(0)?.sessionId).toBe(left.sessionId);

    await resumed.destroy();
    client = null;
    // Closed on purpose, the session is forgotten: nothing is left to resume.
    expect(coordination.sessions.has(0)).toBe(false);
    expect(coordination.written.at(-1)).toBeNull();
  });

  it('of another shard count is not used: the shard identifies', async () => {
    fake = await FakeDiscord.start({
      appId: APP_ID,
      token: TOKEN,
      guilds: [{ id: GUILD, name: 'Server', channels: [{ id: CHANNEL, name: 'general' }] }],
    });
    const left = await leftSession(fake, 0, 2);
    const coordination = new MemoryCoordination();
    coordination.sessions.set(0, left);
    await start(coordination);
    expect(fake.resumeLog).toEqual([]);
    expect(fake.identifyLog.map((seen) => [seen.shard, seen.count])).toEqual([
      [0, 2],
      [0, 1],
    ]);
    expect(coordination.identifyBuckets).toEqual([0]);
    expect(coordination.sessions.get(0)?.shardCount).toBe(1);
  });

  it('that Discord refuses is forgotten, and the shard identifies', async () => {
    fake = await FakeDiscord.start({
      appId: APP_ID,
      token: TOKEN,
      guilds: [{ id: GUILD, name: 'Server', channels: [{ id: CHANNEL, name: 'general' }] }],
    });
    const coordination = new MemoryCoordination();
    coordination.sessions.set(0, {
      sessionId: 'closed-long-ago',
      sequence: 40,
      resumeURL: `ws://127.0.0.1:${fake.port}`,
      shardId: 0,
      shardCount: 1,
    });
    const refused = await start(coordination);
    expect(fake.resumeLog).toEqual([{ shard: -1, sessionId: 'closed-long-ago', sequence: 40, resumed: false }]);
    expect(fake.identifyLog).toHaveLength(1);
    expect(coordination.written[0]).toBeNull();
    expect(coordination.sessions.get(0)?.sessionId).toBe(fake.latestSession(0));
    expect(refused.guilds.cache.has(GUILD)).toBe(true);
  });
});

describe('the chat on a resumed session', () => {
  it('answers commands and pasted addresses, though its servers are not in discord.js’s cache', async () => {
    const market = await startTestMarket();
    const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-resumed-'));
    const store = openSqliteStore(join(dir, 'tokenwatch.db'));
    const fake = await FakeDiscord.start({
      appId: APP_ID,
      token: TOKEN,
      guilds: [{ id: GUILD, name: 'Server', channels: [{ id: CHANNEL, name: 'general' }] }],
    });
    try {
      const coordination = new MemoryCoordination();
      coordination.sessions.set(0, await leftSession(fake, 0, 1));
      const dispatcher = new Dispatcher({
        commands: await loadCommands(),
        services: { query: market.query },
        actionKeys: store.actionKeys,
        logger: silentLogger,
      });
      const chat = await startDiscordChat({
        token: TOKEN,
        appId: APP_ID,
        restApi: fake.restApi,
        dispatcher,
        store,
        logger: silentLogger,
        detectAddresses: true,
        shards: { ids: [0], count: 1 },
        gateway: coordination,
      });
      try {
        expect(fake.resumeLog.map((seen) => seen.resumed)).toEqual([true]);
        expect(fake.identifyLog).toHaveLength(1);
        expect(chat.client.guilds.cache.size).toBe(0);
        expect(chat.shards().map((shard) => shard.state)).toEqual(['ready']);

        const token = market.listing.tokens[0]?.address ?? '';
        const title = (await market.query.token(token)).title;
        const answer = await fake.answerTo(fake.slashCommand('token', { address: token }, { guildId: GUILD, channelId: CHANNEL }));
        expect((answer.body.embeds as Array<{ title: string }>)[0]?.title).toBe(title);

        const pasted = fake.postMessage(GUILD, CHANNEL, token);
        await fake.until(() => fake.channelMessages(CHANNEL).length > 0, 15_000, 'the answer to the pasted address');
        expect(fake.channelMessages(CHANNEL)[0]?.body.message_reference).toMatchObject({ message_id: pasted });
      } finally {
        await chat.stop();
      }
    } finally {
      await fake.close();
      await store.close();
      await market.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('serverMessageOf', () => {
  const author = { id: '42', username: 'someone' };
  it('reads a server message from its raw event, and nothing else', () => {
    expect(
      serverMessageOf({ op: 0, t: 'MESSAGE_CREATE', s: 3, d: { id: '1', channel_id: '2', guild_id: '3', content: 'gm', author } }),
    ).toEqual({
      id: '1',
      channelId: '2',
      guildId: '3',
      authorId: '42',
      authorName: 'someone',
      byBot: false,
      content: 'gm',
    });
    expect(
      serverMessageOf({
        op: 0,
        t: 'MESSAGE_CREATE',
        d: { id: '1', channel_id: '2', guild_id: '3', content: 'gm', author: { ...author, bot: true } },
      })?.byBot,
    ).toBe(true);
    // A direct message, another event, or something that is not one at all.
    expect(serverMessageOf({ op: 0, t: 'MESSAGE_CREATE', d: { id: '1', channel_id: '2', content: 'gm', author } })).toBeNull();
    expect(serverMessageOf({ op: 0, t: 'GUILD_CREATE', d: { id: '3' } })).toBeNull();
    expect(serverMessageOf(null)).toBeNull();
  });
});

describe('SessionWrites', () => {
  const session = (sessionId: string, sequence: number): GatewaySession => ({
    sessionId,
    sequence,
    resumeURL: 'wss://gateway.example',
    shardId: 3,
    shardCount: 4,
  });

  it('writes a new session at once, then only the latest sequence within the second, and a close at once', async () => {
    const coordination = new MemoryCoordination();
    const writes = new SessionWrites(3, coordination, silentLogger, 60_000);
    writes.offer(session('a', 1));
    for (let sequence = 2; sequence <= 50; sequence++) writes.offer(session('a', sequence));
    await writes.settled();
    expect(coordination.written.map((written) => written?.sequence)).toEqual([1, 50]);

    writes.offer(session('a', 51));
    writes.offer(null);
    await writes.settled();
    expect(coordination.written.slice(2)).toEqual([null]);
    writes.offer(session('b', 1));
    await writes.settled();
    expect(coordination.written.at(-1)).toEqual(session('b', 1));
  });

  it('writes only what a RESUME needs, and logs a failing store once', async () => {
    const lines: string[] = [];
    let fail = true;
    const seen: Array<GatewaySession | null> = [];
    const writes = new SessionWrites(
      0,
      {
        writeSession: async (_shard, written) => {
          if (fail) throw new Error('database away');
          seen.push(written);
        },
      },
      createLogger('info', { write: (line: string) => void lines.push(line) }),
      0,
    );
    writes.offer(session('a', 1));
    await writes.settled();
    writes.offer(session('a', 2));
    await writes.settled();
    expect(lines.filter((line) => line.includes('discord session not stored'))).toHaveLength(1);
    fail = false;
    writes.offer({ ...session('a', 3), ...{ extra: 'not stored' } });
    await writes.settled();
    expect(seen).toEqual([session('a', 3)]);
    expect(lines.filter((line) => line.includes('discord session stored again'))).toHaveLength(1);
  });
});

describe('ClusterIdentifyThrottler', () => {
  it('asks the coordination for one shard of a bucket at a time, by shard id % max_concurrency', async () => {
    const asked: number[] = [];
    const permits: Array<() => void> = [];
    const throttler = new ClusterIdentifyThrottler(
      2,
      {
        waitForIdentify: (bucket) => {
          asked.push(bucket);
          return new Promise<void>((resolve) => permits.push(resolve));
        },
      },
      silentLogger,
    );
    const signal = new AbortController().signal;
    const through: number[] = [];
    const waits = [0, 2, 1, 4].map((shard) => throttler.waitForIdentify(shard, signal).then(() => through.push(shard)));
    // Shards 0, 2 and 4 share bucket 0: only the first asks; shard 1 asks for bucket 1 at once.
    await vi.waitFor(() => expect(asked).toEqual([0, 1]));
    permits[0]!();
    await vi.waitFor(() => expect(asked).toEqual([0, 1, 0]));
    expect(through).toEqual([0]);
    permits[1]!();
    permits[2]!();
    await vi.waitFor(() => expect(asked).toEqual([0, 1, 0, 0]));
    permits[3]!();
    await Promise.all(waits);
    expect(through).toEqual([0, 1, 2, 4]);
  });

  it('gives up a wait when its shard closes, in the line or at the coordination', async () => {
    const asked: number[] = [];
    const throttler = new ClusterIdentifyThrottler(
      1,
      {
        waitForIdentify: (bucket, signal) => {
          asked.push(bucket);
          return new Promise<void>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
        },
      },
      silentLogger,
    );
    const first = new AbortController();
    const second = new AbortController();
    const firstWait = throttler.waitForIdentify(0, first.signal);
    const secondWait = throttler.waitForIdentify(1, second.signal);
    await vi.waitFor(() => expect(asked).toEqual([0]));
    second.abort(new Error('shard 1 closed'));
    await expect(secondWait).rejects.toThrow('shard 1 closed');
    // The first still holds the line: a third waits behind it, and asks once the first gave up.
    const third = new AbortController();
    const thirdWait = throttler.waitForIdentify(2, third.signal);
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toEqual([0]);
    first.abort(new Error('shard 0 closed'));
    await expect(firstWait).rejects.toThrow('shard 0 closed');
    await vi.waitFor(() => expect(asked).toEqual([0, 0]));
    third.abort(new Error('shard 2 closed'));
    await expect(thirdWait).rejects.toThrow('shard 2 closed');
  });

  it('paces a bucket in this process when the coordination fails, and says so', async () => {
    const lines: string[] = [];
    const throttler = new ClusterIdentifyThrottler(
      1,
      {
        waitForIdentify: async () => {
          throw new Error('database away');
        },
      },
      createLogger('info', { write: (line: string) => void lines.push(line) }),
    );
    await throttler.waitForIdentify(0, new AbortController().signal);
    expect(lines.filter((line) => line.includes('paced in this process only'))).toHaveLength(1);
    // The next one in the bucket waits for the 5 seconds: a shard that closes meanwhile gives up.
    const closed = new AbortController();
    const second = throttler.waitForIdentify(0, closed.signal);
    await vi.waitFor(() => expect(lines.filter((line) => line.includes('paced in this process only'))).toHaveLength(2));
    closed.abort(new Error('shard closed'));
    await expect(second).rejects.toThrow();
  });
});
