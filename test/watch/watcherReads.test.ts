/**
 * The watcher while it waits on reads: a target's inputs are compared in arrival order; an input
 * that needs a slow read (a traded token's name) holds back only its own target's inputs, never
 * another target's alerts nor the commit of what was found. Driven through a fake of the stream
 * client's subscribe, with the real SQLite store.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventHandler, StreamEvent, StreamTarget } from '../../src/market/stream';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { createWatcher, type Watcher } from '../../src/watch/watcher';
import { address } from '../market/stream/support/samples';
import { waitFor } from '../market/stream/support/wait';
import { chat, newFollow, tempDir } from '../store/helpers';
import { makeToken, makeTrade, T1, W1 } from './support/fixtures';

let store: SqliteStore;
let watcher: Watcher;
let cleanup: () => void = () => undefined;
let names: NameReads;

afterEach(async () => {
  // A read still held would keep the close waiting.
  names.releaseAll();
  await watcher.close();
  await store.close();
  cleanup();
});

const FAR = new Date(Date.UTC(2100, 0, 1));

/**
 * The reads of traded tokens' names, each held until the test lets it go: the test, not the time
 * a read takes, decides what is still waiting.
 */
class NameReads {
  private readonly held: Array<() => void> = [];
  private open = false;
  /** Reads asked for so far. */
  asked = 0;

  /** A read as the watcher's describeToken: it ends when let go. */
  readonly read = async (): Promise<null> => {
    this.asked += 1;
    if (!this.open) await new Promise<void>((resolve) => this.held.push(resolve));
    return null;
  };

  /** Lets the oldest held read end. */
  releaseOne(): void {
    this.held.shift()?.();
  }

  /** Lets every held read end, and every later one end at once. */
  releaseAll(): void {
    this.open = true;
    for (const release of this.held.splice(0)) release();
  }

  get waiting(): number {
    return this.held.length;
  }
}

/**
 * Chat 1 follows T1 and wallet W1; every token W1 trades is unknown, and naming it is a read the
 * test lets go. Returns how to push a token with a risk status or a new trade of W1, the reads,
 * and how many trades there were.
 */
async function start() {
  const dir = tempDir();
  cleanup = dir.cleanup;
  store = openSqliteStore(dir.path);
  await store.follows.upsert(newFollow(chat('1'), T1));
  await store.follows.upsert(newFollow(chat('1'), W1, { kind: 'wallet' }));
  const handlers = new Map<string, EventHandler>();
  const streams = {
    subscribe: (stream: string, target: StreamTarget, onEvent: EventHandler) => {
      handlers.set(`${stream}|${'tokenAddress' in target ? target.tokenAddress : target.wallets.join(',')}`, onEvent);
      return () => undefined;
    },
  };
  const counts = { trades: 0 };
  names = new NameReads();
  watcher = createWatcher({ store, streams, describeToken: names.read });
  await watcher.start();
  const push = (key: string, event: StreamEvent) => void handlers.get(key)?.(event);
  const token = (riskStatus: string, snapshot = false) =>
    push(`token-feed|${T1}`, { stream: 'token-feed', kind: 'token', tokenAddress: T1, snapshot, token: makeToken({ riskStatus }) });
  const trade = (snapshot = false) => {
    counts.trades += 1;
    const n = counts.trades;
    const traded = address('T', 1_000 + n);
    push(`trades-live|${W1}`, {
      stream: 'trades-live',
      kind: 'trade',
      tokenAddress: traded,
      wallet: W1,
      snapshot,
      trade: makeTrade({ token: traded, hash: `hash-${n}`, timestamp: Math.floor(Date.now() / 1000) + n }),
    });
  };
  // The baselines: the trade's traded token is named first.
  token('SAFE', true);
  trade(true);
  await waitFor(() => names.waiting === 1, 'the baseline trade’s name read');
  names.releaseOne();
  await waitFor(() => watcher.status().processed >= 2, 'the baselines');
  return { token, trade, counts };
}

async function outboxKinds(): Promise<string[]> {
  return (await store.outbox.due('telegram', FAR, 1_000)).map((row) => row.event.kind);
}

describe('the watcher while reads are slow', () => {
  it('commits the alerts it found while trade after trade waits for a traded token’s name', async () => {
    const { token, trade, counts } = await start();
    // Trade after trade: each name read is let go only once the next trade waits behind it.
    trade();
    for (let read = 1; read <= 3; read++) {
      await waitFor(() => names.waiting === 1, `name read ${read}`);
      trade();
      names.releaseOne();
    }
    await waitFor(() => names.waiting === 1, 'the name read of the newest trade');
    token('DANGER');
    await vi.waitFor(async () => expect(await outboxKinds()).toContain('risk-status'), { timeout: 8_000, interval: 10 });
    // Committed while a trade still waits for its read.
    expect(names.waiting).toBe(1);
    names.releaseAll();
    await watcher.idle();
    const kinds = await outboxKinds();
    expect(kinds.filter((kind) => kind === 'risk-status')).toHaveLength(1);
    // Every trade after the baseline is an alert to the wallet's chat, none lost while waiting.
    expect(kinds.filter((kind) => kind === 'wallet-trade')).toHaveLength(counts.trades - 1);
  });

  it('holds back only the waiting target: a token’s alert does not wait for a trade’s slow name', async () => {
    const { token, trade } = await start();
    trade();
    await waitFor(() => names.waiting === 1, 'the trade’s name read');
    token('DANGER');
    // While the trade's name is still being read, the token's alert is in the outbox.
    await waitFor(() => watcher.status().rows >= 1, 'the risk alert');
    expect(names.waiting).toBe(1);
    expect(await outboxKinds()).toEqual(['risk-status']);
    names.releaseAll();
    await watcher.idle();
    expect((await outboxKinds()).sort()).toEqual(['risk-status', 'wallet-trade']);
  });
});
