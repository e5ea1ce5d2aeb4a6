/**
 * Telegram's webhook served by two processes of one bot (TOKENWATCH_ROLES=telegram) behind a load
 * balancer, as the README's "Running several processes" sets it up: both register the same address
 * with the one TELEGRAM_WEBHOOK_SECRET, neither polls nor removes the webhook, and every update,
 * whichever process the balancer hands it to, is answered once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { RunningSimulator } from 'tmds-simulator';
import '../support/postgres/provided';
import { freshDatabase } from '../support/postgres/databases';
import { freePort, startBotProcess, type BotProcess } from '../support/processes';
import { startBotApi, type FakeBotApi } from '../support/telegram/botApi';
import { KEY, quietSimulator } from './harness';

const TOKEN = '123456789:AAcluster-webhook_token';
const SECRET = 'one-shared-secret_27';
const WAIT = { timeout: 60_000, interval: 50 };

const shared = inject('postgres');

/** Round robin over the processes' webhook ports: each post goes to the next one, counted. */
class Balancer {
  readonly handled: number[];
  private next = 0;
  private readonly server: Server;

  constructor(private readonly backends: number[]) {
    this.handled = backends.map(() => 0);
    this.server = createServer((req, res) => this.forward(req, res));
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const index = this.next;
    this.next = (this.next + 1) % this.backends.length;
    const upstream = request(
      { host: '127.0.0.1', port: this.backends[index], path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        if ((answer.statusCode ?? 500) < 300) this.handled[index] = (this.handled[index] ?? 0) + 1;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe.runIf(shared.adminUrl !== null)('Telegram’s webhook served by two processes', () => {
  let sim: RunningSimulator;
  let api: FakeBotApi;
  let balancer: Balancer;
  let dir: string;
  let drop: () => Promise<void>;
  const bots: BotProcess[] = [];

  beforeAll(async () => {
    if (shared.adminUrl === null) return;
    const database = await freshDatabase(shared.adminUrl);
    drop = database.drop;
    sim = await quietSimulator();
    api = await startBotApi();
    dir = mkdtempSync(join(tmpdir(), 'tokenwatch-webhook-'));
    const ports = [await freePort(), await freePort()];
    balancer = new Balancer(ports);
    const url = `http://127.0.0.1:${await balancer.listen()}/telegram/hook`;
    for (const port of ports) {
      bots.push(
        startBotProcess(dir, {
          TOKENWATCH_ROLES: 'telegram',
          DATABASE_URL: database.url,
          TELEGRAM_BOT_TOKEN: TOKEN,
          TELEGRAM_API_ROOT: api.apiRoot,
          TELEGRAM_WEBHOOK_URL: url,
          TELEGRAM_WEBHOOK_SECRET: SECRET,
          TELEGRAM_WEBHOOK_PORT: String(port),
          TMDS_BASE_URL: sim.baseUrl,
          TMDS_API_KEY: KEY,
          LOG_LEVEL: 'info',
        }),
      );
    }
    await vi.waitFor(() => {
      for (const bot of bots) expect(bot.stderr()).toContain('joined the bot as one of its processes');
    }, WAIT);
  }, 90_000);

  afterAll(async () => {
    for (const bot of bots) {
      if (bot.child.exitCode === null) bot.child.kill('SIGTERM');
      await bot.exit;
    }
    await balancer?.close();
    await api?.close();
    await sim?.close();
    await drop?.();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('answers every update once, whichever process gets it, and nobody polls', async () => {
    expect(api.webhook).toEqual({ url: expect.stringContaining('/telegram/hook'), secretToken: SECRET });
    const users = Array.from({ length: 6 }, (_, index) => api.user(8_100 + index));
    const asked = users.map((user) => ({ user, messageId: api.sendText({ chat: api.privateChat(user), from: user, text: '/help' }) }));
    await vi.waitFor(() => {
      for (const { user, messageId } of asked)
        expect(api.messagesIn(user.id).filter((message) => message.replyTo === messageId)).toHaveLength(1);
    }, WAIT);
    // Both processes answered some: the secret is the same in each.
    expect(balancer.handled.every((count) => count > 0)).toBe(true);
    expect(api.calls.get('getUpdates') ?? 0).toBe(0);
    expect(api.calls.get('deleteWebhook') ?? 0).toBe(0);
    for (const bot of bots) expect(bot.stderr()).not.toContain('Telegram webhook request failed');
  }, 90_000);
});
