/**
 * The alert path at scale, `npm run bench -- alerts`: 10,000 followed tokens, 100,000 follows in
 * 1,000 chats, the real stream client, watcher and SQLite store, and a feeder (bench/alertFeeder.mjs,
 * a child process, so it has the other core and its memory is not counted) pushing token-feed frames over real sockets.
 *
 * Figures (bench/results.json):
 * - alert_events_per_s: frames per second from the feeder's first send to the last frame's state
 *   and outbox rows committed; one frame in ALERT_EVERY flips the token's risk status (an alert to
 *   its 10 chats), the others change its holders count (state only);
 * - alert_vs_bare_ws_ratio: that rate against a bare `ws` client that only JSON.parses the same
 *   frames from the same feeder (run last, once the watcher's sockets are closed);
 * - alert_p99_ms: frame send to outbox row, at 1,000 frames a second, every frame an alert;
 * - rss_mb_10k_tokens: the bench process's RSS with everything loaded and subscribed (the feeder
 *   is another process, and this section runs in a process of its own);
 * - reconcile_requests: upstream requests of one reconciliation of the 10,000 tokens (against the
 *   simulator, counted by the simulator).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import bs58 from 'bs58';
import WebSocket from 'ws';
import { reconcileOnce } from '../src/jobs/reconcile';
import { silentLogger } from '../src/log';
import { MarketClient } from '../src/market/client';
import { StreamClient, type StreamEvent } from '../src/market/stream';
import { startSimulator } from '../src/simulator/server';
import { openSqliteStore } from '../src/store/sqliteStore';
import type { StateCommitBatch } from '../src/store/store';
import { createWatcher, type WatcherStreams } from '../src/watch/watcher';
import { recordResult } from './results';

const API_KEY = 'bench-key';
/** BENCH_ALERTS_SCALE (0–1, default 1) shrinks tokens, follows and frames alike, for a quick look while working on the path. */
const SCALE = Math.min(1, Math.max(0.01, Number(process.env.BENCH_ALERTS_SCALE ?? '1') || 1));
const TOKENS = Math.round(10_000 * SCALE);
const FOLLOWS = TOKENS * 10;
const FOLLOWS_PER_CHAT = 100;
const PER_SOCKET = 1_000;
const FRAMES = Math.round(50_000 * SCALE);
const ALERT_EVERY = 10;
const PACE_PER_SECOND = 1_000;
const PACE_SECONDS = 5;

function progress(text: string): void {
  process.stderr.write(`[alerts] ${new Date().toISOString().slice(11, 19)} ${text}\n`);
}

interface Row {
  what: string;
  figure: string;
}

const now = (): number => performance.timeOrigin + performance.now();

