/**
 * What the operators' metrics cost the alert path, `npm run bench -- alerts-metrics`: the alert
 * bench's setup (10,000 followed tokens, 100,000 follows in 1,000 Telegram chats, the stream client
 * as shipped, the watcher and the SQLite store, the feeder in a process of its own), and throughput
 * rounds in pairs, one without the operators' HTTP server and one with it (as HTTP_PORT starts it:
 * the metrics read from the watcher, the streams and the store, readiness) while a scraper asks
 * /metrics and /readyz every second, a Prometheus scrape fifteen times more often than its default.
 * Which of a pair goes first alternates, so a drift of the machine lands on both sides.
 *
 * Figures (bench/results.json):
 * - alert_events_per_s_metrics: frames per second frame → outbox row, with the server (median of
 *   the rounds); alert_events_per_s_metrics_off: the same rounds' figure without it;
 * - alert_metrics_cost_ratio: with ÷ without, the median of the pairwise ratios (goal ≥ 0.95: at
 *   most 5% lower), with min–max;
 * - metrics_scrape_ms: one /metrics answer at the end, with every round's outbox rows waiting.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RunningChat } from '../src/chats/startChats';
import { silentLogger } from '../src/log';
import { MarketClient } from '../src/market/client';
import { Metrics } from '../src/ops/metrics';
import { serveOps, watchParts } from '../src/ops/start';
import { openSqliteStore } from '../src/store/sqliteStore';
import { createWatcher } from '../src/watch/watcher';
import {
  API_KEY,
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
  writeFollows,
} from './alertFeed';
import { recordResult } from './results';
import type { Row } from './section';

const FRAMES = Math.round(50_000 * SCALE);
const ALERT_EVERY = 10;
const PAIRS = 6;
const SCRAPE_EVERY_MS = 1_000;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function spread(values: readonly number[], digits: number): string {
  const fixed = (value: number) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${fixed(median(values))} (${fixed(Math.min(...values))}–${fixed(Math.max(...values))})`;
}

/** Asks /metrics and /readyz every SCRAPE_EVERY_MS until stopped; counts the answers. */
function scraper(address: string): { stop(): Promise<number> } {
  let stopped = false;
  let answers = 0;
  const loop = (async () => {
    while (!stopped) {
      for (const path of ['/metrics', '/readyz']) {
        const response = await fetch(`${address}${path}`);
        await response.text();
        answers += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, SCRAPE_EVERY_MS));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return answers;
    },
  };
}

