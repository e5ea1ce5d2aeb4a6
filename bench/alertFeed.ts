/**
 * What the alert bench's phases share: the feeder (bench/alertFeeder.mjs, a child process that
 * serves the stream protocol for 10,000 tokens) and its commands, the frames it is made from, the
 * follows the bot holds, and the stream client built as the bot ships it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import bs58 from 'bs58';
import { loadConfig } from '../src/config';
import { silentLogger } from '../src/log';
import { StreamClient } from '../src/market/stream';
import { raiseOpenFilesLimit, streamSocketsAllowed } from '../src/openFiles';
import { performance } from 'node:perf_hooks';
import type { Follow } from '../src/model/follow';
import type { StreamEvent } from '../src/market/stream';
import type { CommitFence, FollowRepository, NewFollow, StateCommitBatch, Store } from '../src/store/store';
import type { WatcherStreams } from '../src/watch/watcher';

export const API_KEY = 'bench-key';
/** BENCH_ALERTS_SCALE (0–1, default 1) shrinks tokens, follows and frames alike, for a quick look while working on the path. */
export const SCALE = Math.min(1, Math.max(0.01, Number(process.env.BENCH_ALERTS_SCALE ?? '1') || 1));
export const TOKENS = Math.round(10_000 * SCALE);
export const FOLLOWS_PER_CHAT = 100;
export const FOLLOWS = TOKENS * 10;
/** holders-live's snapshot: the 20 largest holders, as the simulator sends it. */
export const SNAPSHOT_HOLDERS = 20;

export function progress(text: string): void {
  process.stderr.write(`[alerts] ${new Date().toISOString().slice(11, 19)} ${text}\n`);
}