async function until(condition: () => boolean, what: string, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A distinct, valid Solana-style address per index. */
function address(index: number): string {
  const bytes = new Uint8Array(32);
  bytes[0] = 7;
  new DataView(bytes.buffer).setUint32(28, index + 1);
  return bs58.encode(bytes);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

class Feeder {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<string, (message: Record<string, unknown>) => void>();

  constructor(template: unknown) {
    this.child = fork(fileURLToPath(new URL('./alertFeeder.mjs', import.meta.url)), [], {
      env: { ...process.env, ALERT_FEEDER_TEMPLATE: JSON.stringify(template) },
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (message: Record<string, unknown>) => {
      const type = String(message.type);
      const resolve = this.waiting.get(type);
      this.waiting.delete(type);
      resolve?.(message);
    });
  }

  next(type: string): Promise<Record<string, unknown>> {
    return new Promise((resolve) => this.waiting.set(type, resolve));
  }

  send(message: Record<string, unknown>): void {
    this.child.send(message);
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.send({ type: 'close' });
    const timer = setTimeout(() => this.child.kill(), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

/** The bare client: the same sockets and subscriptions, and only JSON.parse per frame. */
async function bareRate(feeder: Feeder, wsUrl: string, tokens: string[]): Promise<number> {
  let parsed = 0;
  let lastAt = 0;
  const sockets: WebSocket[] = [];
  for (let first = 0; first < tokens.length; first += PER_SOCKET) {
    const socket = new WebSocket(`${wsUrl}/ws/token-feed`);
    sockets.push(socket);
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type?: string };
      if (message.type === 'token') {
        parsed += 1;
        lastAt = now();
      }
    });
    await new Promise((resolve) => socket.once('open', resolve));
    for (const tokenAddress of tokens.slice(first, first + PER_SOCKET)) socket.send(JSON.stringify({ tokenAddress, apiKey: API_KEY }));
  }
  await until(() => parsed >= tokens.length, 'the bare snapshots');
  const start = parsed;
  const blasted = feeder.next('blasted');
  feeder.send({ type: 'blast', count: FRAMES, alertEvery: ALERT_EVERY });
  const { startedAt } = await blasted;
  await until(() => parsed - start >= FRAMES, 'the bare client to read every frame');
  for (const socket of sockets) socket.terminate();
  return FRAMES / ((lastAt - Number(startedAt)) / 1000);
}

export async function benchAlerts(): Promise<Row[]> {
  const rows: Row[] = [];
  // The frames are one simulated token; the simulator itself is started again only to count the reconciliation.
  const templateSim = await startSimulator({ apiKey: API_KEY, port: 0, seed: 42 });
  const template = templateSim.market.token(templateSim.market.tokenAddresses()[0] ?? '');
  await templateSim.close();
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-bench-'));
  const store = openSqliteStore(join(dir, 'bench.db'));
  const feeder = new Feeder(template);
  const { port } = await feeder.next('listening');
  const wsUrl = `ws://127.0.0.1:${String(port)}`;
  const tokens = Array.from({ length: TOKENS }, (_, index) => address(index));

  try {
    // 100,000 follows: chat c follows 100 consecutive tokens, so every token has 10 chats.
    const followStarted = performance.now();
    const options = { events: [], minUsd: 0, thresholdPct: 10, side: 'both' as const };
    for (let index = 0; index < FOLLOWS; index++) {
      const chat = Math.floor(index / FOLLOWS_PER_CHAT);
      await store.follows.upsert({
        chat: { platform: 'telegram', chatId: String(1_000_000 + chat), threadId: null, scopeId: null },
        kind: 'token',
        address: tokens[(chat * FOLLOWS_PER_CHAT + (index % FOLLOWS_PER_CHAT)) % TOKENS] ?? '',
        label: null,
        options,
        addedBy: 'bench',
        now: new Date(),
      });
    }
    rows.push({ what: `alerts: ${FOLLOWS.toLocaleString('en-US')} follows written`, figure: `${((performance.now() - followStarted) / 1000).toFixed(1)} s` });

    // The watcher, with a thin wrapper that reads each frame's send time (the token's `version`).
    const sentAt = new Map<string, number>();
    const streams = new StreamClient({ wsUrl, apiKey: API_KEY, logger: silentLogger, subscriptionsPerSocket: PER_SOCKET });
    const latencies: number[] = [];
    let timing = false;
    // When the watcher last finished with a frame or a commit: the throughput phase ends at the
    // later of the two for its last frame, as the bare client's ends at its last parse (not at the
    // next poll of the count, up to 10 ms later).
    let lastInputDoneAt = 0;
    let lastCommitAt = 0;
    const timed: WatcherStreams = {
      subscribe: (stream, target, onEvent, subscribeOptions) =>
        streams.subscribe(
          stream,
          target,
          (event: StreamEvent) => {
            // Only while timing: the throughput phase should not pay for the latency phase's bookkeeping.
            if (timing && event.kind === 'token' && event.token.version !== null) sentAt.set(event.token.address, Number(event.token.version));
            const accepted = onEvent(event);
            lastInputDoneAt = now();
            return accepted;
          },
          subscribeOptions,
        ),
    };
    const commitMany = store.state.commitMany.bind(store.state);
    store.state.commitMany = async (batch: StateCommitBatch, at: Date) => {
      const rowsAdded = await commitMany(batch, at);
      const done = now();
      lastCommitAt = done;
      if (timing) {
        for (const item of batch.tokens) if (item.alerts.length > 0) latencies.push(done - (sentAt.get(item.snapshot.address) ?? done));
      }
      return rowsAdded;
    };
    progress('follows written; watcher start');
    const watcher = createWatcher({ store, streams: timed, logger: silentLogger });
    const startStarted = performance.now();
    await watcher.start();
    await until(() => watcher.status().processed >= TOKENS, 'every token snapshot');
    await watcher.idle();
    rows.push({ what: `alerts: watcher start, ${TOKENS.toLocaleString('en-US')} tokens subscribed with their baseline`, figure: `${((performance.now() - startStarted) / 1000).toFixed(1)} s` });

    global.gc?.();
    const rss = process.memoryUsage().rss / 1024 / 1024;
    recordResult('rss_mb_10k_tokens', rss, 'MB');
    rows.push({ what: `alerts: process RSS at ${TOKENS.toLocaleString('en-US')} tokens and ${FOLLOWS.toLocaleString('en-US')} follows`, figure: `${rss.toFixed(0)} MB` });

    progress('watcher started; throughput');
    // Throughput: frame to outbox row, as fast as the feeder can push.
    const before = watcher.status();
    const blasted = feeder.next('blasted');
    feeder.send({ type: 'blast', count: FRAMES, alertEvery: ALERT_EVERY });
    const { startedAt } = await blasted;
    await until(() => watcher.status().processed - before.processed >= FRAMES, 'the watcher to process every frame');
    await watcher.idle();
    const rate = FRAMES / ((Math.max(lastInputDoneAt, lastCommitAt) - Number(startedAt)) / 1000);
    const after = watcher.status();
    recordResult('alert_events_per_s', rate, 'events/s');
    const throughputRow = rows.length;
    rows.push({
      what: `alerts: frame → outbox row, ${FRAMES.toLocaleString('en-US')} frames, 1 in ${ALERT_EVERY} an alert`,
      figure: `${Math.round(rate).toLocaleString('en-US')} events/s, ${(after.rows - before.rows).toLocaleString('en-US')} outbox rows`,
    });

    progress('throughput done; latency');
    // Latency at a steady 1,000 frames a second, each an alert to 10 chats.
    timing = true;
    const paced = feeder.next('paced');
    const beforePace = watcher.status().processed;
    feeder.send({ type: 'pace', perSecond: PACE_PER_SECOND, count: PACE_PER_SECOND * PACE_SECONDS });
    await paced;
    await until(() => watcher.status().processed - beforePace >= PACE_PER_SECOND * PACE_SECONDS, 'the paced frames');
    await watcher.idle();
    timing = false;
    const p99 = percentile(latencies, 99);
    recordResult('alert_p99_ms', p99, 'ms');
    rows.push({ what: 'alerts: frame → outbox row at 1,000/s, p50 / p99', figure: `${percentile(latencies, 50).toFixed(2)} / ${p99.toFixed(2)} ms (${latencies.length} alerts)` });

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

    // The bare client last, once the watcher's sockets are closed (the feeder sends every frame to
    // every subscribed socket): run first, its 50,000 parsed frames would stay in the process's
    // memory figure above, which is the bot's.
    progress('reconciliation done; bare ws client');
    global.gc?.();
    const bare = await bareRate(feeder, wsUrl, tokens);
    recordResult('alert_vs_bare_ws_ratio', rate / bare, 'ratio');
    rows.push({ what: 'alerts: bare ws client, JSON.parse only', figure: `${Math.round(bare).toLocaleString('en-US')} frames/s` });
    const throughput = rows[throughputRow];
    if (throughput) throughput.figure += ` (${(rate / bare).toFixed(2)} of bare ws)`;
  } finally {
    await feeder.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
