/**
 * Discord shards in one process: the real discord.js against the local fake Discord recommending
 * four shards with max_concurrency 2, one server on each shard, and the real Dispatcher, store,
 * watcher and delivery over the simulator. Every shard's server is answered, an alert reaches a
 * server of shard 3, /status lists the shards, commands are registered once; a shard Discord
 * closes with 4011 stops start-up with one line saying what to do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIEmbed } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertCard } from '../../../src/alerts/alertCard';
import { startDiscordChat, type DiscordChat } from '../../../src/chats/discord/start';
import { createDelivery, type Delivery } from '../../../src/delivery/delivery';
import { Dispatcher } from '../../../src/dispatch/dispatcher';
import { loadCommands } from '../../../src/dispatch/registry';
import { FollowService } from '../../../src/follows/followService';
import { createStatusSource } from '../../../src/follows/status';
import { createLogger } from '../../../src/log';
import { MarketClient } from '../../../src/market/client';
import { StreamClient } from '../../../src/market/stream';
import { QueryService } from '../../../src/query/service';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqliteStore';
import { createWatcher, type Watcher } from '../../../src/watch/watcher';
import {
  FakeDiscord,
  MANAGE_CHANNELS,
  guildShard,
  nextSnowflake,
  snowflakeInShard,
  type FakeMessage,
} from '../../support/discord/fakeDiscord';
import { startTestMarket, TEST_API_KEY, type TestMarket } from '../../support/market';

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAwOA.GshrdX.shardsTestToken0123456789abcdef';
const APP_ID = nextSnowflake();
const SHARDS = 4;
/** One server on each shard, each with one channel. */
const SERVERS = Array.from({ length: SHARDS }, (_, shard) => ({ id: snowflakeInShard(shard, SHARDS), channel: nextSnowflake(), shard }));

function embedOf(message: FakeMessage): APIEmbed {
  const embeds = message.body.embeds as APIEmbed[] | undefined;
  const embed = embeds?.[0];
  if (embed === undefined) throw new Error('no embed in the message');
  return embed;
}

function embedText(message: FakeMessage): string {
  const embed = embedOf(message);
  return [embed.title, embed.description, ...(embed.fields ?? []).map((field) => `${field.name}: ${field.value}`)].join('\n');
}

