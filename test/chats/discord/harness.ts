/**
 * The Discord chat end to end: the real discord.js client against the local fake Discord, the
 * real Dispatcher with the real commands over the simulator, the real SQLite store on a temporary
 * file, and the real watcher and delivery, so an alert made with the simulator's controls travels
 * the whole way to a channel. Two servers, so scoping between them can be checked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alertCard } from '../../../src/alerts/alertCard';
import { field, type Card } from '../../../src/cards/card';
import { startDiscordChat, type DiscordChat } from '../../../src/chats/discord/start';
import { createDelivery, type Delivery } from '../../../src/delivery/delivery';
import { FollowService } from '../../../src/follows/followService';
import { defineCommand, type AnyCommand } from '../../../src/dispatch/command';
import { Dispatcher } from '../../../src/dispatch/dispatcher';
import { loadCommands } from '../../../src/dispatch/registry';
import { createLogger, type Logger } from '../../../src/log';
import { StreamClient } from '../../../src/market/stream';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqliteStore';
import { createWatcher, type Watcher } from '../../../src/watch/watcher';
import { FakeDiscord, nextSnowflake } from '../../support/discord/fakeDiscord';
import { startTestMarket, TEST_API_KEY, type TestMarket } from '../../support/market';

export const TOKEN = 'FAKE.bot-token.1234567890abcdefghij';
export const APP_ID = nextSnowflake();
export const GUILD = nextSnowflake();
export const OTHER_GUILD = nextSnowflake();
export const CHANNEL = nextSnowflake();
export const ALERT_CHANNEL = nextSnowflake();
export const GONE_CHANNEL = nextSnowflake();
export const OTHER_CHANNEL = nextSnowflake();

/** Two commands a test needs that the shipped set has no reason to carry: a slow answer and a slow failure. */
const TEST_COMMANDS: AnyCommand[] = [
  defineCommand({
    name: 'slowcard',
    description: 'A slow answer',
    help: 'Answers after a while.',
    slow: true,
    options: [],
    run: async (): Promise<Card> => ({ title: 'Slow answer', color: 'info', fields: [field('Took', 'a while')], actions: [] }),
  }),
  defineCommand({
    name: 'slowfail',
    description: 'A slow failure',
    help: 'Fails after a while.',
    slow: true,
    options: [],
    run: async (): Promise<Card> => {
      throw new Error('disk on fire at /srv/secret/path');
    },
  }),
];

export interface Harness {
  market: TestMarket;
  fake: FakeDiscord;
  store: SqliteStore;
  dispatcher: Dispatcher;
  chat: DiscordChat;
  watcher: Watcher;
  delivery: Delivery;
  logger: Logger;
  logLines: string[];
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const market = await startTestMarket({ simulator: { control: true }, client: { cacheTtlMs: { 'token-data': 0 } } });
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-discord-'));
  const store = openSqliteStore(join(dir, 'tokenwatch.db'));
  const logLines: string[] = [];
  const logger = createLogger('debug', { write: (line: string) => void logLines.push(line) });
  const streams = new StreamClient({
    wsUrl: market.sim.wsUrl,
    apiKey: TEST_API_KEY,
    heartbeatMs: 1_000,
    reconnectBaseMs: 50,
    reconnectMaxMs: 200,
  });
  const watcher = createWatcher({ store, streams, logger, describeToken: (address) => market.client.token(address) });
  const follows = new FollowService({ store, resync: (address) => watcher.resync(address ?? undefined), logger });
  const commands = [...(await loadCommands()), ...TEST_COMMANDS];
  const dispatcher = new Dispatcher({ commands, services: { query: market.query, follows }, actionKeys: store.actionKeys, logger });
  const fake = await FakeDiscord.start({
    appId: APP_ID,
    token: TOKEN,
    guilds: [
      {
        id: GUILD,
        name: 'Server one',
        channels: [
          { id: CHANNEL, name: 'lookups' },
          { id: ALERT_CHANNEL, name: 'alerts' },
          { id: GONE_CHANNEL, name: 'gone' },
        ],
      },
      { id: OTHER_GUILD, name: 'Server two', channels: [{ id: OTHER_CHANNEL, name: 'general' }] },
    ],
  });
  const chat = await startDiscordChat({
    token: TOKEN,
    appId: APP_ID,
    guildId: GUILD,
    registerOnStart: true,
    restApi: fake.restApi,
    dispatcher,
    store,
    logger,
    onPausesChanged: () => void watcher.resync(),
  });
  const delivery = createDelivery({
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
  return {
    market,
    fake,
    store,
    dispatcher,
    chat,
    watcher,
    delivery,
    logger,
    logLines,
    async close() {
      await delivery.stop();
      await watcher.close();
      await streams.close();
      await chat.stop();
      await fake.close();
      await store.close();
      await market.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
