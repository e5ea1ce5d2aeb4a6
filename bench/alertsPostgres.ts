/**
 * The alert path on PostgreSQL beside SQLite, `npm run bench -- alerts-pg`: the same bot as the
 * alerts section (10,000 followed tokens, 100,000 follows in 1,000 chats, every kind of alert, the
 * stream client as shipped, the watcher) against the same feeder (bench/alertFeed.ts), run in turn
 * on the SQLite store and on the PostgreSQL store, in one process and one run, each store in
 * rounds: throughput (frames as fast as the feeder pushes, one in ALERT_EVERY an alert) and latency
 * (1,000 frames a second, each an alert to 10 chats). PostgreSQL is a throwaway server with fsync
 * on (bench/postgres.ts), measured twice: with synchronous_commit=off, the durability the SQLite
 * store's synchronous=NORMAL gives (a crash of the machine may lose the last moments, never
 * corrupt), and with PostgreSQL's default, on, which waits for the disk at every commit.
 *
 * Figures (bench/results.json), medians of the rounds:
 * - alert_events_per_s_pg (goal ≥ 10,000) and alert_p99_ms_pg, synchronous_commit=off;
 * - alert_pg_vs_sqlite_ratio: that rate over SQLite's in this section's rounds;
 * - alert_p99_pg_vs_sqlite_ratio (goal ≤ 1.5): the latency rounds of the two stores taken in turn,
 *   LATENCY_PAIRS pairs, the first of a pair alternating; both watchers run side by side, each on
 *   a feeder group of its own, so a pair is seconds apart: the median of the pairwise p99 ratios,
 *   with min and max;
 * - alert_events_per_s_pg_sync_commit, alert_p99_ms_pg_sync_commit: the same with it on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../src/log';
import { openPostgresStore } from '../src/store/postgres/postgresStore';
import { openSqliteStore } from '../src/store/sqliteStore';
import { createWatcher } from '../src/watch/watcher';
import {
  Feeder,
  FOLLOWS,
  frameTemplates,
  progress,
  SCALE,
  shippedStreamClient,
  SNAPSHOT_HOLDERS,
  tokenAddresses,
  TOKENS,
  until,
  WatcherWorkClock,
  writeFollowsMany,
  type BenchStore,
} from './alertFeed';
import { benchPostgres } from './postgres';
import { recordResult } from './results';
import type { Row } from './section';

const FRAMES = Math.round(50_000 * SCALE);
const ALERT_EVERY = 10;
const ROUNDS = Number(process.env.BENCH_STORE_ROUNDS ?? 3);
const PACE_PER_SECOND = 1_000;
const PACE_SECONDS = 5;
const LATENCY_PAIRS = 5;

interface StoreRounds {
  rates: number[];
  p50s: number[];
  p99s: number[];
  followsSeconds: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function spread(values: readonly number[], digits: number): string {
  return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
}

/** A bot on one store: its follows, its watcher started on them, reading the feeder's `group`. */
interface Bot {
  label: string;
  group: string;
  followsSeconds: number;
  watcher: ReturnType<typeof createWatcher>;
  clock: WatcherWorkClock;
  close(): Promise<void>;
}

async function startBot(label: string, store: BenchStore, wsUrl: string, group: string, tokens: readonly string[]): Promise<Bot> {
  const followsSeconds = await writeFollowsMany(store, tokens);
  // The feeder reads a group from a `/g/NAME` base path (bench/alertFeeder.mjs); 'bot' is its default group.
  const { streams } = shippedStreamClient(group === 'bot' ? wsUrl : `${wsUrl}/g/${group}`);
  const clock = new WatcherWorkClock(streams, store);
  progress(`${label}: follows written; watcher start`);
  const watcher = createWatcher({ store, streams: clock.streams, logger: silentLogger });
  await watcher.start();
  await until(() => watcher.status().processed >= TOKENS * (1 + SNAPSHOT_HOLDERS), 'every token and holders snapshot');
  await watcher.idle();
  return {
    label,
    group,
    followsSeconds,
    watcher,
    clock,
    close: async () => {
      // Its sockets closed, the feeder's frames go to the other bots only.
      await watcher.close();
      await streams.close();
    },
  };
}

async function throughputRounds(bot: Bot, feeder: Feeder): Promise<number[]> {
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    progress(`${bot.label}: throughput round ${round + 1} of ${ROUNDS}`);
    global.gc?.();
    const before = bot.watcher.status().processed;
    const startedAt = await feeder.blast(bot.group, FRAMES, ALERT_EVERY);
    await until(() => bot.watcher.status().processed - before >= FRAMES, 'the watcher to process every frame');
    await bot.watcher.idle();
    rates.push(FRAMES / ((bot.clock.lastWorkAt - startedAt) / 1000));
  }
  return rates;
}

/** One latency round at 1,000 frames a second, each an alert: its p50 and p99. */
async function latencyRound(bot: Bot, feeder: Feeder): Promise<{ p50: number; p99: number }> {
  global.gc?.();
  bot.clock.latencies = [];
  bot.clock.timing = true;
  const before = bot.watcher.status().processed;
  await feeder.pace(bot.group, PACE_PER_SECOND, PACE_PER_SECOND * PACE_SECONDS);
  await until(() => bot.watcher.status().processed - before >= PACE_PER_SECOND * PACE_SECONDS, 'the paced frames');
  await bot.watcher.idle();
  bot.clock.timing = false;
  return { p50: percentile(bot.clock.latencies, 50), p99: percentile(bot.clock.latencies, 99) };
}

