/**
 * The alert path at scale, as the bot ships, `npm run bench -- alerts`: 10,000 followed tokens,
 * 100,000 follows in 1,000 chats, every kind of alert followed (so holders-live is subscribed
 * beside token-feed, as the bot does), the real stream client built from the default settings
 * (`auto` packing, the open-files limit), watcher and SQLite store, and a feeder
 * (bench/alertFeeder.mjs, a child process, so it has the other core and its memory is not counted)
 * serving the stream protocol over real sockets as the simulator does, for 10,000 tokens.
 *
 * Figures (bench/results.json):
 * - watcher_start_s_10k_tokens: from the watcher's start to every baseline read (each token's
 *   snapshot and its 20 holders compared and committed);
 * - rss_mb_10k_tokens: the RSS of the same bot compiled as shipped and run by plain `node` with the
 *   Dockerfile's heap cap (bench/alertsMemory.ts, a process of its own, after a full collection),
 *   with the V8 heap by space beside it; rss_mb_10k_tokens_tsx: this process's, under tsx, then;
 * - alert_events_per_s and alert_vs_bare_ws_ratio: in interleaved rounds, bot then bare, seven
 *   pairs: the bot's frames per second from the feeder's first send to the last frame's state and
 *   outbox rows committed (one frame in ALERT_EVERY flips the token's risk status, an alert to its
 *   10 chats; the others change its holders count, state only), and a bare `ws` client's, which
 *   only JSON.parses the same frames from the same feeder on as many sockets. The rate is the
 *   median of the bot's rounds, the ratio the median of the pairwise ratios; both with min–max;
 * - alert_p99_ms and alert_p99_vs_bare_ratio: likewise in five pairs at 1,000 frames a second,
 *   each frame an alert: the bot's frame send → outbox row p99, and the bare client's frame send
 *   → parsed p99; the median of the bot's p99s, and of the pairwise ratios;
 * - reconcile_requests: upstream requests of one reconciliation of the 10,000 tokens (against the
 *   simulator, counted by the simulator);
 * - rss_mb_10k_tokens_one_per_socket, stream_sockets_10k_tokens_one_per_socket (and the
 *   subscriptions left waiting): the same bot against the feeder made strict, one subscription a
 *   socket (bench/alertsOnePerSocket.ts, a process of its own).
 *
 * BENCH_CPU_PROFILE=DIR writes a CPU profile of each of the bot's throughput rounds to DIR
 * (bench/cpuProfile.ts); BENCH_HEAP_SNAPSHOT=FILE writes a heap snapshot where the RSS is read;
 * BENCH_ALERTS_ONLY=start stops once the RSS is read, BENCH_ALERTS_ONLY=throughput after the
 * throughput rounds; BENCH_ALERTS_ONLY=memory runs the memory phase alone.
 * BENCH_ALERTS_WITHOUT_KINDS=graduation,developer-sold,insiders-selling runs the same path with
 * those kinds left out, to compare the figures with and without them (docs/alerts.md).
 */
import { fork } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import WebSocket from 'ws';
import { removeAlertKind } from '../src/alerts/registry';
import { reconcileOnce } from '../src/jobs/reconcile';
import { silentLogger } from '../src/log';
import { MarketClient } from '../src/market/client';
import { startSimulator } from 'tmds-simulator';
import { openSqliteStore } from '../src/store/sqliteStore';
import { createWatcher } from '../src/watch/watcher';
import {
  API_KEY,
  Feeder,
  FOLLOWS,
  type FrameTemplates,
  frameTemplates,
  progress,
  SCALE,
  shippedStreamClient,
  SNAPSHOT_HOLDERS,
  tokenAddresses,
  TOKENS,
  until,
  WatcherWorkClock,
  workNow,
  writeFollows,
} from './alertFeed';
import type { MemoryResult } from './alertsMemory';
import type { OnePerSocketResult } from './alertsOnePerSocket';
import { compileBenchEntry } from './compiled';
import { startCpuProfile, stopCpuProfile } from './cpuProfile';
import { recordResult } from './results';

