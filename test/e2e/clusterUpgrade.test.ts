/**
 * A release rolled in place over one bot of three processes on PostgreSQL (two `watcher,sender`,
 * one `telegram`): the processes of the release before this one's schema (previousRelease.ts: the
 * commit before the newest migration, run from its own files) start on a fresh database, which they
 * migrate to their schema; one process of this commit joins them and migrates the database on (an
 * expand migration, which the running processes survive); then the old processes are replaced one
 * by one, each stopped with SIGTERM as an operator stops it and a process of this commit started
 * with its roles. Prices move all along and every token's risk changes at each step, while the
 * processes come and go: every change reaches every chat once, none lost, none repeated. At the
 * end a process of the old release, started again, refuses the newer schema in one line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFailed, onTestFinished } from 'vitest';
import type { RunningSimulator } from 'tmds-simulator';
import { PG_SCHEMA_VERSION } from '../../src/store/postgres/migrations/index';
import '../support/postgres/provided';
import { freshDatabase } from '../support/postgres/databases';
import { ROOT, startBotProcess, type BotProcess } from '../support/processes';
import { startBotApi, type FakeBotApi, type TestChat, type TestUser } from '../support/telegram/botApi';
import { KEY, quietSimulator } from './harness';
import { partitionsByOwner, joinedOwner, messageCopies, tallyAlerts, until as waitUntil, type Copy } from './clusterTally';
import { prepareRelease, previousRelease, type Release } from './previousRelease';

const TG_TOKEN = '123456789:AAupgrade-test_token';
/** A round's alerts to one chat stay fewer than a digest's five; private chats, which have no 20 a minute as groups do. */
const TOKENS = 4;
const WAIT_MS = 60_000;

const shared = inject('postgres');

const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = WAIT_MS): Promise<void> =>
  waitUntil(check, what, timeoutMs);

interface Bot extends BotProcess {
  name: string;
  release: 'previous' | 'this';
}

let release: Release | null = null;
let releaseDir: string;
let sim: RunningSimulator;
let api: FakeBotApi;
let databaseUrl: string;
let dropDatabase: () => Promise<void>;
let db: pg.Client;
let dir: string;
let tokens: string[];
let chats: Array<{ chat: TestChat; user: TestUser }>;
const bots: Bot[] = [];

function settings(roles: string): Record<string, string> {
  return {
    TOKENWATCH_ROLES: roles,
    DATABASE_URL: databaseUrl,
    TELEGRAM_BOT_TOKEN: TG_TOKEN,
    TELEGRAM_API_ROOT: api.apiRoot,
    TMDS_BASE_URL: sim.baseUrl,
    TMDS_WS_URL: sim.wsUrl,
    TMDS_API_KEY: KEY,
    // Reconciliation at start, on gaining partitions and after reconnects only: the test decides when the market changes.
    RECONCILE_CRON: '0 0 1 1 *',
    TMDS_CACHE_TTL: 'token-data=0',
    LOG_LEVEL: 'info',
  };
}

/** `npm start` of the previous release: its own main.ts, with this checkout's tsx loader. */
function startPrevious(cwd: string, env: Record<string, string>): BotProcess {
  return startBotProcess(cwd, env, join(releaseDir, 'src', 'main.ts'));
}

function startBot(name: string, which: Bot['release'], roles: string): Bot {
  const started = which === 'previous' ? startPrevious(dir, settings(roles)) : startBotProcess(dir, settings(roles));
  const bot: Bot = { name, release: which, ...started };
  bots.push(bot);
  return bot;
}

function joined(bot: Bot): Promise<string> {
  return joinedOwner(bot, WAIT_MS);
}

async function schemaVersion(): Promise<number> {
  const { rows } = await db.query<{ version: number }>('SELECT version FROM tokenwatch_schema');
  return rows[0]?.version ?? 0;
}

function symbolOf(token: string): string {
  return sim.market.token(token)?.symbol ?? token;
}

function flipAll(): void {
  for (const token of tokens)
    sim.controls.risk({ tokenAddress: token, riskStatus: sim.market.token(token)?.riskStatus === 'DANGER' ? 'WARNING' : 'DANGER' });
}

const alertCopies = (from: number): Map<string, Copy[]> => messageCopies(api.sent, from, tokens, symbolOf);

