/**
 * One bot as three processes over one PostgreSQL (two `watcher,sender`, one `telegram`), where one
 * watcher reaches PostgreSQL through a black hole (test/support/blackHole.ts): cut, its connections
 * stay open and say nothing, as a network partition leaves them, and the process lives on. Cut
 * several times, once right after its fenced commit read its leases (the server then holds that
 * transaction open with its locks) and otherwise at random moments, with prices moving all along
 * and a risk change made during each cut:
 *
 * - the other watcher holds every partition, and every target is subscribed once, soon after the
 *   cut (the lease's 10 s and a tick: printed per cut, and bounded by the wait);
 * - the cut-off process gives its partitions up on its own deadline, and says so;
 * - every change reaches every following chat once; a repeat only where the cut-off process had
 *   sent an alert and could not mark it delivered (Telegram has no idempotency key);
 * - after the heal it writes nothing stale (the stored state is the market's) and takes a share again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFailed, onTestFinished } from 'vitest';
import { partitionOf } from '../../src/cluster/partitions';
import type { RunningSimulator } from 'tmds-simulator';
import { startBlackHole, type BlackHole } from '../support/blackHole';
import '../support/postgres/provided';
import { freshDatabase } from '../support/postgres/databases';
import { startBotProcess, type BotProcess } from '../support/processes';
import { startBotApi, type FakeBotApi, type TestChat, type TestUser } from '../support/telegram/botApi';
import { KEY, quietSimulator } from './harness';
import {
  partitionsByOwner as livePartitions,
  joinedOwner,
  messageCopies,
  tallyAlerts,
  until as waitUntil,
  type Copy,
} from './clusterTally';

const TG_TOKEN = '123456789:AApartition-test_token';
const TOKENS = 10;
const WAIT_MS = 60_000;
/** The lease (10 s), a tick, the takeover's reconciliation, and room for a loaded machine. */
const FAILOVER_WAIT_MS = 25_000;
/** Each cut: where it falls. */
const CUTS: Array<'after-fence' | 'random'> = ['after-fence', 'random', 'after-fence'];

const shared = inject('postgres');

const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = WAIT_MS): Promise<void> =>
  waitUntil(check, what, timeoutMs);
const partitionsByOwner = (): Promise<Map<string, number[]>> => livePartitions(db);

interface Bot extends BotProcess {
  name: string;
}

let sim: RunningSimulator;
let api: FakeBotApi;
let hole: BlackHole;
let databaseUrl: string;
let dropDatabase: () => Promise<void>;
let db: pg.Client;
let dir: string;
let tokens: string[];
let groups: TestChat[];
let admin: TestUser;
const bots: Bot[] = [];

function startBot(name: string, roles: string, url: string): Bot {
  const bot = {
    name,
    ...startBotProcess(dir, {
      TOKENWATCH_ROLES: roles,
      DATABASE_URL: url,
      TELEGRAM_BOT_TOKEN: TG_TOKEN,
      TELEGRAM_API_ROOT: api.apiRoot,
      TMDS_BASE_URL: sim.baseUrl,
      TMDS_WS_URL: sim.wsUrl,
      TMDS_API_KEY: KEY,
      // Reconciliation at start, on gaining partitions and after reconnects only: the test decides when the market changes.
      RECONCILE_CRON: '0 0 1 1 *',
      TMDS_CACHE_TTL: 'token-data=0',
      LOG_LEVEL: 'info',
    }),
  };
  bots.push(bot);
  return bot;
}

function joined(bot: Bot): Promise<string> {
  return joinedOwner(bot, WAIT_MS);
}

function symbolOf(token: string): string {
  return sim.market.token(token)?.symbol ?? token;
}

function flipAll(): void {
  for (const token of tokens)
    sim.controls.risk({ tokenAddress: token, riskStatus: sim.market.token(token)?.riskStatus === 'DANGER' ? 'WARNING' : 'DANGER' });
}

function everyTargetOnce(): boolean {
  return sim.streams.subscriptionCount('token-feed') === tokens.length;
}

const alertCopies = (from: number): Map<string, Copy[]> => messageCopies(api.sent, from, tokens, symbolOf);

async function storedMatchesMarket(): Promise<boolean> {
  const { rows } = await db.query<{ address: string; snapshot: string }>(
    'SELECT address, snapshot FROM token_state WHERE address = ANY($1)',
    [tokens],
  );
  return (
    rows.length === tokens.length &&
    rows.every((row) => (JSON.parse(row.snapshot) as { riskStatus: string }).riskStatus === sim.market.token(row.address)?.riskStatus)
  );
}

