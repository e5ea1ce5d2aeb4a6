/**
 * A commit the store refuses (it is away, or full) leaves the watcher's memory where the store is,
 * and the next read of the service finds the change again and tells it once: whether the commit
 * failed before it reached the store or after it landed (the answer lost on its way back), whether
 * later frames of the same token were compared while it waited, and however many commits failed.
 *
 * The real simulator, stream and market clients and a real SQLite store; only the store's
 * `commitMany` is put between the watcher and the store, to fail as a store that is away does
 * (`StoreUnavailableError`) at the moment a test picks: before writing, or after.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSimulator, type RunningSimulator } from 'tmds-simulator';
import { reconcileOnce } from '../../src/jobs/reconcile';
import { MarketClient } from '../../src/market/client';
import { StreamClient } from '../../src/market/stream';
import type { FollowOptions, OutboxEntry } from '../../src/model/follow';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import type { CommitFence, StateCommitBatch, StateRepository, Store } from '../../src/store/store';
import { StoreUnavailableError } from '../../src/store/storeUnavailable';
import { createWatcher, type Watcher } from '../../src/watch/watcher';
import { chat, tempDir } from '../store/helpers';

const KEY = 'failed-commits-key-7c1d';
const FAR = new Date(Date.UTC(2100, 0, 1));
const RISK: FollowOptions = { events: ['risk-status'], minUsd: 0, thresholdPct: 10, side: 'both' };
const WAIT = { timeout: 10_000, interval: 10 };
const A = chat('100');

/**
 * The store's state repository with its commits put through a switch: `up` writes, `down` fails
 * before writing, `lost` writes and then fails (the commit landed, its answer did not come back).
 * The mode is read as each commit arrives; `hold()` keeps the commits that arrive from going on
 * until `release()`, as a server that went away keeps a commit waiting.
 */
class SwitchedState implements StateRepository {
  mode: 'up' | 'down' | 'lost' = 'up';
  failed = 0;
  private held: Promise<void> | null = null;
  private letGo: () => void = () => undefined;
  /** Commits that arrived while held and wait for release. */
  waiting = 0;

  constructor(private readonly real: StateRepository) {}

  hold(): void {
    this.held = new Promise((resolve) => {
      this.letGo = resolve;
    });
  }

  release(): void {
    this.held = null;
    this.letGo();
  }

  token = (address: string) => this.real.token(address);
  wallet = (address: string) => this.real.wallet(address);
  tokens = (addresses: string[]) => this.real.tokens(addresses);
  commitToken: StateRepository['commitToken'] = (snapshot, alerts, now) => this.real.commitToken(snapshot, alerts, now);
  commitWallet: StateRepository['commitWallet'] = (snapshot, alerts, now) => this.real.commitWallet(snapshot, alerts, now);

  async commitMany(batch: StateCommitBatch, now: Date, fence?: CommitFence): Promise<number> {
    const mode = this.mode;
    if (this.held !== null) {
      this.waiting += 1;
      await this.held;
      this.waiting -= 1;
    }
    if (mode === 'down') {
      this.failed += 1;
      throw new StoreUnavailableError('the test stopped the store');
    }
    const rows = await this.real.commitMany(batch, now, fence);
    if (mode === 'lost') {
      this.failed += 1;
      throw new StoreUnavailableError('the test lost the answer');
    }
    return rows;
  }
}

let sim: RunningSimulator;
let token: string;
let trader: string;
let dir: ReturnType<typeof tempDir>;
let real: SqliteStore;
let state: SwitchedState;
let store: Store;
let streams: StreamClient;
let market: MarketClient;
let watcher: Watcher;

beforeAll(async () => {
  // No trades of its own: every frame is one a test made.
  sim = await startSimulator({ apiKey: KEY, seed: 42, port: 0, control: true, tradesPerSecond: 0 });
  const hostile = new Set(sim.market.hostileTokens());
  token = sim.market.tokenAddresses().find((t) => !hostile.has(t) && sim.market.token(t)?.riskStatus !== 'DANGER') ?? '';
  trader = sim.market.wallets()[0] ?? '';
});

afterAll(async () => {
  await sim.close();
});

beforeEach(async () => {
  dir = tempDir();
  real = openSqliteStore(dir.path);
  state = new SwitchedState(real.state);
  store = {
    follows: real.follows,
    chats: real.chats,
    state,
    outbox: real.outbox,
    actionKeys: real.actionKeys,
    calls: real.calls,
    close: () => real.close(),
  };
  // A long heartbeat: a paused test process must not make the client reconnect and read a snapshot again.
  streams = new StreamClient({ wsUrl: sim.wsUrl, apiKey: KEY, heartbeatMs: 60_000 });
  market = new MarketClient({ baseUrl: sim.baseUrl, apiKey: KEY, cacheTtlMs: { 'token-data': 0, 'wallet-tracker': 0 } });
  watcher = createWatcher({ store, streams });
  await store.follows.upsert({ chat: A, kind: 'token', address: token, label: null, options: RISK, addedBy: 'tester', now: new Date() });
  await watcher.start();
  await vi.waitFor(async () => expect(await real.state.token(token)).not.toBeNull(), WAIT);
});

