/**
 * The watcher while it waits on reads: a target's inputs are compared in arrival order; an input
 * that needs a slow read (a traded token's name) holds back only its own target's inputs, never
 * another target's alerts nor the commit of what was found. Driven through a fake of the stream
 * client's subscribe, with the real SQLite store.
 */
import { afterEach, describe, expect, it } from 'vitest';
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

afterEach(async () => {
  await watcher.close();
  await store.close();
  cleanup();
});

const FAR = new Date(Date.UTC(2100, 0, 1));

/**
 * Chat 1 follows T1 and wallet W1; every token W1 trades is unknown, and naming it takes
 * `nameMs`. Returns how to push a token with a risk status or a new trade of W1, and how many
 * trades and name reads there were.
 */
async function start(nameMs: number) {
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
  const counts = { trades: 0, described: 0 };
  watcher = createWatcher({
    store,
    streams,
    describeToken: async () => {
      counts.described += 1;
      await new Promise((resolve) => setTimeout(resolve, nameMs));
      return null;
    },
  });
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
  // The baselines.
  token('SAFE', true);
  trade(true);
  await waitFor(() => watcher.status().processed >= 2, 'the baselines');
  return { token, trade, counts };
}

async function outboxKinds(): Promise<string[]> {
  return (await store.outbox.due('telegram', FAR, 1_000)).map((row) => row.event.kind);
}

describe('the watcher while reads are slow', () => {
  it('commits the alerts it found while trade after trade waits for a traded token’s name', async () => {
    const { token, trade, counts } = await start(30);
    const trades = setInterval(() => trade(), 10);
    try {
      trade();
      token('DANGER');
      await waitFor(() => watcher.status().rows >= 1, 'the risk alert committed while trades still wait for reads', 3_000);
      expect(counts.described).toBeGreaterThan(1);
    } finally {
      clearInterval(trades);
    }
    await watcher.idle();
    const kinds = await outboxKinds();
    expect(kinds.filter((kind) => kind === 'risk-status')).toHaveLength(1);
    // Every trade after the baseline is an alert to the wallet's chat, none lost while waiting.
    expect(kinds.filter((kind) => kind === 'wallet-trade')).toHaveLength(counts.trades - 1);
  });

  it('holds back only the waiting target: a token’s alert does not wait for a trade’s slow name', async () => {
    const { token, trade } = await start(1_500);
    trade();
    token('DANGER');
    // Well before the trade's name comes, the token's alert is in the outbox.
    await waitFor(() => watcher.status().rows >= 1, 'the risk alert', 1_000);
    expect(await outboxKinds()).toEqual(['risk-status']);
    await watcher.idle();
    expect((await outboxKinds()).sort()).toEqual(['risk-status', 'wallet-trade']);
  });
});
