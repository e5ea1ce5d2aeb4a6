/**
 * One bot as three processes over one PostgreSQL (two `watcher,sender`, one `telegram`, each with
 * its operators' endpoints) while the server goes away under it, on a server of this file's own:
 *
 * - `pg_ctl restart -m fast` and `pg_ctl restart -m immediate` while alerts flow;
 * - `pg_ctl stop -m immediate`, held until every process's `/readyz` says not ready, then started;
 * - unreachable: every process reaches the server through a black hole (test/support/blackHole.ts),
 *   cut right after an alert reached Telegram and before its sender could record it, and healed once
 *   every process said it lost the database and a watcher's commit gave up (past its 20 s wait and
 *   the leases' 10 s): connections open and silent, as a network partition or a hung server leaves them.
 *
 * Through each, with prices moving all along and a risk change of every token made around it (half
 * of them during the cut): every process reconnects by itself, every change reaches every chat once
 * (none lost, none repeated), the alerts of the changes made while it was away come soon after it
 * accepts connections again (printed per outage), `/readyz` says not ready while it is down and
 * ready after, and each process's log says "lost" and "back" once, and anything else once at most.
 *
 * What it found, each failing it before its fix:
 *
 * - the alert sent just before the cut was sent again after it (`7201 MEBUL: 4 alerts for 3
 *   rounds`): its record could not be written, and the next round claimed and sent the row again.
 *   Delivery now remembers such a send and records it before anything else (outboxDrain.ts); and a
 *   process back from an outage leaves another's sender lease to it for a lease's time
 *   (coordinator.ts), so that the sender that remembers is the one that takes it back;
 * - the notification listener warned at every reconnection attempt, every 5 s while the server
 *   was away (7 lines in 60 s): now once each way (pgNotify.ts).
 *
 * A group's 20 messages a minute once held a round 40 s: the test's own doing (its chats are
 * private ones now), not the product's.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFailed, onTestFinished } from 'vitest';
import type { RunningSimulator } from 'tmds-simulator';
import { startBlackHole, type BlackHole } from '../support/blackHole';
import '../support/postgres/provided';
import { freshDatabase } from '../support/postgres/databases';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../support/postgres/throwaway';
import { freePort, startBotProcess, type BotProcess } from '../support/processes';
import { startBotApi, type FakeBotApi, type TestChat, type TestUser } from '../support/telegram/botApi';
import { KEY, quietSimulator } from './harness';
import { tallyAlerts, until as waitUntil, type Copy, messageCopies, STATUS_CHANGE } from './clusterTally';

const run = promisify(execFile);
const TG_TOKEN = '123456789:AArestart-test_token';
/**
 * Four: a round's alerts to one chat stay fewer than a digest's five, so each is a message of its
 * own. The chats are private ones: a group's 20 messages a minute would hold the rounds back.
 */
const TOKENS = 4;
const WAIT_MS = 60_000;
/** How long the server is unreachable in the last outage. */
/** The most the cut may take to outlast the processes' own waits (a commit's is 20 s), on a loaded machine. */
const OUTAGE_WAIT_MS = 120_000;
/** What the issue asks: alerts again within 15 s of the server accepting connections. Waited for with room for a loaded machine. */
const RESUME_GOAL_S = 15;
const RESUME_WAIT_MS = 45_000;

const LOST = 'database connection lost; commands answer "try again" and commits wait until it is back';
const BACK = 'database connection back';

const shared = inject('postgres');

const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = WAIT_MS): Promise<void> =>
  waitUntil(check, what, timeoutMs);

interface Bot extends BotProcess {
  name: string;
  opsPort: number;
  /** Every /readyz answer since the start: when, and its status (0: no answer). */
  readiness: Array<{ at: number; status: number }>;
}

let server: ThrowawayPostgres;
let hole: BlackHole;
let sim: RunningSimulator;
let api: FakeBotApi;
let db: pg.Client | null = null;
let databaseUrl: string;
let dir: string;
let tokens: string[];
let chats: Array<{ chat: TestChat; user: TestUser }>;
let front: TelegramFront;
const bots: Bot[] = [];

/**
 * The Bot API as the processes reach it: the local one, through a front that can run something (a
 * cut) once an alert has reached Telegram and before the process hears that it did, so that the
 * process has sent an alert it has not yet recorded as delivered.
 */
interface TelegramFront {
  root: string;
  /** Runs `then` after the next alert sent has reached the Bot API, before its answer goes back. */
  afterNextAlert(then: () => void): Promise<void>;
  close(): Promise<void>;
}

