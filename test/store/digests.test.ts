/**
 * The daily watchlist in the store, the same cases on every store (support/stores.ts): a chat's
 * setting kept with its settings and listed for the schedules (paused chats left out), and its
 * alerts written to the outbox with no last-seen state, once per key.
 */
import { describe, expect, it } from 'vitest';
import type { DailyDigestEvent } from '../../src/alerts/kinds/dailyDigest';
import type { DigestSetting } from '../../src/store/store';
import { chat } from './helpers';
import { eachStore, STORE_KINDS, type ContractStore } from './support/stores';

const PARIS: DigestSetting = { time: '09:00', zone: 'Europe/Paris', threadId: '7', scopeId: null, since: 1_700_000_000_000 };

function watchlist(key: string): DailyDigestEvent {
  return {
    kind: 'daily-digest',
    key,
    at: 1_700_000_000_000,
    token: { address: '', symbol: '', name: '' },
    day: '2023-11-14',
    time: '09:00',
    zone: 'UTC',
    tokens: [],
    tokensUnread: 0,
    wallets: [],
    walletsUnread: 0,
  };
}

describe.each(STORE_KINDS)('daily watchlists (%s)', (_kind, makeHome) => {
  let store: ContractStore;
  eachStore(makeHome, (opened) => ({ store } = opened));

  it('keeps a chat’s setting beside its other settings, lists it for the schedules, and leaves paused chats out', async () => {
    await store.chats.updateSettings(chat('1'), { detectAddresses: true });
    await store.chats.updateSettings(chat('1'), { digest: PARIS });
    await store.chats.updateSettings(chat('2'), { digest: { ...PARIS, time: '18:30', zone: 'UTC', threadId: null } });
    expect(await store.chats.settings(chat('1'))).toEqual({ detectAddresses: true, digest: PARIS });
    // An update that names no digest leaves it as it is.
    await store.chats.updateSettings(chat('1'), { detectAddresses: false });
    expect((await store.chats.settings(chat('1'))).digest).toEqual(PARIS);
    expect(await store.chats.digests()).toEqual([
      { chat: { platform: 'telegram', chatId: '1', threadId: '7', scopeId: null }, digest: PARIS },
      {
        chat: { platform: 'telegram', chatId: '2', threadId: null, scopeId: null },
        digest: { ...PARIS, time: '18:30', zone: 'UTC', threadId: null },
      },
    ]);
    await store.chats.pause(chat('2'), 'gone', new Date(1_700_000_000_000));
    expect((await store.chats.digests()).map((entry) => entry.chat.chatId)).toEqual(['1']);
    await store.chats.updateSettings(chat('1'), { digest: null });
    expect(await store.chats.settings(chat('1'))).toEqual({ detectAddresses: false });
    expect(await store.chats.digests()).toEqual([]);
  });

  it('writes a watchlist to the outbox once per key, and says which keys it holds', async () => {
    const to = [{ chat: chat('1'), label: null }];
    expect(await store.outbox.known(['w1', 'w2'])).toEqual(new Set());
    expect(await store.outbox.add([{ event: watchlist('w1'), to }], new Date(1_700_000_000_000))).toBe(1);
    expect(await store.outbox.add([{ event: watchlist('w1'), to }], new Date(1_700_000_000_000))).toBe(0);
    expect(await store.outbox.known(['w1', 'w2'])).toEqual(new Set(['w1']));
    const due = await store.outbox.due('telegram', new Date(1_700_000_000_000), 10);
    expect(due.map((entry) => [entry.event.key, entry.chat.chatId])).toEqual([['w1', '1']]);
    expect(due[0]?.event).toEqual(watchlist('w1'));
  });
});
