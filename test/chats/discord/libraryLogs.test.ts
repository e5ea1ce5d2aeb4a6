/**
 * What discord.js reports about its gateway reaches the bot's log as JSON lines, without the
 * token: the real client against the local fake Discord, which ends the session the way Discord
 * does when the bot asks for an intent it was not granted (close code 4014).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startDiscordChat } from '../../../src/chats/discord/start';
import { Dispatcher } from '../../../src/dispatch/dispatcher';
import { loadCommands } from '../../../src/dispatch/registry';
import { createLogger } from '../../../src/log';
import { MarketClient } from '../../../src/market/client';
import { QueryService } from '../../../src/query/service';
import { openSqliteStore } from '../../../src/store/sqliteStore';
import { FakeDiscord, nextSnowflake } from '../../support/discord/fakeDiscord';

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAwNw.GlogsX.libraryLogsToken0123456789abcdef';
const APP_ID = nextSnowflake();
const GUILD = nextSnowflake();

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('discord.js errors in the log', () => {
  it('a gateway error (Discord ends the session: disallowed intents) is one JSON log line, token-free', async () => {
    const fake = await FakeDiscord.start({
      appId: APP_ID,
      token: TOKEN,
      guilds: [{ id: GUILD, name: 'Server', channels: [{ id: nextSnowflake(), name: 'general' }] }],
    });
    cleanups.push(() => fake.close());
    const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-discord-logs-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const store = openSqliteStore(join(dir, 'tokenwatch.db'));
    cleanups.push(() => store.close());
    // No command runs here: the client is never asked.
    const market = new MarketClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused-key' });
    cleanups.push(() => market.close());
    const dispatcher = new Dispatcher({
      commands: await loadCommands(),
      services: { query: new QueryService(market) },
      actionKeys: store.actionKeys,
      logger: createLogger('silent'),
    });

    const lines: string[] = [];
    const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
    const chat = await startDiscordChat({ token: TOKEN, appId: APP_ID, restApi: fake.restApi, dispatcher, store, logger });
    cleanups.push(() => chat.stop());

    fake.closeGateway(4014, 'Disallowed intent(s).');
    await vi.waitFor(() => expect(lines.some((line) => line.includes('discord gateway error'))).toBe(true), {
      timeout: 10_000,
      interval: 20,
    });

    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const gateway = parsed.filter((line) => line.msg === 'discord gateway error');
    expect(gateway).toHaveLength(1);
    expect(gateway[0]).toMatchObject({ level: 50, shard: 0, err: { message: 'Used disallowed intents' } });
    for (const line of lines) expect(line).not.toContain(TOKEN);
  }, 30_000);
});
