/**
 * SIGTERM as an operator's supervisor sends it (docker stop, systemctl stop), to the bot running as
 * a process of its own on Telegram (the local Bot API), a SQLite file and the simulator: sent while
 * alerts are on their way to Telegram, the bot lets those sends finish, exits 0, and after a
 * restart on the same file every chat has had each alert exactly once. A send that never ends is
 * cut off by SHUTDOWN_TIMEOUT, and goes out after the restart; a second SIGTERM exits at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunningSimulator } from 'tmds-simulator';
import { openSqliteStore } from '../../src/store/sqliteStore';
import { startBotProcess, type BotProcess } from '../support/processes';
import { startBotApi, type FakeBotApi } from '../support/telegram/botApi';
import { KEY, quietSimulator } from './harness';

const TOKEN = '123456789:AAsigterm-test_token';
const GROUPS = ['-1001001', '-1001002', '-1001003', '-1001004'];
const WAIT = { timeout: 30_000, interval: 50 };

/**
 * In front of the local Bot API: while `holding`, each send is kept waiting (counted) until
 * `release()`; everything else, and every send after, passes straight through.
 */
class SendGate {
  holding = false;
  /** Sends held, each with what lets it through. */
  readonly held: Array<{ req: IncomingMessage; pass: () => void }> = [];
  private readonly server: Server;

  constructor(private readonly target: string) {
    this.server = createServer((req, res) => {
      const pass = () => this.forward(req, res);
      if (this.holding && /\/send(Message|Photo)$/.test(req.url ?? '')) {
        this.held.push({ req, pass });
      } else pass();
    });
  }