const FRAMES = Math.round(50_000 * SCALE);
const ALERT_EVERY = 10;
const THROUGHPUT_PAIRS = 7;
const LATENCY_PAIRS = 5;
const PACE_PER_SECOND = 1_000;
const PACE_SECONDS = 5;
/** The bare client's sockets carry as many subscriptions as the bot's do under `auto`. */
const BARE_PER_SOCKET = 500;
/** For a look at the path while working on it: the other phases take minutes. */
const ONLY = process.env.BENCH_ALERTS_ONLY ?? '';
const THROUGHPUT_ONLY = ONLY === 'throughput' || ONLY === 'start';

interface Row {
  what: string;
  figure: string;
}

const now = workNow;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const median = (values: number[]): number => percentile(values, 50);

/** "0.47 (0.41–0.55)": a median with its range, to `digits`. */
function spread(values: number[], digits: number): string {
  return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
}

function recordSpread(name: string, values: number[], unit: string): void {
  recordResult(name, median(values), unit);
  recordResult(`${name}_min`, Math.min(...values), unit);
  recordResult(`${name}_max`, Math.max(...values), unit);
}

/** The bare client: as many sockets as the bot's token-feed, the same tokens, and only JSON.parse per frame. */
class BareClient {
  parsed = 0;
  lastAt = 0;
  timing = false;
  latencies: number[] = [];
  private readonly sockets: WebSocket[] = [];

  async connect(wsUrl: string, tokens: readonly string[]): Promise<void> {
    for (let first = 0; first < tokens.length; first += BARE_PER_SOCKET) {
      const socket = new WebSocket(`${wsUrl}/ws/token-feed?group=bare`, { perMessageDeflate: false });
      this.sockets.push(socket);
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type?: string; data?: { version?: string } };
        if (message.type !== 'token') return;
        this.parsed += 1;
        this.lastAt = now();
        if (this.timing) this.latencies.push(this.lastAt - Number(message.data?.version));
      });
      await new Promise((resolve) => socket.once('open', resolve));
      for (const tokenAddress of tokens.slice(first, first + BARE_PER_SOCKET))
        socket.send(JSON.stringify({ tokenAddress, apiKey: API_KEY }));
    }
    await until(() => this.parsed >= tokens.length, 'the bare snapshots');
  }

  close(): void {
    for (const socket of this.sockets) socket.terminate();
  }
}

/**
 * The memory phase compiled as the bot ships, run by plain `node` with the Dockerfile's heap cap
 * (and gc exposed, to read the heap after a full collection), on a copy of the follows.
 */
function shippedMemory(databasePath: string, templates: FrameTemplates): Promise<MemoryResult> {
  const entry = compileBenchEntry('bench/alertsMemory.ts');
  const child = fork(entry, [databasePath], {
    execArgv: ['--max-old-space-size=512', '--expose-gc'],
    env: { ...process.env, BENCH_FRAME_TEMPLATES: JSON.stringify(templates) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let result: MemoryResult | null = null;
    child.on('message', (message: { type: string; result: MemoryResult }) => {
      if (message.type === 'result') result = message.result;
    });
    child.on('exit', (code) =>
      result === null ? reject(new Error(`the memory phase failed (exit code ${String(code)})`)) : resolve(result),
    );
  });
}

/** The memory phase's figures: rss_mb_10k_tokens, and what holds it. */
async function memoryRow(databasePath: string, templates: FrameTemplates): Promise<Row> {
  const memory = await shippedMemory(databasePath, templates);
  recordResult('rss_mb_10k_tokens', memory.rssMb, 'MB');
  const mib = (value: number) => `${value.toFixed(0)} MB`;
  return {
    what: `alerts: process RSS at ${TOKENS.toLocaleString('en-US')} tokens and ${FOLLOWS.toLocaleString('en-US')} follows, \`auto\`, compiled as shipped (plain node)`,
    figure:
      `${mib(memory.rssMb)} (${mib(memory.startRssMb)} at start); V8 heap in use ${mib(memory.heapUsedMb)} of ${mib(memory.heapHeldMb)} held ` +
      `(${memory.spaces.map((space) => `${space.name} ${mib(space.heldMb)}/${mib(space.usedMb)}`).join(', ')}); buffers ${mib(memory.buffersMb)}; ` +
      `outside the heap ${mib(memory.rssMb - memory.heapHeldMb)}` +
      (memory.anonMb === null || memory.fileMb === null ? '' : `; anonymous ${mib(memory.anonMb)}, mapped files ${mib(memory.fileMb)}`),
  };
}

/** The one-per-socket phase in a process of its own, on a copy of the follows. */
function onePerSocket(databasePath: string): Promise<OnePerSocketResult> {
  const child = fork(fileURLToPath(new URL('./alertsOnePerSocket.ts', import.meta.url)), [databasePath], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let result: OnePerSocketResult | null = null;
    child.on('message', (message: { type: string; result: OnePerSocketResult }) => {
      if (message.type === 'result') result = message.result;
    });
    child.on('exit', (code) =>
      result === null ? reject(new Error(`the one-per-socket phase failed (exit code ${String(code)})`)) : resolve(result),
    );
  });
}

