/**
 * `npm run bench -- cluster`: the bot as several processes over one PostgreSQL (README: "Running
 * several processes"), on this machine's throwaway PostgreSQL (bench/postgres.ts,
 * synchronous_commit=off) and the alert bench's feeder (bench/alertFeed.ts, a process of its own).
 *
 * - `alert_events_per_s_two_watchers` and `alert_events_per_s_one_watcher`: the alerts section's
 *   10,000 tokens and 100,000 follows, frames as fast as the feeder pushes them (one in ten an
 *   alert), taken by one watcher process, then by two sharing the partitions (each a process of
 *   bench/clusterWatcher.ts); `alert_two_vs_one_watcher_ratio` is the first over the second, the
 *   issue's goal 1.6.
 * - `failover_s`: from SIGKILL of one of two watcher processes to every subscription of its
 *   partitions live again on the other (the feeder counts the live subscriptions), median of the
 *   rounds.
 * - `sender_rate_vs_limit`: 2,000 alerts waiting for 400 Telegram chats (80 groups, 5 each, under
 *   the digest threshold), sent by two `TOKENWATCH_ROLES=sender` processes (`npm start`), one
 *   holding the lease, to the local Bot API that enforces Telegram's limits; the rate achieved over
 *   Telegram's 30 messages a second (goal ≥ 0.95), and the 429s answered (goal none).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { silentLogger } from '../src/log';
import type { ChatRef } from '../src/model/chat';
import type { RiskStatusEvent } from '../src/model/events';
import { startSimulator } from 'tmds-simulator';
import { openPostgresStore } from '../src/store/postgres/postgresStore';
import { startBotApi } from '../test/support/telegram/botApi';
import { TELEGRAM_LIMITS } from '../test/support/telegram/pace';
import { startBotProcess } from '../test/support/processes';
import { Feeder, SCALE, TOKENS, frameTemplates, progress, tokenAddresses, writeFollowsMany } from './alertFeed';
import type { WatcherReport } from './clusterWatcher';
import { benchPostgres } from './postgres';
import { recordResult } from './results';
import type { Row } from './section';

const ROUNDS = Number(process.env.BENCH_CLUSTER_ROUNDS ?? 3);
const FRAMES = Math.round(50_000 * SCALE);
const ALERT_EVERY = 10;
/** token-feed and holders-live for every token: every follow wants every kind. */
const SUBSCRIPTIONS = TOKENS * 2;
const SENDER_CHATS = 400;
const SENDER_GROUPS = 80;
const ALERTS_PER_CHAT = 5;
const TELEGRAM_RATE = 30;
const TG_TOKEN = '123456789:AAbench-cluster_token';

const now = (): number => performance.timeOrigin + performance.now();

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function spread(values: readonly number[], digits: number): string {
  return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
}

/** The bench's polls of the watchers: seldom enough to leave the cores to them. */
const POLL_MS = 100;

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 300_000, pollMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** A watcher process of bench/clusterWatcher.ts, asked for its figures over IPC. */
class WatcherProcess {
  private readonly child: ChildProcess;
  private readonly waiting: Array<(report: WatcherReport) => void> = [];
  readonly ready: Promise<void>;
  readonly exit: Promise<void>;

  constructor(databaseUrl: string, wsUrl: string) {
    this.child = fork(fileURLToPath(new URL('./clusterWatcher.ts', import.meta.url)), [], {
      execArgv: process.execArgv,
      env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, BENCH_WS_URL: wsUrl },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.ready = new Promise((resolve) => this.child.once('message', () => resolve()));
    this.exit = new Promise((resolve) => this.child.once('exit', () => resolve()));
    this.child.on('message', (message: WatcherReport) => {
      if (message.type === 'status') this.waiting.shift()?.(message);
    });
  }

  status(): Promise<WatcherReport> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.send({ type: 'status' });
    });
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.send({ type: 'stop' });
    await this.exit;
  }
}

/** The machine's CPU time, busy and all, in clock ticks since boot (Linux's /proc/stat); null elsewhere. */
function cpuTicks(): { busy: number; total: number } | null {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    // idle and iowait are the 4th and 5th.
    return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
  } catch {
    return null;
  }
}

/** How busy every core together was between two readings, 0–1. */
function busyShare(before: ReturnType<typeof cpuTicks>, after: ReturnType<typeof cpuTicks>): number | null {
  if (before === null || after === null || after.total === before.total) return null;
  return (after.busy - before.busy) / (after.total - before.total);
}

async function reports(watchers: readonly WatcherProcess[]): Promise<WatcherReport[]> {
  return Promise.all(watchers.map((watcher) => watcher.status()));
}

