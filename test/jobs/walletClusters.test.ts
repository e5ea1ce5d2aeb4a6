/**
 * The wallet clusters job on a real SQLite file, with the clock injected: three followed wallets
 * buying one token within the chat's window is one alert in the outbox, to the thread the trades
 * went to, and not again on the next run nor after a restart; a chat without a setting gets none.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWalletClusters } from '../../src/jobs/walletClusters';
import type { WalletClusterEvent } from '../../src/alerts/walletCluster';
import type { WalletTradeEvent } from '../../src/model/events';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { chat, tempDb } from '../delivery/helpers';

const T = 1_800_000_000;
const TOKEN = 'TokenC1uster1111111111111111111111111111111';

function trade(wallet: string, secs: number): WalletTradeEvent {
  return {
    kind: 'wallet-trade',
    key: `wallet-trade:${wallet}:${secs}`,
    at: (T + secs) * 1000,
    token: { address: TOKEN, symbol: 'C', name: 'Cluster' },
    wallet,
    side: 'buy',
    tokenAmount: '500',
    decimals: 0,
    nativeAmount: '1000000000',
    amountUsd: 150,
    price: null,
    transactionHash: `tx-${wallet}-${secs}`,
    timestamp: T + secs,
  };
}

let db: { path: string; cleanup: () => void };
let store: SqliteStore;
beforeEach(() => {
  db = tempDb();
  store = openSqliteStore(db.path);
});
afterEach(async () => {
  await store.close();
  db.cleanup();
});

describe('wallet clusters', () => {
  it('writes one alert when three wallets bought one token within the window, once, through a restart', async () => {
    const thread = { ...chat('c1'), threadId: '7' };
    const now = new Date((T + 1_000) * 1000);
    await store.chats.updateSettings(thread, { cluster: { wallets: 3, windowSecs: 1_800 } });
    for (const [wallet, secs] of [
      ['W1', 0],
      ['W2', 300],
      ['W3', 900],
    ] as const) {
      await store.outbox.add(
        [
          {
            event: trade(wallet, secs),
            to: [
              { chat: thread, label: wallet === 'W1' ? 'first' : null },
              { chat: chat('c2'), label: null },
            ],
          },
        ],
        new Date((T + secs) * 1000),
      );
    }
    let woken = 0;
    const job = createWalletClusters({ store, now: () => now, onWritten: () => void (woken += 1) });
    expect(await job.runNow()).toBe(1);
    expect(woken).toBe(1);
    const due = await store.outbox.due('telegram', now, 50);
    const clusters = due.filter((row) => row.event.kind === 'wallet-cluster');
    expect(clusters.map((row) => [row.chat.chatId, row.chat.threadId])).toEqual([['c1', '7']]);
    const event = clusters[0]?.event as WalletClusterEvent | undefined;
    expect(event?.wallets.map((wallet) => [wallet.wallet, wallet.label])).toEqual([
      ['W1', 'first'],
      ['W2', null],
      ['W3', null],
    ]);
    expect(await job.runNow()).toBe(0);
    await job.stop();

    await store.close();
    store = openSqliteStore(db.path);
    const restarted = createWalletClusters({ store, now: () => now });
    expect(await restarted.runNow()).toBe(0);
    await restarted.stop();
  });

  it('finds nothing while the trades are older than the window', async () => {
    await store.chats.updateSettings(chat('c1'), { cluster: { wallets: 2, windowSecs: 600 } });
    await store.outbox.add([{ event: trade('W1', 0), to: [{ chat: chat('c1'), label: null }] }], new Date(T * 1000));
    await store.outbox.add([{ event: trade('W2', 60), to: [{ chat: chat('c1'), label: null }] }], new Date((T + 60) * 1000));
    const job = createWalletClusters({ store, now: () => new Date((T + 3_600) * 1000) });
    expect(await job.runNow()).toBe(0);
    await job.stop();
  });
});
