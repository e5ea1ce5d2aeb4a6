/**
 * What the operators' metrics read of the store, on every store (support/stores.ts): alerts waiting
 * per platform in chats not paused with the oldest's age, paused chats per platform, and follows
 * of tokens and of wallets.
 */
import { describe, expect, it } from 'vitest';
import { chat, newFollow, priceEvent, tokenSnapshot } from './helpers';
import { eachStore, STORE_KINDS, type ContractStore } from './support/stores';

const T0 = new Date(1_700_000_000_000);
const at = (ms: number) => new Date(T0.getTime() + ms);

describe.each(STORE_KINDS)('the %s store’s counts for operators', (_kind, makeHome) => {
  let store: ContractStore;
  eachStore(makeHome, (opened) => ({ store } = opened));

  it('counts alerts waiting per platform, leaving out paused chats and delivered rows', async () => {
    expect(await store.outbox.waiting('telegram', 100)).toEqual({ count: 0, oldest: null });
    const to = [chat('-1'), chat('-2'), chat('9', 'discord')].map((c) => ({ chat: c, label: null }));
    await store.state.commitToken(tokenSnapshot('TokenA'), [{ event: priceEvent('TokenA', 'k1'), to }], T0);
    await store.state.commitToken(tokenSnapshot('TokenA', 2), [{ event: priceEvent('TokenA', 'k2'), to: to.slice(1, 2) }], at(60_000));
    expect(await store.outbox.waiting('telegram', 100)).toEqual({ count: 3, oldest: T0 });
    expect(await store.outbox.waiting('discord', 100)).toEqual({ count: 1, oldest: T0 });
    expect(await store.outbox.waiting('console', 100)).toEqual({ count: 0, oldest: null });
    // Counted up to the limit; the oldest is found all the same.
    expect(await store.outbox.waiting('telegram', 2)).toEqual({ count: 2, oldest: T0 });

    await store.chats.pause(chat('-1'), 'bot was kicked', at(1));
    expect(await store.outbox.waiting('telegram', 100)).toEqual({ count: 2, oldest: T0 });
    const [first] = await store.outbox.due('telegram', at(120_000), 1);
    await store.outbox.markDelivered([first?.id ?? -1], at(120_000));
    expect(await store.outbox.waiting('telegram', 100)).toEqual({ count: 1, oldest: at(60_000) });
    // /status still counts every undelivered row, paused chats' included.
    expect((await store.outbox.pending()).count).toBe(3);
  });

  it('counts paused chats per platform, and forgets one resumed', async () => {
    expect(await store.chats.pausedCount('telegram')).toBe(0);
    await store.chats.pause(chat('-1'), 'blocked', T0);
    await store.chats.pause(chat('-2'), 'blocked', T0);
    await store.chats.pause(chat('5', 'discord'), 'Missing Access', T0);
    await store.chats.updateSettings(chat('-3'), { detectAddresses: true });
    expect(await store.chats.pausedCount('telegram')).toBe(2);
    expect(await store.chats.pausedCount('discord')).toBe(1);
    await store.chats.resume(chat('-1'));
    expect(await store.chats.pausedCount('telegram')).toBe(1);
  });

  it('counts follows of tokens and of wallets', async () => {
    expect(await store.follows.countByKind()).toEqual({ token: 0, wallet: 0 });
    await store.follows.upsert(newFollow(chat('-1'), 'TokenA'));
    await store.follows.upsert(newFollow(chat('-2'), 'TokenA'));
    await store.follows.upsert(newFollow(chat('-2'), 'WalletA', { kind: 'wallet' }));
    expect(await store.follows.countByKind()).toEqual({ token: 2, wallet: 1 });
    expect((await store.follows.totals()).follows).toBe(3);
  });
});
