/**
 * What grammY reports reaches the bot's log as JSON lines with the real reason and without the
 * token: a setMyCommands refused by a Bot API server that answers in a body of its own (the stock
 * telegram-test-api, which lacks the method), and the runner's failed polls in `npm start` as an
 * operator runs it, after its Bot API went away.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import TelegramServer from 'telegram-test-api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTelegramChat } from '../../../src/chats/telegram/start';
import { Dispatcher } from '../../../src/dispatch/dispatcher';
import { loadCommands } from '../../../src/dispatch/registry';
import { createLogger } from '../../../src/log';
import { MarketClient } from '../../../src/market/client';
import { QueryService } from '../../../src/query/service';
import { openSqliteStore } from '../../../src/store/sqliteStore';
import { tsNode } from '../../support/processes';
import { startBotApi } from '../../support/telegram/botApi';

const TOKEN = '123456789:AAlibrary-logs_token';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-telegram-logs-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The stock telegram-test-api on a free port (its request handler, which its types keep private). */
async function stockBotApi(): Promise<string> {
  const stock = new TelegramServer({ port: 1, host: '127.0.0.1' });
  const server = createServer((stock as unknown as { webServer: RequestListener }).webServer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('grammY errors in the log', () => {
  it('a refused setMyCommands is logged with the reason the server gave', async () => {
    const apiRoot = await stockBotApi();
    const store = openSqliteStore(join(tempDir(), 'tokenwatch.db'));
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
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });

    const chat = await startTelegramChat({ token: TOKEN, apiRoot, dispatcher, store, logger });
    await chat.stop();

    const failed = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'Telegram setMyCommands failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.reason).toMatch(/^API method 'setMyCommands' is not supported\./);
    for (const line of lines) expect(line).not.toContain(TOKEN);
  }, 30_000);

  it('npm start: polls that fail once the Bot API is gone are JSON lines on standard error, without the token', async () => {
    const api = await startBotApi();
    let closed = false;
    cleanups.push(() => (closed ? undefined : api.close()));
    const cwd = tempDir();
    const [command, args] = tsNode('src/main.ts');
    const child = spawn(command, args, {
      cwd,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: cwd,
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_API_ROOT: api.apiRoot,
        TMDS_BASE_URL: 'simulator',
        DATABASE_PATH: join(cwd, 'bot.db'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exit;
    });

    await vi.waitFor(() => expect(stderr).toContain('Telegram chat started'), { timeout: 30_000, interval: 50 });
    await api.close();
    closed = true;
    // Two failed polls, however they are written: the runner kept trying after the first.
    await vi.waitFor(() => expect(stderr.split("'getUpdates' failed").length).toBeGreaterThan(2), { timeout: 20_000, interval: 50 });
    child.kill('SIGTERM');
    expect(await exit).toBe(0);

    const lines = stderr.split('\n').filter((line) => line !== '');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    const polls = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'Telegram getUpdates failed');
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(polls[0]).toMatchObject({ level: 40, reason: "Network request for 'getUpdates' failed!" });
    expect(stderr).not.toContain(TOKEN);
    expect(stdout).not.toContain(TOKEN);
  }, 90_000);
});