/** Every partition held, every subscription live once at the feeder and in the watchers, nothing queued. */
async function settled(feeder: Feeder, watchers: readonly WatcherProcess[]): Promise<boolean> {
  const all = await reports(watchers);
  const counted = await feeder.count();
  return (
    all.reduce((sum, report) => sum + report.partitions, 0) === 256 &&
    all.every((report) => report.partitions > 0 && report.queued === 0) &&
    all.reduce((sum, report) => sum + report.subscriptions, 0) === SUBSCRIPTIONS &&
    counted.subscriptions === SUBSCRIPTIONS
  );
}

/**
 * One blast of FRAMES frames, taken by the watchers together: frames a second, from the feeder's
 * first send to the watchers' last work (each times its own), and how busy the machine's cores were.
 */
async function throughput(feeder: Feeder, watchers: readonly WatcherProcess[]): Promise<{ rate: number; busy: number | null }> {
  const cpuBefore = cpuTicks();
  const before = (await reports(watchers)).reduce((sum, report) => sum + report.processed, 0);
  const startedAt = await feeder.blast('bot', FRAMES, ALERT_EVERY);
  let last: WatcherReport[] = [];
  await until(
    async () => {
      last = await reports(watchers);
      return last.reduce((sum, report) => sum + report.processed, 0) - before >= FRAMES && last.every((report) => report.queued === 0);
    },
    'the watchers to process every frame',
    300_000,
    POLL_MS,
  );
  const endedAt = Math.max(...last.map((report) => report.lastWorkAt));
  return { rate: FRAMES / ((endedAt - startedAt) / 1000), busy: busyShare(cpuBefore, cpuTicks()) };
}

async function benchWatchers(databaseUrl: string): Promise<Row[]> {
  const templates = await frameTemplates();
  const tokens = tokenAddresses();
  const store = await openPostgresStore(databaseUrl, { logger: silentLogger });
  try {
    progress(`cluster: ${(TOKENS * 10).toLocaleString('en-US')} follows`);
    await writeFollowsMany(store, tokens);
  } finally {
    await store.close();
  }
  const feeder = new Feeder(templates, { onePerSocket: false });
  const watchers: WatcherProcess[] = [];
  const start = async (): Promise<WatcherProcess> => {
    const watcher = new WatcherProcess(databaseUrl, wsUrl);
    watchers.push(watcher);
    await watcher.ready;
    return watcher;
  };
  const { port } = await feeder.next('listening');
  const wsUrl = `ws://127.0.0.1:${String(port)}`;
  const one: number[] = [];
  const two: number[] = [];
  const busyOne: number[] = [];
  const busyTwo: number[] = [];
  const failovers: number[] = [];
  try {
    progress('cluster: one watcher process');
    const first = await start();
    await until(() => settled(feeder, [first]), 'one watcher holding every partition');
    for (let round = 0; round < ROUNDS; round++) {
      progress(`cluster: one watcher, round ${round + 1} of ${ROUNDS}`);
      const measured = await throughput(feeder, [first]);
      one.push(measured.rate);
      if (measured.busy !== null) busyOne.push(measured.busy);
    }
    progress('cluster: two watcher processes');
    let second = await start();
    await until(() => settled(feeder, [first, second]), 'two watchers sharing the partitions');
    for (let round = 0; round < ROUNDS; round++) {
      progress(`cluster: two watchers, round ${round + 1} of ${ROUNDS}`);
      const measured = await throughput(feeder, [first, second]);
      two.push(measured.rate);
      if (measured.busy !== null) busyTwo.push(measured.busy);
    }
    for (let round = 0; round < ROUNDS; round++) {
      progress(`cluster: failover, round ${round + 1} of ${ROUNDS}`);
      const killedAt = now();
      second.kill();
      await second.exit;
      watchers.splice(watchers.indexOf(second), 1);
      await until(() => settled(feeder, [first]), 'the survivor holding every partition, every subscription live again');
      failovers.push((now() - killedAt) / 1000);
      second = await start();
      await until(() => settled(feeder, [first, second]), 'two watchers sharing again');
    }
  } finally {
    await Promise.all(watchers.map((watcher) => watcher.stop()));
    await feeder.close();
  }
  const ratio = median(two) / median(one);
  recordResult('alert_events_per_s_one_watcher', median(one), 'events/s');
  recordResult('alert_events_per_s_two_watchers', median(two), 'events/s');
  recordResult('alert_two_vs_one_watcher_ratio', ratio, 'ratio');
  recordResult('failover_s', median(failovers), 's');
  if (busyOne.length > 0) recordResult('cluster_cpu_busy_one_watcher', median(busyOne), 'share of all cores');
  if (busyTwo.length > 0) recordResult('cluster_cpu_busy_two_watchers', median(busyTwo), 'share of all cores');
  recordResult('failover_s_max', Math.max(...failovers), 's');
  return [
    { what: `cluster: frame → outbox row, one watcher process (median of ${ROUNDS}, min–max)`, figure: `${spread(one, 0)} events/s` },
    { what: `cluster: the same, two watcher processes sharing the partitions`, figure: `${spread(two, 0)} events/s` },
    { what: 'cluster: two watchers over one (goal ≥ 1.6)', figure: ratio.toFixed(2) },
    {
      what: `cluster: the machine's ${availableParallelism()} cores busy during the blasts (feeder, PostgreSQL and watchers together), one watcher and two`,
      figure: busyOne.length === 0 ? 'not read' : `${(median(busyOne) * 100).toFixed(0)}% and ${(median(busyTwo) * 100).toFixed(0)}%`,
    },
    {
      what: `cluster: failover, SIGKILL of a watcher → its subscriptions live on the other (median of ${ROUNDS}, min–max; goal ≤ 15)`,
      figure: `${spread(failovers, 1)} s`,
    },
  ];
}

