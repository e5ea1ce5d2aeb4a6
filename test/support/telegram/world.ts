/**
 * The Telegram chat as it runs, for end-to-end tests: the real grammY bot (startTelegramChat)
 * against the local Bot API (botApi.ts), the Dispatcher with every command of `commands/`, the
 * simulator for market data, the SQLite store on a temporary file, and /status over that store and
 * a stream client of the simulator.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TelegramPace } from '../../../src/chats/telegram/api';
import { startTelegramChat, type RunningTelegramChat, type TelegramChatOptions } from '../../../src/chats/telegram/start';
import type { AnyCommand } from '../../../src/dispatch/command';
import { FollowService } from '../../../src/follows/followService';
import { createStatusSource } from '../../../src/follows/status';
import { Dispatcher } from '../../../src/dispatch/dispatcher';
import { loadCommands } from '../../../src/dispatch/registry';
import { silentLogger } from '../../../src/log';
import { StreamClient } from '../../../src/market/stream';
import { openSqliteStore } from '../../../src/store/sqliteStore';
import type { ActionKeyStore } from '../../../src/store/actionKeys';
import type { Store } from '../../../src/store/store';
import { startTestMarket, TEST_API_KEY, type TestMarket } from '../market';
import { startBotApi, type BotApiOptions, type FakeBotApi } from './botApi';

export const BOT_TOKEN = '123456789:AAtest-token_for-e2e';

/**
 * The world's bot sends without waiting: Telegram's real pace (one message a second per chat)
 * would make every test that asks a chat several things wait for seconds. The default pace has
 * its own test against the local Bot API's pace mode (test/chats/telegram/pace.test.ts).
 */
export const UNPACED: TelegramPace = { overallMinMs: 0, perChatMinMs: 0, perGroup: 1_000_000, groupWindowMs: 60_000 };

export interface TelegramWorld {
  api: FakeBotApi;
  market: TestMarket;
  store: Store;
  dispatcher: Dispatcher;
  chat: RunningTelegramChat;
  commands: AnyCommand[];
  /** What follow changes call, so a test's watcher follows them live. */
  resync: { current: (address: string | null) => Promise<void> };
  close(): Promise<void>;
}

export async function startTelegramWorld(
  options: {
    api?: BotApiOptions;
    chat?: Partial<TelegramChatOptions>;
    extraCommands?: AnyCommand[];
    actionKeys?: ActionKeyStore;
    market?: Parameters<typeof startTestMarket>[0];
  } = {},
): Promise<TelegramWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-telegram-'));
  const market = await startTestMarket(options.market);
  const api = await startBotApi(options.api);
  const store = openSqliteStore(join(dir, 'tokenwatch.db'));
  const commands = [...(await loadCommands()), ...(options.extraCommands ?? [])];
  const resync = { current: async (_address: string | null): Promise<void> => {} };
  const follows = new FollowService({ store, logger: silentLogger, resync: (address) => resync.current(address) });
  const streams = new StreamClient({ wsUrl: market.sim.wsUrl, apiKey: TEST_API_KEY });
  const status = createStatusSource({ store, streams: () => streams.status(), startedAt: Date.now() });
  const dispatcher = new Dispatcher({
    commands,
    services: { query: market.query, chatSettings: store.chats, follows, status },
    actionKeys: options.actionKeys ?? store.actionKeys,
    logger: silentLogger,
  });
  const chat = await startTelegramChat({
    token: BOT_TOKEN,
    apiRoot: api.apiRoot,
    dispatcher,
    store,
    logger: silentLogger,
    pace: UNPACED,
    ...options.chat,
  });
  return {
    api,
    market,
    store,
    dispatcher,
    chat,
    commands,
    resync,
    async close() {
      await chat.stop();
      await streams.close();
      await api.close();
      await store.close();
      await market.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