  /** Held sends whose connection from the bot is still open. */
  heldOpen(): number {
    return this.held.filter(({ req }) => !req.destroyed).length;
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  release(): void {
    this.holding = false;
    for (const { pass } of this.held.splice(0)) pass();
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const upstream = request(`${this.target}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

type Bot = BotProcess;

let sim: RunningSimulator;
let api: FakeBotApi;
let gate: SendGate;
let apiRoot: string;
let dir: string;
let tokens: string[];
const running = new Set<Bot>();

beforeEach(async () => {
  sim = await quietSimulator();
  api = await startBotApi();
  gate = new SendGate(api.apiRoot);
  apiRoot = await gate.listen();
  dir = mkdtempSync(join(tmpdir(), 'tokenwatch-sigterm-'));
  const hostile = new Set(sim.market.hostileTokens());
  tokens = sim.market.tokenAddresses().filter((t) => !hostile.has(t));
});

afterEach(async () => {
  for (const bot of running) {
    if (bot.child.exitCode === null) bot.child.kill('SIGKILL');
    await bot.exit;
  }
  running.clear();
  await gate.close();
  await api.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every group follows these tokens' risk status, written to the file before the bot starts. */
async function follow(addresses: string[]): Promise<void> {
  const store = openSqliteStore(join(dir, 'bot.db'));
  try {
    for (const chatId of GROUPS) {
      for (const address of addresses) {
        await store.follows.upsert({
          chat: { platform: 'telegram', chatId, threadId: null, scopeId: null },
          kind: 'token',
          address,
          label: null,
          options: { events: ['risk-status'], minUsd: 0, thresholdPct: 10, side: 'both' },
          addedBy: 'test',
          now: new Date(),
        });
      }
    }
  } finally {
    await store.close();
  }
}

/** `npm start` on Telegram and the simulator, logging at debug (the watcher's baselines are debug lines). */
function startBot(env: Record<string, string> = {}): Bot {
  const bot = startBotProcess(dir, {
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_API_ROOT: apiRoot,
    TMDS_BASE_URL: sim.baseUrl,
    TMDS_WS_URL: sim.wsUrl,
    TMDS_API_KEY: KEY,
    DATABASE_PATH: join(dir, 'bot.db'),
    RECONCILE_CRON: '0 0 1 1 *',
    TMDS_CACHE_TTL: 'token-data=0',
    LOG_LEVEL: 'debug',
    ...env,
  });
  running.add(bot);
  return bot;
}

/**
 * Started, and on a first start every token followed has its baseline (a change before it would be
 * the baseline itself); a restart compares with the state the first run stored.
 */
async function started(bot: Bot, baselines: number): Promise<void> {
  await vi.waitFor(() => {
    expect(bot.stderr()).toContain('Telegram chat started');
    expect(bot.stderr().split('token baseline set').length - 1).toBeGreaterThanOrEqual(baselines);
  }, WAIT);
}

function flipRisk(token: string): void {
  sim.controls.risk({ tokenAddress: token, riskStatus: sim.market.token(token)?.riskStatus === 'DANGER' ? 'WARNING' : 'DANGER' });
}

/** The alerts each group got about a token, by its symbol on the card. */
function alertsAbout(token: string): Map<string, number> {
  const symbol = sim.market.token(token)?.symbol ?? token;
  const counts = new Map(GROUPS.map((chatId) => [chatId, 0]));
  for (const message of api.sent)
    if (!message.edited && counts.has(message.chatId) && message.text.includes(symbol))
      counts.set(message.chatId, (counts.get(message.chatId) ?? 0) + 1);
  return counts;
}

/**
 * After a restart: a change of `sentinel` reaches every group. Each group's alerts go out in order,
 * so an alert of the first run sent again would have come before it.
 */
async function afterRestart(sentinel: string): Promise<void> {
  const bot = startBot();
  await started(bot, 0);
  flipRisk(sentinel);
  await vi.waitFor(() => expect([...alertsAbout(sentinel).values()]).toEqual(GROUPS.map(() => 1)), WAIT);
  bot.child.kill('SIGTERM');
  expect(await bot.exit).toBe(0);
}

describe('SIGTERM in the middle of delivery', () => {
  it('lets the sends under way finish, exits 0, and after a restart every group has had the alert exactly once', async () => {
    const [first, sentinel] = tokens as [string, string];
    await follow([first, sentinel]);
    const bot = startBot();
    await started(bot, 2);

    gate.holding = true;
    flipRisk(first);
    await vi.waitFor(() => expect(gate.held.length).toBeGreaterThan(0), WAIT);
    bot.child.kill('SIGTERM');
    await vi.waitFor(() => expect(bot.stderr()).toContain('shutting down'), WAIT);
    // The sends in flight reach Telegram only now, while the bot is stopping.
    gate.release();
    expect(await bot.exit).toBe(0);
    const firstRun = [...alertsAbout(first).values()].reduce((sum, count) => sum + count, 0);
    expect(firstRun).toBeGreaterThan(0);

    await afterRestart(sentinel);
    expect([...alertsAbout(first).values()]).toEqual(GROUPS.map(() => 1));
  }, 120_000);

  it('a send that never ends is cut off by SHUTDOWN_TIMEOUT; the alert goes out once after the restart', async () => {
    const [first, sentinel] = tokens.slice(2) as [string, string];
    await follow([first, sentinel]);
    const bot = startBot({ SHUTDOWN_TIMEOUT: '1s' });
    await started(bot, 2);

    gate.holding = true;
    flipRisk(first);
    await vi.waitFor(() => expect(gate.held.length).toBeGreaterThan(0), WAIT);
    bot.child.kill('SIGTERM');
    expect(await bot.exit).toBe(0);
    expect(bot.stderr()).toContain('shutdown timeout reached');
    // The bot's exit and the end of its connections are heard in either order: a send whose
    // connection is still open when let through would still reach Telegram, as a network would
    // deliver a request already on its way. Cut off with the process, it never does.
    await vi.waitFor(() => expect(gate.heldOpen()).toBe(0), WAIT);
    // What was held never reached Telegram; it is let through to a bot that is gone.
    gate.release();
    expect([...alertsAbout(first).values()]).toEqual(GROUPS.map(() => 0));

    await afterRestart(sentinel);
    expect([...alertsAbout(first).values()]).toEqual(GROUPS.map(() => 1));
  }, 120_000);

  it('a second SIGTERM while stopping exits at once', async () => {
    const [first] = tokens.slice(4) as [string];
    await follow([first]);
    const bot = startBot({ SHUTDOWN_TIMEOUT: '10m' });
    await started(bot, 1);

    gate.holding = true;
    flipRisk(first);
    await vi.waitFor(() => expect(gate.held.length).toBeGreaterThan(0), WAIT);
    bot.child.kill('SIGTERM');
    await vi.waitFor(() => expect(bot.stderr()).toContain('shutting down'), WAIT);
    bot.child.kill('SIGTERM');
    // Ten minutes of patience would outlast the test: only the second signal can end it in time.
    expect(await bot.exit).toBe(0);
    gate.release();
  }, 120_000);
});