function riskEvent(n: number): RiskStatusEvent {
  const address = `BenchToken${String(n % 50).padStart(3, '0')}1111111111111111111111111111`;
  return {
    key: `bench-cluster:${n}`,
    kind: 'risk-status',
    at: 1_700_000_000_000 + n,
    token: { address, symbol: `TK${n % 50}`, name: `Token ${n % 50}` },
    from: 'SAFE',
    to: 'DANGER',
    flags: [],
  };
}

async function benchSenders(databaseUrl: string): Promise<Row[]> {
  const api = await startBotApi({ pace: TELEGRAM_LIMITS, botUsername: 'BenchBot' });
  const sim = await startSimulator({ apiKey: 'bench-key', port: 0, seed: 42 });
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-bench-cluster-'));
  const store = await openPostgresStore(databaseUrl, { logger: silentLogger });
  const children: ChildProcess[] = [];
  try {
    const chats: ChatRef[] = Array.from({ length: SENDER_CHATS }, (_, i) => ({
      platform: 'telegram',
      chatId: String(i < SENDER_GROUPS ? -1_000_000 - i : 1_000 + i),
      threadId: null,
      scopeId: null,
    }));
    let n = 0;
    const alerts = chats.flatMap((chat) =>
      Array.from({ length: ALERTS_PER_CHAT }, () => ({ event: riskEvent(n++), to: [{ chat, label: null }] })),
    );
    await store.outbox.add(alerts, new Date());
    progress(`cluster: ${alerts.length} alerts waiting; two sender processes`);
    for (let i = 0; i < Number(process.env.BENCH_CLUSTER_SENDERS ?? 2); i++) {
      const { child } = startBotProcess(dir, {
        TOKENWATCH_ROLES: 'sender',
        DATABASE_URL: databaseUrl,
        TELEGRAM_BOT_TOKEN: TG_TOKEN,
        TELEGRAM_API_ROOT: api.apiRoot,
        TMDS_BASE_URL: sim.baseUrl,
        TMDS_API_KEY: 'bench-key',
        LOG_LEVEL: 'warn',
      });
      children.push(child);
    }
    const sends = (): number => api.sent.filter((message) => !message.edited).length;
    await until(() => sends() >= alerts.length, 'every alert sent', 600_000);
    const times = api.sent.filter((message) => !message.edited).map((message) => message.at);
    const seconds = (Math.max(...times) - Math.min(...times)) / 1000;
    const rate = (alerts.length - 1) / seconds;
    const ratio = rate / TELEGRAM_RATE;
    recordResult('sender_rate_vs_limit', ratio, 'ratio');
    recordResult('sender_429s', api.tooManyRequests.count, 'answers');
    return [
      {
        what: `cluster: ${alerts.length.toLocaleString('en-US')} alerts to ${SENDER_CHATS} Telegram chats by two sender processes, over Telegram's 30/s (goal ≥ 0.95, no 429)`,
        figure: `${ratio.toFixed(3)} (${rate.toFixed(1)} messages/s, ${api.tooManyRequests.count} answered 429, ${sends() - alerts.length} more than the alerts)`,
      },
    ];
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map((child) => new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)))),
    );
    await store.close();
    await sim.close();
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchCluster(): Promise<Row[]> {
  const postgres = await benchPostgres();
  if (postgres.server === null) return [{ what: 'cluster', figure: `not measured: ${postgres.reason}` }];
  const server = postgres.server;
  try {
    // BENCH_CLUSTER_ONLY=watchers or senders runs one half.
    const only = process.env.BENCH_CLUSTER_ONLY;
    const rows = [
      ...(only === 'senders' ? [] : await benchWatchers(await server.database('off'))),
      ...(only === 'watchers' ? [] : await benchSenders(await server.database('off'))),
    ];
    rows.push({ what: 'cluster: PostgreSQL', figure: server.describe('off') });
    return rows;
  } finally {
    await server.stop();
  }
}