describe('four shards in one process', () => {
  let market: TestMarket;
  let dir: string;
  let store: SqliteStore;
  let streams: StreamClient;
  let watcher: Watcher;
  let fake: FakeDiscord;
  let chat: DiscordChat;
  let delivery: Delivery;
  const logLines: string[] = [];

  beforeAll(async () => {
    market = await startTestMarket({ simulator: { control: true }, client: { cacheTtlMs: { 'token-data': 0 } } });
    dir = mkdtempSync(join(tmpdir(), 'tokenwatch-shards-'));
    store = openSqliteStore(join(dir, 'tokenwatch.db'));
    const logger = createLogger('debug', { write: (line: string) => void logLines.push(line) });
    streams = new StreamClient({ wsUrl: market.sim.wsUrl, apiKey: TEST_API_KEY, subscriptionsPerSocket: 'auto' });
    watcher = createWatcher({ store, streams, logger });
    const follows = new FollowService({ store, resync: (address) => watcher.resync(address ?? undefined), logger });
    let running: DiscordChat | null = null;
    const status = createStatusSource({
      store,
      streams: () => streams.status(),
      startedAt: Date.now(),
      shards: () => running?.shards() ?? null,
    });
    const dispatcher = new Dispatcher({
      commands: await loadCommands(),
      services: { query: market.query, follows, status },
      actionKeys: store.actionKeys,
      logger,
    });
    fake = await FakeDiscord.start({
      appId: APP_ID,
      token: TOKEN,
      shards: SHARDS,
      maxConcurrency: 2,
      guilds: SERVERS.map((server) => ({
        id: server.id,
        name: `Server on shard ${server.shard}`,
        channels: [{ id: server.channel, name: 'general' }],
      })),
    });
    chat = await startDiscordChat({
      token: TOKEN,
      appId: APP_ID,
      guildId: SERVERS[0]!.id,
      registerOnStart: true,
      restApi: fake.restApi,
      dispatcher,
      store,
      logger,
    });
    running = chat;
    delivery = createDelivery({
      store,
      senders: [chat.sender],
      buttonsFor: (card, to) => dispatcher.buttonsFor(card, to),
      alertCard,
      logger,
      pollMs: 200,
    });
    watcher.onAlerts(() => delivery.notify());
    await watcher.start();
    delivery.start();
  }, 60_000);

  afterAll(async () => {
    await delivery.stop();
    await watcher.close();
    await streams.close();
    await chat.stop();
    await fake.close();
    await store.close();
    await market.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('identifies the four shards Discord recommends, paced by max_concurrency, and registers the commands once', () => {
    expect(SERVERS.map((server) => guildShard(server.id, SHARDS))).toEqual([0, 1, 2, 3]);
    expect(fake.identifyLog.map((seen) => seen.shard).sort()).toEqual([0, 1, 2, 3]);
    expect(fake.identifyLog.every((seen) => seen.count === SHARDS)).toBe(true);
    // Two buckets (max_concurrency 2): shards 0 and 1 at once, 2 and 3 once their bucket's five seconds passed.
    expect(fake.identifyViolations).toBe(0);
    expect(new Set(fake.identifyLog.slice(0, 2).map((seen) => seen.shard))).toEqual(new Set([0, 1]));
    const registrations = fake.requests.filter((request) => request.method === 'PUT' && request.path.endsWith('/commands'));
    expect(registrations).toHaveLength(1);
    expect(chat.client.guilds.cache.map((guild) => guild.shardId).sort()).toEqual([0, 1, 2, 3]);
  });

  it('answers /token in a server of each shard', async () => {
    const token = market.sim.market.tokenAddresses()[0] ?? '';
    const card = await market.query.token(token);
    const interactions = SERVERS.map((server) =>
      fake.slashCommand('token', { address: token }, { guildId: server.id, channelId: server.channel }),
    );
    for (const interaction of interactions) expect(embedOf(await fake.answerTo(interaction)).title).toBe(card.title);
  });

  it('/status lists the shards and their state', async () => {
    const server = SERVERS[2]!;
    const answer = await fake.answerTo(fake.slashCommand('status', {}, { guildId: server.id, channelId: server.channel }));
    const text = embedText(answer);
    for (let shard = 0; shard < SHARDS; shard++) expect(text).toContain(`#${shard} ready, 1 server`);
  });

  it('delivers an alert to a channel in a server of shard 3', async () => {
    const server = SERVERS[3]!;
    const hostile = new Set(market.sim.market.hostileTokens());
    const address = market.listing.tokens.filter((token) => !hostile.has(token.address))[2]?.address ?? '';
    const tracked = await fake.answerTo(
      fake.slashCommand(
        'track',
        { address, events: 'risk' },
        { guildId: server.id, channelId: server.channel, permissions: MANAGE_CHANNELS },
        'token',
      ),
    );
    expect(tracked.ephemeral).toBe(false);
    await fake.until(
      () => logLines.some((line) => line.includes('"token baseline set"') && line.includes(address)),
      15_000,
      'the baseline',
    );
    await watcher.idle();
    const to = market.sim.market.token(address)?.riskStatus === 'DANGER' ? 'SAFE' : 'DANGER';
    market.sim.controls.risk({ tokenAddress: address, riskStatus: to });
    await fake.until(() => fake.channelMessages(server.channel).length >= 1, 15_000, 'the alert in the shard-3 channel');
    expect(JSON.stringify(embedOf(fake.channelMessages(server.channel)[0]!))).toContain(to);
  });
});

describe('a shard Discord closes with 4011', () => {
  it('stops start-up with one line naming what to do', async () => {
    const servers = [snowflakeInShard(0, 1), snowflakeInShard(0, 1), snowflakeInShard(0, 1)];
    const fake = await FakeDiscord.start({
      appId: APP_ID,
      token: TOKEN,
      maxGuildsPerShard: 2,
      guilds: servers.map((id) => ({ id, name: 'Server', channels: [] })),
    });
    const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-4011-'));
    const store = openSqliteStore(join(dir, 'tokenwatch.db'));
    // No command runs here: a client that is never asked stands in for the market.
    const query = new QueryService(new MarketClient({ baseUrl: 'http://127.0.0.1:9', apiKey: TEST_API_KEY }));
    try {
      const lines: string[] = [];
      const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
      const dispatcher = new Dispatcher({ commands: await loadCommands(), services: { query }, actionKeys: store.actionKeys, logger });
      const started = startDiscordChat({
        token: TOKEN,
        appId: APP_ID,
        restApi: fake.restApi,
        dispatcher,
        store,
        logger,
        shards: { ids: [0], count: 1 },
      });
      await expect(started).rejects.toThrow(
        /^Discord closed shard 0 with 4011 \(sharding required\) and will not take it back: .*run more shards, with DISCORD_SHARDS=auto/,
      );
      expect(fake.shardingRequired).toEqual([0]);
      const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const told = parsed.filter((line) => String(line.msg).startsWith('Discord closed shard 0 with 4011'));
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ level: 50, shard: 0, code: 4011 });
      expect(lines.join('\n')).not.toContain(TOKEN);
    } finally {
      await query.client.close();
      await store.close();
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