async function startTelegramFront(target: string): Promise<TelegramFront> {
  let armed: (() => void) | null = null;
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = request(`${target}${incoming.url ?? '/'}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => parts.push(chunk));
        answer.on('end', () => {
          if (armed !== null && /\/send(Message|Photo)$/.test(incoming.url ?? '') && STATUS_CHANGE.test(body.toString())) {
            const fire = armed;
            armed = null;
            fire();
          }
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          outgoing.end(Buffer.concat(parts));
        });
      });
      forward.on('error', () => outgoing.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    root: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    afterNextAlert: (then) =>
      new Promise<void>((resolve) => {
        armed = () => {
          then();
          resolve();
        };
      }),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function asServerUser(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

/** pg_ctl on this file's server: `restart` and `stop` in a mode, `start` with the options it was started with. */
async function pgCtl(action: 'restart' | 'stop' | 'start', mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
  if (shared.binaries === null) throw new Error('no PostgreSQL binaries');
  const data = join(server.dir, 'data');
  if (action === 'start') return server.startServer();
  const args = ['-D', data, '-m', mode, '-w', action, ...(action === 'restart' ? ['-l', join(server.dir, 'log')] : [])];
  const [file, argv] = asServerUser(shared.binaries.pgCtl, args);
  await run(file, argv);
}

async function startBot(name: string, roles: string): Promise<Bot> {
  const opsPort = await freePort();
  const behind = new URL(databaseUrl);
  behind.host = `127.0.0.1:${hole.port}`;
  behind.search = '';
  const started = startBotProcess(dir, {
    TOKENWATCH_ROLES: roles,
    DATABASE_URL: behind.toString(),
    TELEGRAM_BOT_TOKEN: TG_TOKEN,
    TELEGRAM_API_ROOT: front.root,
    TMDS_BASE_URL: sim.baseUrl,
    TMDS_WS_URL: sim.wsUrl,
    TMDS_API_KEY: KEY,
    HTTP_PORT: String(opsPort),
    // Reconciliation at start, on gaining partitions and after reconnects only: the test decides when the market changes.
    RECONCILE_CRON: '0 0 1 1 *',
    TMDS_CACHE_TTL: 'token-data=0',
    LOG_LEVEL: 'info',
  });
  const bot: Bot = { name, opsPort, readiness: [], ...started };
  bots.push(bot);
  // Asked all along, so that a short outage's "not ready" is seen when there is one to see.
  const ask = setInterval(() => {
    const at = Date.now();
    fetch(`http://127.0.0.1:${opsPort}/readyz`, { signal: AbortSignal.timeout(3_000) })
      .then(async (answer) => {
        await answer.arrayBuffer();
        bot.readiness.push({ at, status: answer.status });
      })
      .catch(() => bot.readiness.push({ at, status: 0 }));
  }, 100);
  void started.exit.then(() => clearInterval(ask));
  return bot;
}

async function joined(bot: Bot): Promise<void> {
  await until(() => bot.stderr().includes('joined the bot as one of its processes'), `${bot.name} to join`);
}

async function ready(bot: Bot): Promise<boolean> {
  const answer = await fetch(`http://127.0.0.1:${bot.opsPort}/readyz`, { signal: AbortSignal.timeout(3_000) }).catch(() => null);
  await answer?.arrayBuffer();
  return answer?.status === 200;
}

function symbolOf(token: string): string {
  return sim.market.token(token)?.symbol ?? token;
}

function flip(some: readonly string[]): void {
  for (const token of some)
    sim.controls.risk({ tokenAddress: token, riskStatus: sim.market.token(token)?.riskStatus === 'DANGER' ? 'WARNING' : 'DANGER' });
}

function flipAll(): void {
  flip(tokens);
}

const alertCopies = (from: number): Map<string, Copy[]> => messageCopies(api.sent, from, tokens, symbolOf);

/** The log lines of `bot` from character `from` on, parsed (a line that is no JSON is kept as its text). */
function logLines(bot: Bot, from: number): Array<Record<string, unknown>> {
  return bot
    .stderr()
    .slice(from)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return { msg: line };
      }
    });
}

async function storedMatchesMarket(): Promise<boolean> {
  const { rows } = await (db as pg.Client).query<{ address: string; snapshot: string }>(
    'SELECT address, snapshot FROM token_state WHERE address = ANY($1)',
    [tokens],
  );
  return (
    rows.length === tokens.length &&
    rows.every((row) => (JSON.parse(row.snapshot) as { riskStatus: string }).riskStatus === sim.market.token(row.address)?.riskStatus)
  );
}

/** The test's own client, made again after each outage (it reaches the server directly, not through the black hole). */
async function connectDb(): Promise<void> {
  await db?.end().catch(() => undefined);
  db = new pg.Client({ connectionString: databaseUrl });
  db.on('error', () => undefined);
  await db.connect();
}

interface Outage {
  name: string;
  /**
   * Takes the server away and brings it back; each token's risk is changed once (`flip`) around
   * it. Resolves with when it accepted connections again.
   */
  run(flip: (some: readonly string[]) => void): Promise<number>;
  /** Whether each /readyz must have said not ready meanwhile (a restart may be over between two asks). */
  notReadySeen: boolean;
}