describe.runIf(shared.adminUrl !== null)('a watcher cut off from PostgreSQL by a network partition', () => {
  beforeAll(async () => {
    if (shared.adminUrl === null) return;
    const fresh = await freshDatabase(shared.adminUrl);
    databaseUrl = fresh.url;
    dropDatabase = fresh.drop;
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    // The throwaway server listens on a Unix socket only; the black hole dials it there.
    const url = new URL(databaseUrl);
    hole = await startBlackHole({ path: join(url.searchParams.get('host') ?? '', `.s.PGSQL.${url.searchParams.get('port') ?? '5432'}`) });
    sim = await quietSimulator();
    api = await startBotApi();
    dir = mkdtempSync(join(tmpdir(), 'tokenwatch-partition-'));
    const hostile = new Set(sim.market.hostileTokens());
    tokens = sim.market
      .tokenAddresses()
      .filter((token) => !hostile.has(token))
      .slice(0, TOKENS);
    admin = api.user(7101, 'Admin');
    groups = [api.group(-1009101, 'Group one'), api.group(-1009102, 'Group two')];
    for (const group of groups) api.setMember(group.id, admin.id, 'administrator');
  }, 60_000);

  afterAll(async () => {
    hole?.heal();
    for (const bot of bots) {
      if (bot.child.exitCode === null) bot.child.kill('SIGKILL');
      await bot.exit;
    }
    await hole?.close();
    await db?.end();
    await dropDatabase?.();
    await api?.close();
    await sim?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('fails over within the lease, loses and repeats no alert, and lets the cut-off process rejoin with nothing stale', async () => {
    const behindUrl = new URL(databaseUrl);
    behindUrl.host = `127.0.0.1:${hole.port}`;
    behindUrl.search = '';
    const cutOff = startBot('cut-off', 'watcher,sender', behindUrl.toString());
    const other = startBot('other', 'watcher,sender', databaseUrl);
    const gateway = startBot('gateway', 'telegram', databaseUrl);
    // A failure says what each process logged last, so a run that went wrong can be read afterwards.
    onTestFailed(() => {
      for (const bot of [cutOff, other])
        process.stdout.write(`--- ${bot.name}: its last log lines\n${bot.stderr().split('\n').slice(-60).join('\n')}\n`);
    });
    const [cutOffOwner, otherOwner] = await Promise.all([joined(cutOff), joined(other), joined(gateway)]);
    const shared = async (): Promise<boolean> => {
      const owners = await partitionsByOwner();
      return (
        (owners.get(cutOffOwner)?.length ?? 0) + (owners.get(otherOwner)?.length ?? 0) === 256 &&
        (owners.get(cutOffOwner)?.length ?? 0) > 0 &&
        (owners.get(otherOwner)?.length ?? 0) > 0
      );
    };
    await until(shared, 'the partitions shared between the two watchers');

    for (const group of groups)
      for (const token of tokens) api.sendText({ chat: group, from: admin, text: `/track token ${token} status` });
    await until(async () => {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM follows');
      return rows[0]?.n === tokens.length * groups.length;
    }, 'every follow stored');
    await until(() => groups.every((group) => api.messagesIn(group.id).length >= tokens.length), 'every /track answered');
    await until(everyTargetOnce, 'one token-feed subscription per token');
    await until(async () => {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM token_state WHERE address = ANY($1)', [tokens]);
      return rows[0]?.n === tokens.length;
    }, 'a baseline for every token');

    const from = api.sent.length;
    let rounds = 0;
    const allDelivered = async (what: string): Promise<void> => {
      await until(
        () => {
          const copies = alertCopies(from);
          return groups.every((group) => tokens.every((token) => (copies.get(`${group.id}:${token}`)?.length ?? 0) >= rounds));
        },
        what,
        90_000,
      );
    };
    // Prices move all along: the cut-off process's commits (and their fences) keep coming.
    let tick = 0;
    const flow = setInterval(() => {
      tick += 1;
      for (const token of tokens) sim.controls.price({ tokenAddress: token, changePct: tick % 2 === 0 ? 1 : -1 });
    }, 200);
    onTestFinished(() => clearInterval(flow));

    flipAll();
    rounds += 1;
    await allDelivered('round 1 delivered');

    const windows: Array<{ from: number; to: number }> = [];
    const report: string[] = [];
    for (const [index, where] of CUTS.entries()) {
      await until(shared, `cut ${index + 1}: both watchers holding a share`);
      await until(everyTargetOnce, `cut ${index + 1}: every target subscribed once`);
      const linesBefore = cutOff.stderr().length;
      let writes = 0;
      let how: string = where;
      // The cut-off process must hold a followed token for its commits to carry a fence; where the
      // shares fall none does now and then (ten tokens over two halves of 256 partitions), and the
      // cut is then made at a random moment instead, and said so.
      const holdsFollowed =
        where === 'after-fence' &&
        (await until(
          async () => {
            const mine = new Set((await partitionsByOwner()).get(cutOffOwner) ?? []);
            return tokens.some((token) => mine.has(partitionOf(token)));
          },
          `cut ${index + 1}: the cut-off process holding a followed token`,
          15_000,
        ).then(
          () => true,
          async () => {
            const owners = await partitionsByOwner();
            process.stdout.write(
              `cut ${index + 1}: the cut-off process holds ${owners.get(cutOffOwner)?.length ?? 0} partitions, none of the followed ones (${tokens.map((token) => partitionOf(token)).join(',')}); cut at a random moment instead\n`,
            );
            return false;
          },
        ));
      if (holdsFollowed) {
        await hole.cutAfter('tw_fence');
        // The fence's transaction is left open by the cut, holding its lock on the leases it read, until the server ends it.
        await until(
          async () => {
            const { rows } = await db.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'idle in transaction' AND query LIKE '%FOR KEY SHARE%'",
            );
            return (rows[0]?.n ?? 0) > 0;
          },
          `cut ${index + 1}: the fence's transaction held open`,
          5_000,
        );
      } else {
        if (where === 'after-fence') how = 'random, no followed token held';
        // A random moment, picked by the cut-off process's own traffic: after its next 1–60 writes.
        writes = 1 + Math.floor(Math.random() * 60);
        await hole.cutAfterWrites(writes);
      }
      const cutAt = Date.now();
      flipAll();
      rounds += 1;
      await until(
        async () => (await partitionsByOwner()).get(otherOwner)?.length === 256 && everyTargetOnce(),
        `cut ${index + 1}: the other watcher holding every partition, each target subscribed once`,
        FAILOVER_WAIT_MS,
      );
      const failoverS = (Date.now() - cutAt) / 1000;
      await until(
        () => cutOff.stderr().slice(linesBefore).includes('given up at their local deadline'),
        `cut ${index + 1}: the cut-off process giving its leases up`,
      );
      await allDelivered(`round ${rounds} delivered during cut ${index + 1}`);
      // Held until the server has ended every session the cut left in a transaction.
      await until(
        async () => {
          const { rows } = await db.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'idle in transaction' AND datname = current_database()",
          );
          return rows[0]?.n === 0;
        },
        `cut ${index + 1}: no transaction left open by the cut`,
        20_000,
      );
      hole.heal();
      const healedAt = Date.now();
      windows.push({ from: cutAt, to: healedAt });
      await until(shared, `cut ${index + 1}: the healed process taking a share again`);
      await until(everyTargetOnce, `cut ${index + 1}: every target subscribed once after the heal`);
      const rejoinS = (Date.now() - healedAt) / 1000;
      // Nothing stale from the healed process: what is stored is the market's last word.
      expect(await storedMatchesMarket(), `cut ${index + 1}: the stored state after the heal`).toBe(true);
      report.push(
        `cut ${index + 1} (${how}${holdsFollowed ? '' : ` after ${writes} writes`}): failover ${failoverS.toFixed(1)} s, rejoined ${rejoinS.toFixed(1)} s after the heal`,
      );
      flipAll();
      rounds += 1;
      await allDelivered(`round ${rounds} delivered after heal ${index + 1}`);
    }
    expect(await storedMatchesMarket()).toBe(true);

    const copies = alertCopies(from);
    const lists = groups.flatMap((group) =>
      tokens.map((token) => ({ what: `${group.id} ${symbolOf(token)}`, copies: copies.get(`${group.id}:${token}`) ?? [] })),
    );
    // A repeat only where the cut-off process had sent an alert it could not mark delivered.
    const { expected, delivered, explained } = tallyAlerts(lists, rounds, (original, repeat) =>
      windows.some((window) => original.at <= window.to && repeat.at >= window.from),
    );
    process.stdout.write(
      `partition e2e: ${report.join('; ')}; alerts expected ${expected}, delivered ${delivered} (${explained} Telegram repeats of sends the cut-off process could not mark)\n`,
    );
    expect(delivered - explained).toBe(expected);
  }, 420_000);
});
