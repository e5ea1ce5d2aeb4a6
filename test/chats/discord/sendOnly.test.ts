/**
 * The Discord chat by role: a process with `sender` and not `discord` sends Discord alerts over
 * REST and opens no gateway connection; one with `discord` runs the gateway; one with neither
 * starts nothing for Discord. Against the fake Discord, which counts its gateway sockets.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field, type Card } from '../../../src/cards/card';
import { discordPlatform, type DiscordChatDeps, type RunningDiscordChat } from '../../../src/chats/discord/chatStarter';
import { platformStarter } from '../../../src/chats/platform';
import { loadConfig } from '../../../src/config';
import { Dispatcher } from '../../../src/dispatch/dispatcher';
import { loadCommands } from '../../../src/dispatch/registry';
import { silentLogger } from '../../../src/log';
import { MarketClient } from '../../../src/market/client';
import type { ChatRef } from '../../../src/model/chat';
import type { Role } from '../../../src/model/roles';
import { QueryService } from '../../../src/query/service';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqliteStore';
import { FakeDiscord, nextSnowflake } from '../../support/discord/fakeDiscord';
import { TEST_API_KEY } from '../../support/market';

/** The Discord chat as the app starts it for a process's roles, or null (neither the discord nor the sender role). */
async function discordChat(deps: DiscordChatDeps): Promise<RunningDiscordChat | null> {
  return (await platformStarter(discordPlatform)(deps)) as RunningDiscordChat | null;
}

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAwOQ.GsendX.sendOnlyTestToken0123456789abc';
const APP_ID = nextSnowflake();
const GUILD = nextSnowflake();
const CHANNEL = nextSnowflake();

let fake: FakeDiscord;
let dir: string;
let store: SqliteStore;
let query: QueryService;
let deps: Omit<DiscordChatDeps, 'roles'>;

beforeAll(async () => {
  fake = await FakeDiscord.start({
    appId: APP_ID,
    token: TOKEN,
    guilds: [{ id: GUILD, name: 'Server', channels: [{ id: CHANNEL, name: 'alerts' }] }],
  });
  dir = mkdtempSync(join(tmpdir(), 'tokenwatch-send-only-'));
  store = openSqliteStore(join(dir, 'tokenwatch.db'));
  // No command runs here: a client that is never asked stands in for the market.
  query = new QueryService(new MarketClient({ baseUrl: 'http://127.0.0.1:9', apiKey: TEST_API_KEY }));
  const dispatcher = new Dispatcher({
    commands: await loadCommands(),
    services: { query },
    actionKeys: store.actionKeys,
    logger: silentLogger,
  });
  const config = loadConfig({ DISCORD_TOKEN: TOKEN, DISCORD_APP_ID: APP_ID, DISCORD_REST_API: fake.restApi, TMDS_BASE_URL: 'simulator' });
  deps = { config, logger: silentLogger, dispatcher, store };
});
afterAll(async () => {
  await query.client.close();
  await store.close();
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const chat: ChatRef = { platform: 'discord', chatId: CHANNEL, threadId: null, scopeId: GUILD };
const card: Card = { title: 'Price moved', color: 'info', fields: [field('Change', '+12%')], actions: [] };
const roles = (...names: Role[]): ReadonlySet<Role> => new Set(names);

describe('the Discord chat by role', () => {
  it('with sender and not discord: sends an alert over REST, with no gateway socket', async () => {
    const running = await discordChat({ ...deps, roles: roles('sender', 'watcher') });
    expect(running).not.toBeNull();
    const sendOnly = running!;
    try {
      expect(sendOnly.name).toBe('discord');
      expect(sendOnly.shards()).toEqual([]);
      expect(sendOnly.connected()).toBe(true);
      expect(await sendOnly.sender.send(chat, card, [], 'tw7')).toEqual({ status: 'sent' });
      expect(fake.channelMessages(CHANNEL)).toHaveLength(1);
      expect(fake.channelMessages(CHANNEL)[0]?.body).toMatchObject({ nonce: 'tw7', enforce_nonce: true });
      expect(sendOnly.requests()['200']).toBe(1);
      expect(fake.gatewayConnections).toBe(0);
      expect(fake.requests.filter((request) => request.path.startsWith('/gateway'))).toEqual([]);
    } finally {
      await sendOnly.stop();
    }
  });

  it('with neither discord nor sender: nothing', async () => {
    expect(await discordChat({ ...deps, roles: roles('watcher', 'telegram') })).toBeNull();
    expect(fake.gatewayConnections).toBe(0);
  });

  it('with discord: the gateway', async () => {
    const running = await discordChat({ ...deps, roles: roles('discord') });
    try {
      expect(running?.connected()).toBe(true);
      expect(running?.shards().map((shard) => shard.state)).toEqual(['ready']);
      expect(fake.gatewayConnections).toBe(1);
    } finally {
      await running?.stop();
    }
  });
});