/** Polls a condition; the deadline only bounds the wait. */
export async function until(condition: () => boolean, what: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A distinct, valid Solana-style address per index. */
export function address(index: number): string {
  const bytes = new Uint8Array(32);
  bytes[0] = 7;
  new DataView(bytes.buffer).setUint32(28, index + 1);
  return bs58.encode(bytes);
}

export const tokenAddresses = (): string[] => Array.from({ length: TOKENS }, (_, index) => address(index));

export interface FrameTemplates {
  token: unknown;
  holders: unknown[];
}

/** One simulated token and its 20 largest holders: every frame the feeder sends is made from them. */
export async function frameTemplates(): Promise<FrameTemplates> {
  // Loaded here, not with this file: the memory phase takes its templates from its parent and
  // must not carry the simulator's code.
  const { startSimulator } = await import('tmds-simulator');
  const sim = await startSimulator({ apiKey: API_KEY, port: 0, seed: 42 });
  try {
    const first = sim.market.tokenAddresses()[0] ?? '';
    const holders = (sim.market.holders(first, 'balance') ?? [])
      .filter((holder) => holder.currentlyHoldingAmount !== '0')
      .slice(0, SNAPSHOT_HOLDERS);
    return { token: sim.market.token(first), holders };
  } finally {
    await sim.close();
  }
}

/** 100,000 follows in 1,000 chats: chat c follows 100 consecutive tokens, every kind of alert, so every token has 10 chats. */
export async function writeFollows(store: Store, tokens: readonly string[]): Promise<void> {
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
}

/** A store as the bench fills it: many follows written at once. */
export type BenchStore = Store & {
  follows: FollowRepository & { upsertMany(follows: readonly NewFollow[]): Promise<Array<{ follow: Follow; created: boolean }>> };
};

/** The same follows as writeFollows, written many at a time (both stores have upsertMany); resolves with the seconds it took. */
export async function writeFollowsMany(store: BenchStore, tokens: readonly string[]): Promise<number> {
  const started = performance.now();
  const options = { events: [], minUsd: 0, thresholdPct: 10, side: 'both' as const };
  const follows: NewFollow[] = [];
  for (let index = 0; index < FOLLOWS; index++) {
    const chat = Math.floor(index / FOLLOWS_PER_CHAT);
    follows.push({
      chat: { platform: 'telegram', chatId: String(1_000_000 + chat), threadId: null, scopeId: null },
      kind: 'token',
      address: tokens[(chat * FOLLOWS_PER_CHAT + (index % FOLLOWS_PER_CHAT)) % TOKENS] ?? '',
      label: null,
      options,
      addedBy: 'bench',
      now: new Date(),
    });
  }
  for (let first = 0; first < follows.length; first += 10_000) await store.follows.upsertMany(follows.slice(first, first + 10_000));
  return (performance.now() - started) / 1000;
}

/**
 * The stream client as src/app.ts builds it from the default settings: `auto` packing, the frame
 * and queue limits, and no more sockets than the open-files limit leaves (the service is another
 * process here, so one file a socket).
 */
export function shippedStreamClient(wsUrl: string): { streams: StreamClient; maxSockets: number | null; openFiles: number | null } {
  const config = loadConfig({});
  const limit = raiseOpenFilesLimit();
  const maxSockets = limit === null ? null : streamSocketsAllowed(limit, 1);
  const streams = new StreamClient({
    wsUrl,
    apiKey: API_KEY,
    logger: silentLogger,
    maxFrameBytes: config.wsMaxFrameBytes,
    queueMaxBytes: config.wsQueueMaxBytes,
    subscriptionsPerSocket: config.wsSubscriptionsPerSocket,
    ...(maxSockets === null ? {} : { maxSockets }),
  });
  return { streams, maxSockets, openFiles: limit?.soft ?? null };
}

/**
 * The watcher's work, timed, as every alert section reads it: `streams` wraps the stream client so
 * that the time the watcher last finished with a frame is known, and the store's `commitMany` is
 * wrapped in place for the time of the last commit (a throughput round ends at the later of the
 * two, not at the next poll of a count). While `timing`, each frame's send time (the token's
 * `version`, as the feeder writes it) is kept, and each committed alert's frame → commit time is
 * added to `latencies`; the throughput rounds do not pay for that bookkeeping.
 */
export class WatcherWorkClock {
  readonly streams: WatcherStreams;
  timing = false;
  latencies: number[] = [];
  private lastInputDoneAt = 0;
  private lastCommitAt = 0;
  private readonly sentAt = new Map<string, number>();

  constructor(streams: WatcherStreams, store: Store) {
    this.streams = {
      subscribe: (stream, target, onEvent, options) =>
        streams.subscribe(
          stream,
          target,
          (event: StreamEvent) => {
            if (this.timing && event.kind === 'token' && event.token.version !== null)
              this.sentAt.set(event.token.address, Number(event.token.version));
            const accepted = onEvent(event);
            this.lastInputDoneAt = workNow();
            return accepted;
          },
          options,
        ),
    };
    const commitMany = store.state.commitMany.bind(store.state);
    store.state.commitMany = async (batch: StateCommitBatch, at: Date, fence?: CommitFence) => {
      const rows = await commitMany(batch, at, fence);
      const done = workNow();
      this.lastCommitAt = done;
      if (this.timing)
        for (const item of batch.tokens)
          if (item.alerts.length > 0) this.latencies.push(done - (this.sentAt.get(item.snapshot.address) ?? done));
      return rows;
    };
  }

  /** Epoch ms (sub-millisecond) when the watcher last finished with a frame or a commit. */
  get lastWorkAt(): number {
    return Math.max(this.lastInputDoneAt, this.lastCommitAt);
  }
}

/** Epoch ms with a fraction, comparable across processes (the feeder stamps its sends so). */
export function workNow(): number {
  return performance.timeOrigin + performance.now();
}

export interface FeederMessage {
  type: string;
  [field: string]: unknown;
}

/** The feeder child process and its commands. */
export class Feeder {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<string, (message: FeederMessage) => void>();

  constructor(templates: FrameTemplates, options: { onePerSocket: boolean }) {
    this.child = fork(fileURLToPath(new URL('./alertFeeder.mjs', import.meta.url)), [], {
      env: {
        ...process.env,
        ALERT_FEEDER_TEMPLATE: JSON.stringify(templates.token),
        ALERT_FEEDER_HOLDERS: JSON.stringify(templates.holders),
        ALERT_FEEDER_ONE_PER_SOCKET: options.onePerSocket ? '1' : '0',
      },
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (message: FeederMessage) => {
      const resolve = this.waiting.get(message.type);
      this.waiting.delete(message.type);
      resolve?.(message);
    });
  }

  next(type: string): Promise<FeederMessage> {
    return new Promise((resolve) => this.waiting.set(type, resolve));
  }

  send(message: Record<string, unknown>): void {
    this.child.send(message);
  }

  /** The feeder's own count of open sockets and live subscriptions. */
  async count(): Promise<{ sockets: number; subscriptions: number }> {
    const counted = this.next('counted');
    this.send({ type: 'count' });
    const message = await counted;
    return { sockets: Number(message.sockets), subscriptions: Number(message.subscriptions) };
  }

  /** Sends `count` frames to a group's sockets as fast as they take them; resolves with the first send's time. */
  async blast(group: string, count: number, alertEvery: number): Promise<number> {
    const blasted = this.next('blasted');
    this.send({ type: 'blast', group, count, alertEvery });
    return Number((await blasted).startedAt);
  }

  /** Sends `count` frames at `perSecond`, each an alert; resolves when the last is sent. */
  async pace(group: string, perSecond: number, count: number): Promise<void> {
    const paced = this.next('paced');
    this.send({ type: 'pace', group, perSecond, count });
    await paced;
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.send({ type: 'close' });
    const timer = setTimeout(() => this.child.kill(), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