afterEach(async () => {
  state.release();
  state.mode = 'up';
  await watcher.close();
  await streams.close();
  await market.close();
  await real.close();
  dir.cleanup();
  sim.controls.risk({ tokenAddress: token, riskStatus: null });
});

/** The risk alerts in the outbox, as `from → to`. */
async function told(): Promise<string[]> {
  const entries: OutboxEntry[] = await real.outbox.due('telegram', FAR, 1_000);
  return entries.flatMap((entry) => (entry.event.kind === 'risk-status' ? [`${entry.event.from} → ${entry.event.to}`] : []));
}

/** Makes a change in the market and waits until the watcher has compared the frame it pushes. */
async function pushed(change: () => void): Promise<void> {
  const before = watcher.status().processed;
  change();
  await vi.waitFor(() => expect(watcher.status().processed).toBeGreaterThan(before), WAIT);
}

const toDanger = () => sim.controls.risk({ tokenAddress: token, riskStatus: 'DANGER' });
const toWarning = () => sim.controls.risk({ tokenAddress: token, riskStatus: 'WARNING' });
/** A trade: the token's pools move, which the watcher writes, and no alert of a risk follow. */
const aTrade = () => sim.controls.trade({ tokenAddress: token, wallet: trader, side: 'buy', amountUSD: 50 });

/** The next read of the service: a reconciliation, as the schedule or the watcher's own asking runs it. */
async function reconcile(): Promise<void> {
  await reconcileOnce({ watcher, market });
  await watcher.idle();
}

describe('a commit the store refuses', () => {
  it('before it was written, with a later frame of the token compared while it waited: the next read finds the change, told once', async () => {
    const from = (await real.state.token(token))?.riskStatus ?? null;
    state.mode = 'down';
    state.hold();
    await pushed(toDanger);
    await vi.waitFor(() => expect(state.waiting).toBe(1), WAIT);
    // The market trades on while the commit waits: the later frame is compared with memory, which holds DANGER.
    await pushed(aTrade);
    // The store comes back while the first commit is still waiting: that commit fails, the next one lands.
    state.mode = 'up';
    state.release();
    await watcher.idle();
    expect(state.failed).toBe(1);
    // Memory is where the store is (the change is not there), and the next read of the service finds it.
    expect((await real.state.token(token))?.riskStatus).toBe(from);
    await reconcile();
    expect(await told()).toEqual([`${from} → DANGER`]);
    await reconcile();
    await pushed(aTrade);
    await watcher.idle();
    expect(await told()).toEqual([`${from} → DANGER`]);
  });

  it('after it was written (its answer lost), with the move back among the later frames: each change told once', async () => {
    const from = (await real.state.token(token))?.riskStatus ?? null;
    state.mode = 'lost';
    state.hold();
    await pushed(toDanger);
    await vi.waitFor(() => expect(state.waiting).toBe(1), WAIT);
    await pushed(aTrade);
    await pushed(toWarning);
    state.mode = 'up';
    state.release();
    await watcher.idle();
    await reconcile();
    expect(await told()).toEqual([`${from} → DANGER`, 'DANGER → WARNING']);
    await reconcile();
    expect(await told()).toEqual([`${from} → DANGER`, 'DANGER → WARNING']);
  });

  it('however many commits fail while it is away, frames and reconciliations among them: told once when it is back', async () => {
    const from = (await real.state.token(token))?.riskStatus ?? null;
    state.mode = 'down';
    await pushed(toDanger);
    for (let round = 0; round < 5; round++) {
      await pushed(aTrade);
      await reconcile();
    }
    await watcher.idle();
    expect(state.failed).toBeGreaterThanOrEqual(5);
    expect(await told()).toEqual([]);
    state.mode = 'up';
    // A frame is the next read here.
    await pushed(aTrade);
    await watcher.idle();
    expect(await told()).toEqual([`${from} → DANGER`]);
    await reconcile();
    expect(await told()).toEqual([`${from} → DANGER`]);
    await pushed(toWarning);
    await watcher.idle();
    expect(await told()).toEqual([`${from} → DANGER`, 'DANGER → WARNING']);
  });

  it('asks for the service to be read again once commits land again, so that a quiet market still tells the change', async () => {
    const from = (await real.state.token(token))?.riskStatus ?? null;
    let asked = 0;
    watcher.onReconnect(() => {
      asked += 1;
    });
    state.mode = 'down';
    await pushed(toDanger);
    await watcher.idle();
    expect(state.failed).toBe(1);
    state.mode = 'up';
    // No frame comes: the watcher asks for a reconciliation by itself (the job listens to onReconnect).
    await vi.waitFor(() => expect(asked).toBeGreaterThan(0), WAIT);
    await reconcile();
    expect(await told()).toEqual([`${from} → DANGER`]);
  });
});