describe.runIf(shared.adminUrl !== null)('a release rolled in place over three processes', () => {
  let unavailable: string | null = null;

  beforeAll(async () => {
    if (shared.adminUrl === null) return;
    const found = await previousRelease(ROOT);
    if ('unavailable' in found) {
      unavailable = found.unavailable;
      process.stdout.write(`rolling upgrade test skipped: ${unavailable}\n`);
      return;
    }
    release = found;
    const prepared = await prepareRelease(ROOT, found.commit);
    releaseDir = prepared.dir;
    if (prepared.fetched.length > 0)
      process.stdout.write(`rolling upgrade: the release ${found.commit.slice(0, 12)} needed ${prepared.fetched.join(', ')}\n`);
    const fresh = await freshDatabase(shared.adminUrl);
    databaseUrl = fresh.url;
    dropDatabase = fresh.drop;
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    [sim, api] = await Promise.all([quietSimulator(), startBotApi()]);
    dir = mkdtempSync(join(tmpdir(), 'tokenwatch-upgrade-'));
    const hostile = new Set(sim.market.hostileTokens());
    tokens = sim.market
      .tokenAddresses()
      .filter((token) => !hostile.has(token))
      .slice(0, TOKENS);
    chats = [api.user(7301, 'One'), api.user(7302, 'Two')].map((user) => ({ chat: api.privateChat(user), user }));
  }, 180_000);

  afterAll(async () => {
    for (const bot of bots) {
      if (bot.child.exitCode === null) bot.child.kill('SIGKILL');
      await bot.exit;
    }
    await db?.end();
    await dropDatabase?.();
    await api?.close();
    await sim?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('loses and repeats no alert while the processes of the release before are replaced one by one', async (context) => {
    if (release === null) return context.skip(unavailable ?? 'no previous release');
    expect(release.schema).toBeLessThan(PG_SCHEMA_VERSION);
    onTestFailed(() => {
      for (const bot of bots)
        process.stdout.write(`--- ${bot.name}: its last log lines\n${bot.stderr().split('\n').slice(-30).join('\n')}\n`);
    });

    // ---- the release before, three processes, on its own schema ----
    const old = [
      startBot('previous-1', 'previous', 'watcher,sender'),
      startBot('previous-2', 'previous', 'watcher,sender'),
      startBot('previous-gateway', 'previous', 'telegram'),
    ];
    const owners = await Promise.all(old.map(joined));
    await until(async () => {
      const held = await partitionsByOwner(db);
      return owners.slice(0, 2).every((owner) => (held.get(owner)?.length ?? 0) > 0);
    }, 'the partitions shared between the two watchers of the release before');
    expect(await schemaVersion()).toBe(release.schema);

    for (const { chat, user } of chats)
      for (const token of tokens) api.sendText({ chat, from: user, text: `/track token ${token} status` });
    await until(async () => {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM follows');
      return rows[0]?.n === tokens.length * chats.length;
    }, 'every follow stored');
    await until(() => chats.every(({ chat }) => api.messagesIn(chat.id).length >= tokens.length), 'every /track answered');
    await until(() => sim.streams.subscriptionCount('token-feed') === tokens.length, 'one token-feed subscription per token');
    await until(async () => {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM token_state WHERE address = ANY($1)', [tokens]);
      return rows[0]?.n === tokens.length;
    }, 'a baseline for every token');

    const from = api.sent.length;
    let rounds = 0;
    const delivered = (): boolean => {
      const copies = alertCopies(from);
      return chats.every(({ chat }) => tokens.every((token) => (copies.get(`${chat.id}:${token}`)?.length ?? 0) >= rounds));
    };
    const round = async (what: string): Promise<void> => {
      await until(delivered, what, 90_000);
      // Each target subscribed once, whichever processes watch it now.
      await until(() => sim.streams.subscriptionCount('token-feed') === tokens.length, `${what}: one subscription per token`);
    };
    let tick = 0;
    const flow = setInterval(() => {
      tick += 1;
      for (const token of tokens) sim.controls.price({ tokenAddress: token, changePct: tick % 2 === 0 ? 1 : -1 });
    }, 200);
    onTestFinished(() => clearInterval(flow));

    flipAll();
    rounds += 1;
    await round('round 1 delivered by the release before');

    // ---- one process of this release joins, and migrates the database while the others run ----
    const first = startBot('this-1', 'this', 'watcher,sender');
    flipAll();
    rounds += 1;
    await joined(first);
    expect(await schemaVersion()).toBe(PG_SCHEMA_VERSION);
    await round('round 2 delivered while this release migrated');

    // ---- the old ones replaced one by one, as an operator rolls a release ----
    const report: string[] = [];
    for (const [index, previous] of old.entries()) {
      const roles = index < 2 ? 'watcher,sender' : 'telegram';
      const stoppedAt = Date.now();
      previous.child.kill('SIGTERM');
      flipAll();
      rounds += 1;
      expect(await previous.exit, `${previous.name} stopped cleanly`).toBe(0);
      const replacement = startBot(`this-${index + 2}`, 'this', roles);
      await joined(replacement);
      await round(`round ${rounds} delivered while ${previous.name} was replaced`);
      report.push(`${previous.name} replaced, its round delivered ${((Date.now() - stoppedAt) / 1000).toFixed(1)} s after its SIGTERM`);
    }
    flipAll();
    rounds += 1;
    await round(`round ${rounds} delivered by this release alone`);

    // ---- the release before, started again, refuses the newer schema in one line ----
    const late = startBot('previous-late', 'previous', 'watcher,sender');
    expect(await late.exit).toBe(2);
    const said = late.stderr().trim().split('\n');
    const refusal = new RegExp(`has schema version ${PG_SCHEMA_VERSION}, newer than this TokenWatch knows \\(${release.schema}\\)`);
    // Its last word, after the log lines of its start (the service asked), and the only one about the schema.
    expect(said.at(-1)).toMatch(refusal);
    expect(said.filter((line) => /schema/.test(line))).toHaveLength(1);

    const copies = alertCopies(from);
    const lists = chats.flatMap(({ chat }) =>
      tokens.map((token) => ({ what: `${chat.id} ${symbolOf(token)}`, copies: copies.get(`${chat.id}:${token}`) ?? [] })),
    );
    // No repeat is explained: every process was stopped as an operator stops it.
    const { expected, delivered: got } = tallyAlerts(lists, rounds, () => false);
    process.stdout.write(
      `rolling upgrade e2e: from ${release.commit.slice(0, 12)} (schema ${release.schema}) to schema ${PG_SCHEMA_VERSION}; ${report.join('; ')}; ` +
        `alerts expected ${expected}, delivered ${got}\n`,
    );
    expect(got).toBe(expected);
  }, 420_000);
});