const OUTAGES: Outage[] = [
  {
    name: 'pg_ctl restart -m fast',
    notReadySeen: false,
    run: async (change) => {
      const restarting = pgCtl('restart', 'fast');
      change(tokens);
      await restarting;
      return Date.now();
    },
  },
  {
    name: 'pg_ctl restart -m immediate',
    notReadySeen: false,
    run: async (change) => {
      const restarting = pgCtl('restart', 'immediate');
      change(tokens);
      await restarting;
      return Date.now();
    },
  },
  {
    name: 'pg_ctl stop -m immediate, started again once every process says not ready',
    notReadySeen: true,
    run: async (change) => {
      await pgCtl('stop', 'immediate');
      change(tokens);
      await until(async () => (await Promise.all(bots.map(ready))).every((ok) => !ok), 'every /readyz saying not ready', 20_000);
      await pgCtl('start');
      return Date.now();
    },
  },
  {
    name: 'unreachable past a commit’s wait, cut while an alert was on its way',
    notReadySeen: true,
    run: async (change) => {
      // Half the changes before the cut: their alerts are being sent when it falls, right after
      // one reached Telegram and before its sender could record it. The other half during the cut.
      const half = Math.ceil(tokens.length / 2);
      const cutting = front.afterNextAlert(() => hole.cut());
      change(tokens.slice(0, half));
      await cutting;
      const cutFrom = new Map(bots.map((bot) => [bot, bot.stderr().length]));
      await until(async () => (await Promise.all(bots.map(ready))).every((ok) => !ok), 'every /readyz saying not ready', 20_000);
      change(tokens.slice(half));
      // Healed once the outage outlasted what the processes wait for: every one has said it lost the
      // database, and a watcher's commit gave up (past its 20 s wait), the case the issue's run found.
      const said = (bot: Bot, test: (msg: string) => boolean) =>
        logLines(bot, cutFrom.get(bot) ?? 0).some((line) => test(String(line.msg)));
      await until(
        () =>
          bots.every((bot) => said(bot, (msg) => msg === LOST)) &&
          bots.some((bot) => said(bot, (msg) => msg.startsWith('could not commit'))),
        'every process losing the database, and a commit giving up',
        OUTAGE_WAIT_MS,
      );
      hole.heal();
      return Date.now();
    },
  },
];

