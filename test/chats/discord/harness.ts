/**
 * The Discord chat end to end: the real discord.js client against the local fake Discord, the
 * real Dispatcher with the real commands over the simulator, and the real SQLite store on a
 * temporary file. Two servers, so scoping between them can be checked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { field, type Card } from '../../../src/cards/card';
import { startDiscordChat, type DiscordChat } from '../../../src/chats/discord/start';
import { defineCommand, type AnyCommand } from '../../../src/dispatch/command';
import { Dispatcher } from '../../../src/dispatch/dispatcher';
import { loadCommands } from '../../../src/dispatch/registry';
import { createLogger, type Logger } from '../../../src/log';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqliteStore';
import { FakeDiscord, nextSnowflake } from '../../support/discord/fakeDiscord';
import { startTestMarket, type TestMarket } from '../../support/market';

export const TOKEN = 'FAKE.bot-token.1234567890abcdefghij';
export const APP_ID = nextSnowflake();
export const GUILD = nextSnowflake();
export const OTHER_GUILD = nextSnowflake();
export const CHANNEL = nextSnowflake();
export const ALERT_CHANNEL = nextSnowflake();
export const GONE_CHANNEL = nextSnowflake();
export const OTHER_CHANNEL = nextSnowflake();

/**
 * Commands a test needs with a policy the shipped set may not carry yet: a slow one (deferred at
 * once) and a failing slow one. A `track` stand-in needing a manager is added when `commands/`
 * has none, so the permission path is tested either way.
 */
function testCommands(shipped: readonly AnyCommand[]): AnyCommand[] {
  const extra: AnyCommand[] = [
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
  if (!shipped.some((command) => command.name === 'track')) {
    extra.push(
      defineCommand({
        name: 'track',
        description: 'Follow a token in this channel',
        help: 'Follows a token.',
        manager: true,
        options: [{ name: 'address', type: 'address', description: 'Token address', required: true }] as const,
        run: async (args): Promise<Card> => ({ title: 'Tracking', color: 'info', fields: [field('Token', args.address)], actions: [] }),
      }),
    );
  }
  // The token card refreshes in place, whether or not the shipped definition asks for it yet.
  return [...shipped.map((command) => (command.name === 'token' ? { ...command, refresh: true as const } : command)), ...extra];
}

export interface Harness {
  market: TestMarket;
  fake: FakeDiscord;
  store: SqliteStore;
  dispatcher: Dispatcher;
  chat: DiscordChat;
  logger: Logger;
  logLines: string[];
  close(): Promise<void>;
}

export async function startHarness(options: { deferAfterMs?: number } = {}): Promise<Harness> {
  const market = await startTestMarket({ simulator: { control: true } });
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-discord-'));
  const store = openSqliteStore(join(dir, 'tokenwatch.db'));
  const logLines: string[] = [];
  const logger = createLogger('debug', { write: (line: string) => void logLines.push(line) });
  const commands = testCommands(await loadCommands());
  const dispatcher = new Dispatcher({ commands, services: { query: market.query }, actionKeys: store.actionKeys, logger });
  const fake = await FakeDiscord.start({
    appId: APP_ID,
    token: TOKEN,
    guilds: [
      { id: GUILD, name: 'Server one', channels: [{ id: CHANNEL, name: 'lookups' }, { id: ALERT_CHANNEL, name: 'alerts' }, { id: GONE_CHANNEL, name: 'gone' }] },
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
    deferAfterMs: options.deferAfterMs,
  });
  return {
    market,
    fake,
    store,
    dispatcher,
    chat,
    logger,
    logLines,
    async close() {
      await chat.stop();
      await fake.close();
      await store.close();
      await market.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
