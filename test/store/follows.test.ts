/** Follows and chat settings: a contract suite, the same cases on every store (support/stores.ts). */
import { describe, expect, it } from 'vitest';
import { chat, newFollow } from './helpers';
import { eachStore, STORE_KINDS, type ContractStore, type StoreHome } from './support/stores';

describe.each(STORE_KINDS)('follows (%s)', (_kind, makeHome) => {
  let home: StoreHome;
  let store: ContractStore;
  eachStore(makeHome, (opened) => ({ home, store } = opened));

  it('adds a follow, then updates its options and label instead of adding a second', async () => {
    const group = chat('-100');
    const added = await store.follows.upsert(
      newFollow(group, 'WalletA', {
        kind: 'wallet',
        label: 'whale',
        options: { events: ['wallet-trade'], minUsd: 500, thresholdPct: 0, side: 'buy' },
      }),
    );
    expect(added.created).toBe(true);
    expect(added.follow).toMatchObject({
      chat: group,
      kind: 'wallet',
      address: 'WalletA',
      label: 'whale',
      mutedUntil: null,
      addedBy: 'user-1',
    });
    expect(added.follow.options).toEqual({ events: ['wallet-trade'], minUsd: 500, thresholdPct: 0, side: 'buy' });
    expect(added.follow.addedAt.getTime()).toBe(1_700_000_000_000);

    const updated = await store.follows.upsert(
      newFollow(group, 'WalletA', {
        kind: 'wallet',
        label: 'big whale',
        options: { events: [], minUsd: 1000, thresholdPct: 0, side: 'sell' },
        addedBy: 'user-2',
        now: new Date(1_800_000_000_000),
      }),
    );
    expect(updated.created).toBe(false);
    expect(updated.follow.id).toBe(added.follow.id);
    expect(updated.follow.label).toBe('big whale');
    expect(updated.follow.options).toEqual({ events: [], minUsd: 1000, thresholdPct: 0, side: 'sell' });
    // Who added it and when stay those of the first add.
    expect(updated.follow.addedBy).toBe('user-1');
    expect(updated.follow.addedAt.getTime()).toBe(1_700_000_000_000);
    expect(await store.follows.countForChat(group)).toBe(1);
    expect(await store.follows.get(group, 'WalletA')).toEqual(updated.follow);
  });

  it('keeps one follow per chat and address, but threads and platforms are chats of their own', async () => {
    await store.follows.upsert(newFollow(chat('-100'), 'TokenA'));
    await store.follows.upsert(newFollow(chat('-100', 'telegram', '7'), 'TokenA'));
    await store.follows.upsert(newFollow(chat('-100', 'discord'), 'TokenA'));
    await store.follows.upsert(newFollow(chat('-100'), 'TokenA'));
    expect(await store.follows.countForChat(chat('-100'))).toBe(1);
    expect(await store.follows.countForChat(chat('-100', 'telegram', '7'))).toBe(1);
    expect((await store.follows.followersOf('token', 'TokenA')).map((f) => f.chat)).toEqual([
      chat('-100'),
      chat('-100', 'telegram', '7'),
      chat('-100', 'discord'),
    ]);
    expect(await store.follows.totals()).toEqual({ follows: 3, chats: 2 });
  });

  it('removes a follow, and says when there was none', async () => {
    await store.follows.upsert(newFollow(chat('1'), 'TokenA'));
    expect(await store.follows.remove(chat('1'), 'TokenA')).toBe(true);
    expect(await store.follows.remove(chat('1'), 'TokenA')).toBe(false);
    expect(await store.follows.get(chat('1'), 'TokenA')).toBeNull();
    expect(await store.follows.followersOf('token', 'TokenA')).toEqual([]);
  });

  it('lists a chat oldest first, a page at a time, with the total for limits', async () => {
    for (let i = 0; i < 25; i += 1) await store.follows.upsert(newFollow(chat('1'), `Token${String(i).padStart(2, '0')}`));
    await store.follows.upsert(newFollow(chat('2'), 'Elsewhere'));
    const first = await store.follows.list(chat('1'), { offset: 0, limit: 10 });
    expect(first.total).toBe(25);
    expect(first.follows.map((f) => f.address)).toEqual(Array.from({ length: 10 }, (_, i) => `Token${String(i).padStart(2, '0')}`));
    const last = await store.follows.list(chat('1'), { offset: 20, limit: 10 });
    expect(last.follows.map((f) => f.address)).toEqual(['Token20', 'Token21', 'Token22', 'Token23', 'Token24']);
    expect((await store.follows.list(chat('1'), { offset: 30, limit: 10 })).follows).toEqual([]);
    expect(await store.follows.countForChat(chat('1'))).toBe(25);
    expect(await store.follows.countForChat(chat('3'))).toBe(0);
  });

  it('mutes and unmutes, and says when there is no such follow', async () => {
    await store.follows.upsert(newFollow(chat('1'), 'TokenA'));
    const until = new Date(1_700_000_360_000);
    expect(await store.follows.setMutedUntil(chat('1'), 'TokenA', until)).toBe(true);
    // Muted follows still come back from followersOf: the caller compares the time.
    expect((await store.follows.followersOf('token', 'TokenA'))[0]?.mutedUntil).toEqual(until);
    expect(await store.follows.setMutedUntil(chat('1'), 'TokenA', null)).toBe(true);
    expect((await store.follows.get(chat('1'), 'TokenA'))?.mutedUntil).toBeNull();
    expect(await store.follows.setMutedUntil(chat('1'), 'Nothing', until)).toBe(false);
  });

  it('gives distinct targets and followers without paused chats, and both come back on resume', async () => {
    await store.follows.upsert(newFollow(chat('1'), 'TokenA'));
    await store.follows.upsert(newFollow(chat('2'), 'TokenA'));
    await store.follows.upsert(newFollow(chat('2'), 'TokenB'));
    await store.follows.upsert(newFollow(chat('2'), 'WalletA', { kind: 'wallet' }));
    await store.follows.upsert(newFollow(chat('3'), 'WalletA', { kind: 'wallet' }));
    expect(await store.follows.targets()).toEqual({ tokens: ['TokenA', 'TokenB'], wallets: ['WalletA'] });
    expect((await store.follows.followersOf('token', 'TokenA')).length).toBe(2);

    await store.chats.pause(chat('2'), 'kicked', new Date());
    expect(await store.follows.targets()).toEqual({ tokens: ['TokenA'], wallets: ['WalletA'] });
    expect((await store.follows.followersOf('token', 'TokenA')).map((f) => f.chat.chatId)).toEqual(['1']);
    expect(await store.follows.followersOf('token', 'TokenB')).toEqual([]);
    expect(await store.chats.pausedReason(chat('2'))).toBe('kicked');
    // Paused follows are still the chat's own.
    expect(await store.follows.countForChat(chat('2'))).toBe(3);

    await store.chats.resume(chat('2'));
    expect(await store.chats.pausedReason(chat('2'))).toBeNull();
    expect(await store.follows.targets()).toEqual({ tokens: ['TokenA', 'TokenB'], wallets: ['WalletA'] });
    expect((await store.follows.followersOf('token', 'TokenA')).length).toBe(2);
  });

  it('keeps followersOf in step with every write (no stale cache)', async () => {
    expect(await store.follows.followersOf('token', 'TokenA')).toEqual([]);
    await store.follows.upsert(newFollow(chat('1'), 'TokenA'));
    expect((await store.follows.followersOf('token', 'TokenA')).length).toBe(1);
    await store.follows.upsert(
      newFollow(chat('1'), 'TokenA', { options: { events: ['price'], minUsd: 0, thresholdPct: 25, side: 'both' } }),
    );
    expect((await store.follows.followersOf('token', 'TokenA'))[0]?.options.thresholdPct).toBe(25);
    // Re-tracked as a wallet: it leaves the token list.
    await store.follows.upsert(newFollow(chat('1'), 'TokenA', { kind: 'wallet' }));
    expect(await store.follows.followersOf('token', 'TokenA')).toEqual([]);
    expect((await store.follows.followersOf('wallet', 'TokenA')).length).toBe(1);
    await store.follows.remove(chat('1'), 'TokenA');
    expect(await store.follows.followersOf('wallet', 'TokenA')).toEqual([]);
  });

  it('upsertMany adds and updates in one go, like upsert for each', async () => {
    await store.follows.upsert(newFollow(chat('1'), 'TokenA'));
    expect((await store.follows.followersOf('token', 'TokenA')).length).toBe(1);
    const results = await store.follows.upsertMany([
      newFollow(chat('1'), 'TokenA', { label: 'again' }),
      newFollow(chat('2'), 'TokenA'),
      newFollow(chat('2'), 'TokenB'),
    ]);
    expect(results.map((r) => r.created)).toEqual([false, true, true]);
    expect(results[0]?.follow.label).toBe('again');
    expect((await store.follows.followersOf('token', 'TokenA')).length).toBe(2);
    expect(await store.follows.totals()).toEqual({ follows: 3, chats: 2 });
  });

  it('keeps follows and settings across a restart', async () => {
    await store.follows.upsert(newFollow(chat('1'), 'TokenA'));
    await store.chats.updateSettings(chat('1'), { detectAddresses: true });
    await store.chats.pause(chat('9'), 'Missing Access', new Date());
    await store.close();
    store = await home.open();
    expect((await store.follows.get(chat('1'), 'TokenA'))?.address).toBe('TokenA');
    expect(await store.chats.settings(chat('1'))).toEqual({ detectAddresses: true });
    expect(await store.chats.settings(chat('2'))).toEqual({ detectAddresses: null });
    expect(await store.chats.pausedReason(chat('9'))).toBe('Missing Access');
  });

  it('settings: unset, on, off and back to unset, without touching the paused state', async () => {
    expect(await store.chats.settings(chat('1'))).toEqual({ detectAddresses: null });
    await store.chats.pause(chat('1'), 'gone', new Date());
    await store.chats.updateSettings(chat('1'), { detectAddresses: false });
    expect(await store.chats.settings(chat('1'))).toEqual({ detectAddresses: false });
    expect(await store.chats.pausedReason(chat('1'))).toBe('gone');
    await store.chats.updateSettings(chat('1'), {});
    expect(await store.chats.settings(chat('1'))).toEqual({ detectAddresses: false });
    await store.chats.updateSettings(chat('1'), { detectAddresses: null });
    expect(await store.chats.settings(chat('1'))).toEqual({ detectAddresses: null });
  });
});