export async function benchAlerts(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const name of (process.env.BENCH_ALERTS_WITHOUT_KINDS ?? '').split(',').filter((part) => part !== '')) {
    if (!removeAlertKind(name)) throw new Error(`BENCH_ALERTS_WITHOUT_KINDS: no alert kind named ${name}`);
  }
  const templates = await frameTemplates();
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-bench-'));
  const databasePath = join(dir, 'bench.db');
  const strictDatabasePath = join(dir, 'bench-one-per-socket.db');
  const memoryDatabasePath = join(dir, 'bench-memory.db');
  const tokens = tokenAddresses();

  const followStarted = performance.now();
  const writing = openSqliteStore(databasePath);
  await writeFollows(writing, tokens);
  await writing.close();
  copyFileSync(databasePath, strictDatabasePath);
  copyFileSync(databasePath, memoryDatabasePath);
  rows.push({
    what: `alerts: ${FOLLOWS.toLocaleString('en-US')} follows written`,
    figure: `${((performance.now() - followStarted) / 1000).toFixed(1)} s`,
  });
  if (ONLY === 'memory') {
    rows.push(await memoryRow(memoryDatabasePath, templates));
    rmSync(dir, { recursive: true, force: true });
    return rows;
  }

  const store = openSqliteStore(databasePath);
  const feeder = new Feeder(templates, { onePerSocket: false });
  const { port } = await feeder.next('listening');
  const wsUrl = `ws://127.0.0.1:${String(port)}`;
  const bare = new BareClient();

  try {
    // The watcher, with a thin wrapper that reads each frame's send time (the token's `version`).
    const { streams, maxSockets, openFiles } = shippedStreamClient(wsUrl);
    const clock = new WatcherWorkClock(streams, store);
    const timed = clock.streams;

    progress('follows written; watcher start');
    const watcher = createWatcher({ store, streams: timed, logger: silentLogger });
    const startStarted = performance.now();
    await watcher.start();
    await until(() => watcher.status().processed >= TOKENS * (1 + SNAPSHOT_HOLDERS), 'every token and holders snapshot');
    await watcher.idle();
    const startSeconds = (performance.now() - startStarted) / 1000;
    recordResult('watcher_start_s_10k_tokens', startSeconds, 's');
    const packed = streams.status();
    rows.push({
      what: `alerts: watcher start to every baseline read, ${TOKENS.toLocaleString('en-US')} tokens (token and 20 holders each), \`auto\``,
      figure: `${startSeconds.toFixed(1)} s; ${packed.sockets.length} sockets, ${packed.packing.state} at ${packed.packing.perSocket} a socket (open-files limit ${String(openFiles)}, up to ${String(maxSockets)} stream sockets)`,
    });

    global.gc?.();
    const memory = process.memoryUsage();
    const rss = memory.rss / 1024 / 1024;
    // Under tsx: the shipped figure, rss_mb_10k_tokens, is the compiled memory phase's.
    recordResult('rss_mb_10k_tokens_tsx', rss, 'MB');
    const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    rows.push({
      what: `alerts: process RSS at ${TOKENS.toLocaleString('en-US')} tokens and ${FOLLOWS.toLocaleString('en-US')} follows, \`auto\`, under tsx`,
      figure: `${rss.toFixed(0)} MB (V8 heap in use ${mib(memory.heapUsed)} of ${mib(memory.heapTotal)} held; off the heap: ${mib(memory.external)} external, ${mib(memory.arrayBuffers)} of it buffers)`,
    });
    // What holds the heap, by type: BENCH_HEAP_SNAPSHOT=FILE writes it here, for a heap snapshot reader.
    if (process.env.BENCH_HEAP_SNAPSHOT !== undefined) writeHeapSnapshot(process.env.BENCH_HEAP_SNAPSHOT);
    const spaces = getHeapSpaceStatistics().filter((space) => space.space_size >= 1024 * 1024);
    rows.push({
      what: 'alerts: the V8 heap by space then, held (in use)',
      figure: spaces.map((space) => `${space.space_name} ${mib(space.space_size)} (${mib(space.space_used_size)})`).join(', '),
    });
    if (ONLY === 'start') {
      await watcher.close();
      await streams.close();
      return rows;
    }

    progress('watcher started; the bare client connects');
    await bare.connect(wsUrl, tokens);

    // Throughput, bot then bare, in pairs: a drift of the machine lands on both sides of a pair.
    const botRates: number[] = [];
    const bareRates: number[] = [];
    const rowsAdded: number[] = [];
    for (let pair = 0; pair < THROUGHPUT_PAIRS; pair++) {
      progress(`throughput pair ${pair + 1} of ${THROUGHPUT_PAIRS}`);
      const before = watcher.status();
      await startCpuProfile();
      const startedAt = await feeder.blast('bot', FRAMES, ALERT_EVERY);
      await until(() => watcher.status().processed - before.processed >= FRAMES, 'the watcher to process every frame');
      await watcher.idle();
      await stopCpuProfile('alerts-throughput');
      botRates.push(FRAMES / ((clock.lastWorkAt - startedAt) / 1000));
      rowsAdded.push(watcher.status().rows - before.rows);

      global.gc?.();
      const parsedBefore = bare.parsed;
      const bareStartedAt = await feeder.blast('bare', FRAMES, ALERT_EVERY);
      await until(() => bare.parsed - parsedBefore >= FRAMES, 'the bare client to read every frame');
      bareRates.push(FRAMES / ((bare.lastAt - bareStartedAt) / 1000));
      global.gc?.();
    }
    const ratios = botRates.map((rate, index) => rate / (bareRates[index] ?? NaN));
    recordSpread('alert_events_per_s', botRates, 'events/s');
    recordSpread('alert_vs_bare_ws_ratio', ratios, 'ratio');
    rows.push({
      what: `alerts: frame → outbox row, ${FRAMES.toLocaleString('en-US')} frames a round, 1 in ${ALERT_EVERY} an alert (median of ${THROUGHPUT_PAIRS} rounds, min–max)`,
      figure: `${spread(botRates, 0)} events/s, ${median(rowsAdded).toLocaleString('en-US')} outbox rows a round`,
    });
    rows.push({
      what: 'alerts: bare ws client, JSON.parse only, in the same rounds (absolute)',
      figure: `${spread(bareRates, 0)} frames/s`,
    });
    rows.push({ what: 'alerts: bot ÷ bare, pairwise (median, min–max)', figure: spread(ratios, 2) });
    if (THROUGHPUT_ONLY) {
      await watcher.close();
      await streams.close();
      return rows;
    }

    // Latency at a steady 1,000 frames a second, each an alert to 10 chats; bot then bare, in pairs.
    const botP99: number[] = [];
    const botP50: number[] = [];
    const bareP99: number[] = [];
    for (let pair = 0; pair < LATENCY_PAIRS; pair++) {
      progress(`latency pair ${pair + 1} of ${LATENCY_PAIRS}`);
      clock.latencies = [];
      clock.timing = true;
      const beforePace = watcher.status().processed;
      await feeder.pace('bot', PACE_PER_SECOND, PACE_PER_SECOND * PACE_SECONDS);
      await until(() => watcher.status().processed - beforePace >= PACE_PER_SECOND * PACE_SECONDS, 'the paced frames');
      await watcher.idle();
      clock.timing = false;
      botP99.push(percentile(clock.latencies, 99));
      botP50.push(percentile(clock.latencies, 50));

      bare.latencies = [];
      bare.timing = true;
      const parsedBefore = bare.parsed;
      await feeder.pace('bare', PACE_PER_SECOND, PACE_PER_SECOND * PACE_SECONDS);
      await until(() => bare.parsed - parsedBefore >= PACE_PER_SECOND * PACE_SECONDS, 'the bare client to read the paced frames');
      bare.timing = false;
      bareP99.push(percentile(bare.latencies, 99));
    }
    const p99Ratios = botP99.map((p99, index) => p99 / (bareP99[index] ?? NaN));
    recordSpread('alert_p99_ms', botP99, 'ms');
    recordSpread('alert_p99_vs_bare_ratio', p99Ratios, 'ratio');
    rows.push({
      what: `alerts: frame → outbox row at 1,000/s, p50 and p99 (absolute, median of ${LATENCY_PAIRS} rounds, min–max)`,
      figure: `${spread(botP50, 2)} and ${spread(botP99, 2)} ms`,
    });
    rows.push({ what: 'alerts: bare ws client frame → parsed at 1,000/s, p99 (absolute)', figure: `${spread(bareP99, 2)} ms` });
    rows.push({ what: 'alerts: bot p99 ÷ bare p99, pairwise (median, min–max)', figure: spread(p99Ratios, 2) });

    progress('latency done; reconciliation');
    // One reconciliation of the 10,000 tokens, counted by the service.
    const sim = await startSimulator({ apiKey: API_KEY, port: 0, seed: 42 });
    const market = new MarketClient({ baseUrl: sim.baseUrl, apiKey: API_KEY, logger: silentLogger });
    sim.stats.reset();
    const reconcileStarted = performance.now();
    const result = await reconcileOnce({ watcher, market });
    const requests = sim.stats.count();
    recordResult('reconcile_requests', requests, 'requests');
    rows.push({
      what: `alerts: one reconciliation of ${TOKENS.toLocaleString('en-US')} tokens`,
      figure: `${requests} requests (${result.requests} asked), ${((performance.now() - reconcileStarted) / 1000).toFixed(2)} s`,
    });
    await market.close();
    await sim.close();

    await watcher.close();
    await streams.close();
  } finally {
    bare.close();
    await feeder.close();
    await store.close();
    // A partial run ends here, and returns from within.
    if (THROUGHPUT_ONLY) rmSync(dir, { recursive: true, force: true });
  }

  if (THROUGHPUT_ONLY) return rows;
  progress('the memory phase, compiled as shipped');
  rows.push(await memoryRow(memoryDatabasePath, templates));

  progress('the same bot against a service that takes one subscription a socket');
  try {
    const strict = await onePerSocket(strictDatabasePath);
    recordResult('rss_mb_10k_tokens_one_per_socket', strict.rssMb, 'MB');
    recordResult('stream_sockets_10k_tokens_one_per_socket', strict.sockets, 'sockets');
    recordResult('stream_waiting_10k_tokens_one_per_socket', strict.waiting, 'subscriptions');
    rows.push({
      what: `alerts: one subscription a socket (strict service), ${TOKENS.toLocaleString('en-US')} tokens: sockets open and live, subscriptions waiting`,
      figure:
        `${strict.sockets.toLocaleString('en-US')} sockets (${strict.live.toLocaleString('en-US')} live at the service; limit ${String(strict.maxSockets)} of ${String(strict.openFiles)} open files), ` +
        `${strict.waiting.toLocaleString('en-US')} waiting: ${Math.floor(strict.sockets / 2).toLocaleString('en-US')} tokens fully watched; ${strict.seconds.toFixed(1)} s`,
    });
    rows.push({
      what: 'alerts: process RSS, one subscription a socket',
      figure: `${strict.rssMb.toFixed(0)} MB (V8 heap in use ${strict.heapUsedMb.toFixed(0)} MB)`,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
