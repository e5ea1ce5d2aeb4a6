/**
 * The watcher's order and commits while it waits on reads: inputs are compared in arrival order,
 * and a steady stream of inputs that need a slow read (a traded token's name) holds back neither
 * the commit of what was found nor the inputs behind them. Driven through a fake of the stream
 * client's subscribe, with the real SQLite store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EventHandler, StreamEvent, StreamTarget } from '../../src/market/stream';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { createWatcher, type Watcher } from '../../src/watch/watcher';
import { waitFor } from '../market/stream/support/wait';
import { chat, newFollow, tempDir } from '../store/helpers';
import { makeToken, makeTrade, T1, W1 } from './support/fixtures';
import { address } from '../market/stream/support/samples';

let store: SqliteStore;
let watcher: Watcher;
let cleanup: () => void = () => undefined;

afterEach(async () => {
  await watcher.close();
  await store.close();
  cleanup();
});

describe('the watcher while reads are slow', () => {
  it('commits the alerts it found while every trade behind them waits for a traded token’s name', async () => {
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
    let described = 0;
    watcher = createWatcher({
      store,
      streams,
      // Every traded token is unknown, and naming it takes a while: each trade waits for a read.
      describeToken: async () => {
        described += 1;
        await new Promise((resolve) => setTimeout(resolve, 30));
        return null;
      },
    });
    await watcher.start();
    const push = (key: string, event: StreamEvent) => void handlers.get(key)?.(event);
    const token = (riskStatus: string, snapshot: boolean): StreamEvent => ({ stream: 'token-feed', kind: 'token', tokenAddress: T1, snapshot, token: makeToken({ riskStatus }) });
    let n = 0;
    const trade = (snapshot: boolean): StreamEvent => {
      n += 1;
      return { stream: 'trades-live', kind: 'trade', tokenAddress: address('T', 1_000 + n), wallet: W1, snapshot, trade: makeTrade({ token: address('T', 1_000 + n), hash: `hash-${n}`, timestamp: Math.floor(Date.now() / 1000) + n }) };
    };
    push(`token-feed|${T1}`, token('SAFE', true));
    push(`trades-live|${W1}`, trade(true));
    await waitFor(() => watcher.status().processed >= 2, 'the baselines');

    // Trades keep coming, each needing a slow read; a risk change arrives among them.
    const trades = setInterval(() => push(`trades-live|${W1}`, trade(false)), 10);
    try {
      push(`trades-live|${W1}`, trade(false));
      push(`token-feed|${T1}`, token('DANGER', false));
      await waitFor(() => watcher.status().rows >= 1, 'the risk alert committed while trades still wait for reads', 3_000);
      expect(described).toBeGreaterThan(1);
    } finally {
      clearInterval(trades);
    }
    await watcher.idle();
    const rows = await store.outbox.due('telegram', new Date(Date.UTC(2100, 0, 1)), 1_000);
    expect(rows.filter((row) => row.event.kind === 'risk-status')).toHaveLength(1);
    // Every trade after the baseline is an alert to the wallet's chat, none lost while waiting.
    expect(rows.filter((row) => row.event.kind === 'wallet-trade')).toHaveLength(n - 1);
  });
});