export async function benchAlertsMetrics(): Promise<Row[]> {
  const rows: Row[] = [];
  const templates = await frameTemplates();
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-bench-metrics-'));
  const tokens = tokenAddresses();
  const store = openSqliteStore(join(dir, 'bench.db'));
  await writeFollows(store, tokens);
  const feeder = new Feeder(templates, { onePerSocket: false });
  const { port } = await feeder.next('listening');
  const { streams } = shippedStreamClient(`ws://127.0.0.1:${String(port)}`);
  // Only its counters are read: it sends nothing here.
  const market = new MarketClient({ baseUrl: 'http://127.0.0.1:9', apiKey: API_KEY, logger: silentLogger });

  try {
    const clock = new WatcherWorkClock(streams, store);
    progress('metrics: follows written; watcher start');
    const watcher = createWatcher({ store, streams: clock.streams, logger: silentLogger });
    await watcher.start();
    await until(() => watcher.status().processed >= TOKENS * (1 + SNAPSHOT_HOLDERS), 'every token and holders snapshot');
    await watcher.idle();

    // The server as app.ts starts it, over the parts this bench runs; alerts go to Telegram chats.
    const telegram: RunningChat = {
      name: 'telegram',
      sender: { platform: 'telegram', send: async () => ({ status: 'sent' }) },
      ended: null,
      stop: async () => undefined,
    };
    // One Metrics for the run: prom-client starts Node's default collectors (event-loop delay,
    // collections) for the life of the process, so they run in both kinds of round; what differs is
    // the server, the scrapes and what they read of the parts.
    const metrics = new Metrics();
    const parts = {
      store,
      market,
      streams,
      watcher,
      dispatcher: { counters: () => [] },
      delivery: { counters: () => null },
      reconcile: { status: () => ({ runs: 0, rows: 0 }) },
      chats: [telegram],
    };
    watchParts(metrics, parts);

    const round = async (withServer: boolean): Promise<number> => {
      global.gc?.();
      const ops = withServer ? await serveOps({ host: '127.0.0.1', port: 0, metrics, logger: silentLogger, parts }) : null;
      const scraping = ops === null ? null : scraper(ops.address);
      const before = watcher.status().processed;
      const startedAt = await feeder.blast('bot', FRAMES, ALERT_EVERY);
      await until(() => watcher.status().processed - before >= FRAMES, 'the watcher to process every frame');
      await watcher.idle();
      const rate = FRAMES / ((clock.lastWorkAt - startedAt) / 1000);
      const answers = (await scraping?.stop()) ?? 0;
      if (ops !== null && answers === 0) throw new Error('the scraper got no answer during the round');
      await ops?.close();
      return rate;
    };

    // A first round each way, unrecorded: both paths warm before any is timed.
    progress('metrics: warm-up rounds');
    await round(false);
    await round(true);
    const off: number[] = [];
    const on: number[] = [];
    for (let pair = 0; pair < PAIRS; pair++) {
      progress(`metrics: pair ${pair + 1} of ${PAIRS}`);
      // Which goes first alternates.
      if (pair % 2 === 0) {
        off.push(await round(false));
        on.push(await round(true));
      } else {
        on.push(await round(true));
        off.push(await round(false));
      }
    }
    const ratios = on.map((rate, index) => rate / (off[index] ?? NaN));
    recordResult('alert_events_per_s_metrics', median(on), 'events/s');
    recordResult('alert_events_per_s_metrics_off', median(off), 'events/s');
    recordResult('alert_metrics_cost_ratio', median(ratios), 'ratio');
    recordResult('alert_metrics_cost_ratio_min', Math.min(...ratios), 'ratio');
    recordResult('alert_metrics_cost_ratio_max', Math.max(...ratios), 'ratio');
    rows.push({
      what: `alerts with the operators' server, /metrics and /readyz scraped every ${SCRAPE_EVERY_MS / 1000} s (median of ${PAIRS}, min–max)`,
      figure: `${spread(on, 0)} events/s`,
    });
    rows.push({ what: 'alerts without it, in the same pairs', figure: `${spread(off, 0)} events/s` });
    rows.push({ what: 'with ÷ without, pairwise (goal ≥ 0.95)', figure: spread(ratios, 3) });

    // One scrape with every round's rows waiting in the outbox (nothing delivers them here).
    const ops = await serveOps({ host: '127.0.0.1', port: 0, metrics, logger: silentLogger, parts });
    const scrapeMs: number[] = [];
    for (let ask = 0; ask < 5; ask++) {
      const asked = performance.now();
      await (await fetch(`${ops.address}/metrics`)).text();
      scrapeMs.push(performance.now() - asked);
    }
    await ops.close();
    const waiting = await store.outbox.pending();
    recordResult('metrics_scrape_ms', median(scrapeMs), 'ms');
    rows.push({
      what: `one /metrics answer, ${waiting.count.toLocaleString('en-US')} alerts waiting (median of 5)`,
      figure: `${median(scrapeMs).toFixed(1)} ms`,
    });
    rows.unshift({
      what: `alerts-metrics: ${TOKENS.toLocaleString('en-US')} tokens, ${FOLLOWS.toLocaleString('en-US')} follows, ${FRAMES.toLocaleString('en-US')} frames a round, 1 in ${ALERT_EVERY} an alert`,
      figure: '',
    });

    await watcher.close();
  } finally {
    await streams.close();
    await market.close();
    await feeder.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
