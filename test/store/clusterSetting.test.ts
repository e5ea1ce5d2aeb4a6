/**
 * A chat's wallet cluster setting (`/track cluster`) on every store (support/stores.ts): kept with
 * its other settings, left alone by an update that does not name it, cleared with null, listed for
 * the chats not paused; and the trades a chat was told of since a moment, read back from the outbox.
 */
import { describe, expect, it } from 'vitest';
import type { WalletTradeEvent } from '../../src/model/events';
import { chat, priceEvent } from './helpers';
import { eachStore, STORE_KINDS, type ContractStore } from './support/stores';

describe.each(STORE_KINDS)('the wallet cluster setting (%s)', (_kind, makeHome) => {
  let store: ContractStore;
  eachStore(makeHome, (opened) => ({ store } = opened));

  it('is kept, left by other updates, and cleared', async () => {
    expect((await store.chats.settings(chat('1'))).cluster).toBeUndefined();
    await store.chats.updateSettings(chat('1'), { cluster: { wallets: 3, windowSecs: 1_800 } });
    await store.chats.updateSettings(chat('1'), { budget: 10 });
    expect(await store.chats.settings(chat('1'))).toMatchObject({ cluster: { wallets: 3, windowSecs: 1_800 }, budget: 10 });
    expect((await store.chats.settings(chat('2'))).cluster).toBeUndefined();
    await store.chats.updateSettings(chat('1'), { cluster: null });
    expect((await store.chats.settings(chat('1'))).cluster).toBeUndefined();
  });

  it('lists the chats with a setting, paused ones left out', async () => {
    await store.chats.updateSettings(chat('1'), { cluster: { wallets: 3, windowSecs: 1_800 } });
    await store.chats.updateSettings(chat('2', 'discord'), { cluster: { wallets: 2, windowSecs: 600 } });
    await store.chats.updateSettings(chat('3'), { cluster: { wallets: 2, windowSecs: 600 } });
    await store.chats.pause(chat('3'), 'gone', new Date(0));
    expect(await store.chats.clusters()).toEqual([
      { chat: { platform: 'discord', chatId: '2' }, cluster: { wallets: 2, windowSecs: 600 } },
      { chat: { platform: 'telegram', chatId: '1' }, cluster: { wallets: 3, windowSecs: 1_800 } },
    ]);
  });

  it('reads back the alerts of one kind a chat was told of since a moment, delivered or not', async () => {
    const trade = (key: string, wallet: string): WalletTradeEvent => ({
      kind: 'wallet-trade',
      key,
      at: 0,
      token: { address: 'TokenA', symbol: 'A', name: 'A' },
      wallet,
      side: 'buy',
      tokenAmount: '1',
      decimals: 0,
      nativeAmount: null,
      amountUsd: null,
      price: null,
      transactionHash: key,
      timestamp: 0,
    });
    const thread = chat('1', 'telegram', '7');
    await store.outbox.add([{ event: trade('t-old', 'W0'), to: [{ chat: thread, label: null }] }], new Date(1_000));
    await store.outbox.add(
      [
        {
          event: trade('t-1', 'W1'),
          to: [
            { chat: thread, label: '<b>one</b>' },
            { chat: chat('2'), label: null },
          ],
        },
      ],
      new Date(5_000),
    );
    await store.outbox.add([{ event: priceEvent('TokenA', 'p-1'), to: [{ chat: thread, label: null }] }], new Date(6_000));
    await store.outbox.add([{ event: trade('t-2', 'W2'), to: [{ chat: thread, label: null }] }], new Date(7_000));
    const [first] = await store.outbox.due('telegram', new Date(10_000), 10);
    await store.outbox.markDelivered([first!.id], new Date(10_000));
    const told = await store.outbox.toldSince(chat('1'), 'wallet-trade', new Date(5_000), 10);
    expect(told.map((row) => [row.event.key, row.label, row.chat.threadId])).toEqual([
      ['t-1', '<b>one</b>', '7'],
      ['t-2', null, '7'],
    ]);
  });
});
