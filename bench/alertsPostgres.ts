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
 * - alert_events_per_s_pg (goal ≥ 10,000) and alert_p99_ms_pg (goal < 10), synchronous_commit=off;
 * - alert_pg_vs_sqlite_ratio: that rate over SQLite's in this section's rounds;
 * - alert_events_per_s_pg_sync_commit, alert_p99_ms_pg_sync_commit: the same with it on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../src/log';
import { openPostgresStore } from '../src/store/postgres/postgresStore';
import { openSqliteStore } from '../src/store/sqliteStore';
import { createWatcher } from '../src/watch/watcher';
import { Feeder, FOLLOWS, frameTemplates, progress, SCALE, shippedStreamClient, SNAPSHOT_HOLDERS, tokenAddresses, TOKENS, until, WatcherWorkClock, writeFollowsMany, type BenchStore } from './alertFeed';
import { benchPostgres } from './postgres';
import { recordResult } from './results';
import type { Row } from './section';

const FRAMES = Math.round(50_000 * SCALE);
const ALERT_EVERY = 10;
const ROUNDS = Number(process.env.BENCH_STORE_ROUNDS ?? 3);
const PACE_PER_SECOND = 1_000;
const PACE_SECONDS = 5;


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


/** One store's rounds: its follows, its watcher started on them, then throughput and latency. */
async function measure(label: string, store: BenchStore, feeder: Feeder, wsUrl: string, tokens: readonly string[]): Promise<StoreRounds> {
  const followsSeconds = await writeFollowsMany(store, tokens);
  const { streams } = shippedStreamClient(wsUrl);
  const clock = new WatcherWorkClock(streams, store);
  progress(`${label}: follows written; watcher start`);
  const watcher = createWatcher({ store, streams: clock.streams, logger: silentLogger });
  await watcher.start();
  await until(() => watcher.status().processed >= TOKENS * (1 + SNAPSHOT_HOLDERS), 'every token and holders snapshot');
  await watcher.idle();

  const rates: number[] = [];
  const p50s: number[] = [];
  const p99s: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      progress(`${label}: throughput round ${round + 1} of ${ROUNDS}`);
      global.gc?.();
      const before = watcher.status().processed;
      const startedAt = await feeder.blast('bot', FRAMES, ALERT_EVERY);
      await until(() => watcher.status().processed - before >= FRAMES, 'the watcher to process every frame');
      await watcher.idle();
      rates.push(FRAMES / ((clock.lastWorkAt - startedAt) / 1000));
    }
    for (let round = 0; round < ROUNDS; round++) {
      progress(`${label}: latency round ${round + 1} of ${ROUNDS}`);
      global.gc?.();
      clock.latencies = [];
      clock.timing = true;
      const before = watcher.status().processed;
      await feeder.pace('bot', PACE_PER_SECOND, PACE_PER_SECOND * PACE_SECONDS);
      await until(() => watcher.status().processed - before >= PACE_PER_SECOND * PACE_SECONDS, 'the paced frames');
      await watcher.idle();
      clock.timing = false;
      p50s.push(percentile(clock.latencies, 50));
      p99s.push(percentile(clock.latencies, 99));
    }
  } finally {
    // Its sockets closed, the feeder's frames go to the next store's watcher only.
    await watcher.close();
    await streams.close();
  }
  return { rates, p50s, p99s, followsSeconds };
}

function rowsOf(label: string, rounds: StoreRounds): Row[] {
  return [
    { what: `alerts (${label}): ${FOLLOWS.toLocaleString('en-US')} follows written, 10,000 a statement or transaction`, figure: `${rounds.followsSeconds.toFixed(1)} s` },
    {
      what: `alerts (${label}): frame → outbox row, ${FRAMES.toLocaleString('en-US')} frames a round, 1 in ${ALERT_EVERY} an alert (median of ${ROUNDS}, min–max)`,
      figure: `${spread(rounds.rates, 0)} events/s`,
    },
    { what: `alerts (${label}): frame → outbox row at 1,000/s, p50 and p99 (median of ${ROUNDS}, min–max)`, figure: `${spread(rounds.p50s, 2)} and ${spread(rounds.p99s, 2)} ms` },
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

    const sqliteStore = openSqliteStore(join(dir, 'bench.db'));
    let sqlite: StoreRounds;
    try {
      sqlite = await measure('SQLite', sqliteStore, feeder, wsUrl, tokens);
    } finally {
      await sqliteStore.close();
    }
    rows.push(...rowsOf('SQLite, synchronous=NORMAL', sqlite));

    for (const synchronousCommit of ['off', 'on'] as const) {
      const label = `PostgreSQL, synchronous_commit=${synchronousCommit}`;
      const store = await openPostgresStore(await server.database(synchronousCommit));
      let pg: StoreRounds;
      try {
        pg = await measure(label, store, feeder, wsUrl, tokens);
      } finally {
        await store.close();
      }
      rows.push(...rowsOf(label, pg));
      const suffix = synchronousCommit === 'off' ? '_pg' : '_pg_sync_commit';
      recordResult(`alert_events_per_s${suffix}`, median(pg.rates), 'events/s');
      recordResult(`alert_p99_ms${suffix}`, median(pg.p99s), 'ms');
      const ratio = median(pg.rates) / median(sqlite.rates);
      if (synchronousCommit === 'off') recordResult('alert_pg_vs_sqlite_ratio', ratio, 'ratio');
      rows.push({ what: `alerts (${label}): rate ÷ SQLite's in this run`, figure: `${ratio.toFixed(2)}; ${server.describe(synchronousCommit)}` });
    }
  } finally {
    await feeder.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