describe.runIf(shared.binaries !== null)('three processes while their PostgreSQL restarts or goes out of reach', () => {
  beforeAll(async () => {
    if (shared.binaries === null) return;
    [server, sim, api] = await Promise.all([startThrowawayPostgres(shared.binaries), quietSimulator(), startBotApi()]);
    front = await startTelegramFront(api.apiRoot);
    databaseUrl = (await freshDatabase(server.url())).url;
    await connectDb();
    const url = new URL(databaseUrl);
    hole = await startBlackHole({ path: join(url.searchParams.get('host') ?? '', `.s.PGSQL.${url.searchParams.get('port') ?? '5432'}`) });
    dir = mkdtempSync(join(tmpdir(), 'tokenwatch-pg-restart-'));
    const hostile = new Set(sim.market.hostileTokens());
    tokens = sim.market
      .tokenAddresses()
      .filter((token) => !hostile.has(token))
      .slice(0, TOKENS);
    chats = [api.user(7201, 'One'), api.user(7202, 'Two')].map((user) => ({ chat: api.privateChat(user), user }));
  }, 60_000);

  afterAll(async () => {
    hole?.heal();
    for (const bot of bots) {
      if (bot.child.exitCode === null) bot.child.kill('SIGKILL');
      await bot.exit;
    }
    await hole?.close();
    await db?.end().catch(() => undefined);
    await front?.close();
    await api?.close();
    await sim?.close();
    await server?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('reconnects by itself, loses and repeats no alert, resumes soon, says not ready while down and once each way in the log', async () => {
    const watchers = [await startBot('watcher-1', 'watcher,sender'), await startBot('watcher-2', 'watcher,sender')];
    const gateway = await startBot('gateway', 'telegram');
    onTestFailed(() => {
      for (const bot of bots)
        process.stdout.write(`--- ${bot.name}: its last log lines\n${bot.stderr().split('\n').slice(-40).join('\n')}\n`);
    });
    await Promise.all(bots.map(joined));
    await until(async () => (await Promise.all(bots.map(ready))).every(Boolean), 'every process ready');

    for (const { chat, user } of chats)
      for (const token of tokens) api.sendText({ chat, from: user, text: `/track token ${token} status` });
    await until(async () => {
      const { rows } = await (db as pg.Client).query<{ n: number }>('SELECT count(*)::int AS n FROM follows');
      return rows[0]?.n === tokens.length * chats.length;
    }, 'every follow stored');
    await until(() => chats.every(({ chat }) => api.messagesIn(chat.id).length >= tokens.length), 'every /track answered');
    await until(() => sim.streams.subscriptionCount('token-feed') === tokens.length, 'one token-feed subscription per token');
    await until(async () => {
      const { rows } = await (db as pg.Client).query<{ n: number }>('SELECT count(*)::int AS n FROM token_state WHERE address = ANY($1)', [
        tokens,
      ]);
      return rows[0]?.n === tokens.length;
    }, 'a baseline for every token');

    const from = api.sent.length;
    let rounds = 0;
    const delivered = (): boolean => {
      const copies = alertCopies(from);
      return chats.every(({ chat }) => tokens.every((token) => (copies.get(`${chat.id}:${token}`)?.length ?? 0) >= rounds));
    };
    // Prices move all along: every process's streams and commits stay busy through each outage.
    let tick = 0;
    const flow = setInterval(() => {
      tick += 1;
      for (const token of tokens) sim.controls.price({ tokenAddress: token, changePct: tick % 2 === 0 ? 1 : -1 });
    }, 200);
    onTestFinished(() => clearInterval(flow));

    flipAll();
    rounds += 1;
    await until(delivered, 'round 1 delivered', 90_000);

    const report: string[] = [];
    for (const outage of OUTAGES) {
      const logFrom = new Map(bots.map((bot) => [bot, bot.stderr().length]));
      const downAt = Date.now();
      const sentBefore = api.sent.length;
      rounds += 1;
      const backAt = await outage.run(flip);
      await until(delivered, `${outage.name}: the changes made while it was away delivered`, RESUME_WAIT_MS);
      const resumeS = (Date.now() - backAt) / 1000;
      const firstAt = api.sent.slice(sentBefore).find((message) => STATUS_CHANGE.test(message.text) && message.at >= backAt)?.at;
      const firstS = firstAt === undefined ? null : (firstAt - backAt) / 1000;
      await until(async () => (await Promise.all(bots.map(ready))).every(Boolean), `${outage.name}: every process ready again`, 30_000);
      const readyAgainS = (Date.now() - backAt) / 1000;
      await connectDb();
      await until(storedMatchesMarket, `${outage.name}: the stored state the market's`, 30_000);
      // One line each way in each process's log: the outage, then its end.
      let notReadySeen = 0;
      for (const bot of bots) {
        const lines = logLines(bot, logFrom.get(bot) ?? 0);
        expect(lines.filter((line) => line.msg === LOST).length, `${outage.name}: ${bot.name}'s "lost" lines`).toBe(1);
        expect(lines.filter((line) => line.msg === BACK).length, `${outage.name}: ${bot.name}'s "back" lines`).toBe(1);
        // Whatever else the outage brings (leases given up, a commit that could not wait) is said once, not at every attempt.
        const said = new Map<string, number>();
        for (const line of lines) if ((line.level as number) >= 40) said.set(String(line.msg), (said.get(String(line.msg)) ?? 0) + 1);
        for (const [msg, count] of said) expect(count, `${outage.name}: ${bot.name} said "${msg}"`).toBe(1);
        if (bot.readiness.some((answer) => answer.at >= downAt && answer.at <= backAt && answer.status !== 200)) notReadySeen += 1;
      }
      if (outage.notReadySeen) expect(notReadySeen, `${outage.name}: processes whose /readyz said not ready while it was down`).toBe(3);
      report.push(
        `${outage.name}: the first alert ${firstS === null ? 'before it was back' : `${firstS.toFixed(1)} s`} and the last ` +
          `${resumeS.toFixed(1)} s after it accepted connections (goal ${RESUME_GOAL_S} s); /readyz not ready while down in ` +
          `${notReadySeen} of 3, every one ready again ${readyAgainS.toFixed(1)} s after`,
      );
      flipAll();
      rounds += 1;
      await until(delivered, `${outage.name}: a change after it delivered`, 90_000);
    }
    // The processes lived through every outage by themselves.
    for (const bot of [...watchers, gateway]) expect(bot.child.exitCode, `${bot.name} still running`).toBeNull();

    const copies = alertCopies(from);
    const lists = chats.flatMap(({ chat }) =>
      tokens.map((token) => ({ what: `${chat.id} ${symbolOf(token)}`, copies: copies.get(`${chat.id}:${token}`) ?? [] })),
    );
    // No repeat is explained: the server going away is no reason to send an alert twice.
    const { expected, delivered: got } = tallyAlerts(lists, rounds, () => false);
    process.stdout.write(`postgres restart e2e: ${report.join('\n  ')}\n  alerts expected ${expected}, delivered ${got}\n`);
    expect(got).toBe(expected);
  }, 600_000);
});