function roundsOf(bot: Bot, rates: number[], latencies: Array<{ p50: number; p99: number }>): StoreRounds {
  return {
    rates,
    p50s: latencies.map((round) => round.p50),
    p99s: latencies.map((round) => round.p99),
    followsSeconds: bot.followsSeconds,
  };
}

function rowsOf(label: string, rounds: StoreRounds): Row[] {
  return [
    {
      what: `alerts (${label}): ${FOLLOWS.toLocaleString('en-US')} follows written, 10,000 a statement or transaction`,
      figure: `${rounds.followsSeconds.toFixed(1)} s`,
    },
    {
      what: `alerts (${label}): frame → outbox row, ${FRAMES.toLocaleString('en-US')} frames a round, 1 in ${ALERT_EVERY} an alert (median of ${ROUNDS}, min–max)`,
      figure: `${spread(rounds.rates, 0)} events/s`,
    },
    {
      what: `alerts (${label}): frame → outbox row at 1,000/s, p50 and p99 (median of ${rounds.p99s.length}, min–max)`,
      figure: `${spread(rounds.p50s, 2)} and ${spread(rounds.p99s, 2)} ms`,
    },
  ];
}

export async function benchAlertsPostgres(): Promise<Row[]> {
  const postgres = await benchPostgres();
  if (postgres.server === null) return [{ what: 'alerts on PostgreSQL', figure: `not measured: ${postgres.reason}` }];
  const server = postgres.server;
  const rows: Row[] = [];
  const templates = await frameTemplates();
  const tokens = tokenAddresses();
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-bench-pg-'));
  const feeder = new Feeder(templates, { onePerSocket: false });
  try {
    const { port } = await feeder.next('listening');
    const wsUrl = `ws://127.0.0.1:${String(port)}`;

    // SQLite and PostgreSQL (synchronous_commit=off) side by side: throughput each in turn, then
    // the latency rounds in pairs, so the p99s are compared within seconds of each other.
    const sqliteStore = openSqliteStore(join(dir, 'bench.db'));
    const pgStore = await openPostgresStore(await server.database('off'));
    const pgLabel = 'PostgreSQL, synchronous_commit=off';
    try {
      const sqliteBot = await startBot('SQLite', sqliteStore, wsUrl, 'bot', tokens);
      const pgBot = await startBot(pgLabel, pgStore, wsUrl, 'pg', tokens);
      try {
        const sqliteRates = await throughputRounds(sqliteBot, feeder);
        const pgRates = await throughputRounds(pgBot, feeder);
        const sqliteLatency: Array<{ p50: number; p99: number }> = [];
        const pgLatency: Array<{ p50: number; p99: number }> = [];
        for (let pair = 0; pair < LATENCY_PAIRS; pair++) {
          progress(`latency pair ${pair + 1} of ${LATENCY_PAIRS}`);
          // The first of a pair alternates: neither store always follows the other's round.
          if (pair % 2 === 1) pgLatency.push(await latencyRound(pgBot, feeder));
          sqliteLatency.push(await latencyRound(sqliteBot, feeder));
          if (pair % 2 === 0) pgLatency.push(await latencyRound(pgBot, feeder));
        }
        const sqlite = roundsOf(sqliteBot, sqliteRates, sqliteLatency);
        const pg = roundsOf(pgBot, pgRates, pgLatency);
        rows.push(...rowsOf('SQLite, synchronous=NORMAL', sqlite), ...rowsOf(pgLabel, pg));
        recordResult('alert_events_per_s_pg', median(pg.rates), 'events/s');
        recordResult('alert_p99_ms_pg', median(pg.p99s), 'ms');
        const ratio = median(pg.rates) / median(sqlite.rates);
        recordResult('alert_pg_vs_sqlite_ratio', ratio, 'ratio');
        rows.push({ what: `alerts (${pgLabel}): rate ÷ SQLite's in this run`, figure: `${ratio.toFixed(2)}; ${server.describe('off')}` });
        const p99Ratios = pg.p99s.map((p99, index) => p99 / (sqlite.p99s[index] ?? NaN));
        recordResult('alert_p99_pg_vs_sqlite_ratio', median(p99Ratios), 'ratio');
        recordResult('alert_p99_pg_vs_sqlite_ratio_min', Math.min(...p99Ratios), 'ratio');
        recordResult('alert_p99_pg_vs_sqlite_ratio_max', Math.max(...p99Ratios), 'ratio');
        rows.push({
          what: `alerts: p99 PostgreSQL ÷ SQLite, ${LATENCY_PAIRS} pairs taken in turn (median, min–max; goal ≤ 1.5)`,
          figure: spread(p99Ratios, 2),
        });
      } finally {
        await pgBot.close();
        await sqliteBot.close();
      }
    } finally {
      await pgStore.close();
      await sqliteStore.close();
    }

    // PostgreSQL's default, synchronous_commit=on, alone.
    const onLabel = 'PostgreSQL, synchronous_commit=on';
    const onStore = await openPostgresStore(await server.database('on'));
    try {
      const onBot = await startBot(onLabel, onStore, wsUrl, 'bot', tokens);
      try {
        const rates = await throughputRounds(onBot, feeder);
        const latencies: Array<{ p50: number; p99: number }> = [];
        for (let round = 0; round < ROUNDS; round++) latencies.push(await latencyRound(onBot, feeder));
        const on = roundsOf(onBot, rates, latencies);
        rows.push(...rowsOf(onLabel, on));
        recordResult('alert_events_per_s_pg_sync_commit', median(on.rates), 'events/s');
        recordResult('alert_p99_ms_pg_sync_commit', median(on.p99s), 'ms');
      } finally {
        await onBot.close();
      }
    } finally {
      await onStore.close();
    }
  } finally {
    await feeder.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
