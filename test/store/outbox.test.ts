/**
 * Last-seen state, commits and the outbox: a contract suite, the same cases on every store
 * (support/stores.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { chat, newFollow, priceEvent, tokenSnapshot, walletSnapshot } from './helpers';
import { issueOne } from '../support/issueOne';
import { eachStore, STORE_KINDS, type ContractStore, type StoreHome } from './support/stores';

const T0 = new Date(1_700_000_000_000);
const at = (ms: number) => new Date(T0.getTime() + ms);

describe.each(STORE_KINDS)('the %s store', (_kind, makeHome) => {
  let home: StoreHome;
  let store: ContractStore;
  eachStore(makeHome, (opened) => ({ home, store } = opened));

  describe('last-seen state', () => {
    it('keeps token and wallet snapshots as they were, replacing the older one', async () => {
      expect(await store.state.token('TokenA')).toBeNull();
      expect(await store.state.commitToken(tokenSnapshot('TokenA', 1), [], T0)).toBe(0);
      expect(await store.state.commitToken(tokenSnapshot('TokenA', 2), [], T0)).toBe(0);
      await store.state.commitToken(tokenSnapshot('TokenB'), [], T0);
      expect(await store.state.token('TokenA')).toEqual(tokenSnapshot('TokenA', 2));
      const many = await store.state.tokens(['TokenA', 'TokenB', 'TokenC']);
      expect([...many.keys()]).toEqual(['TokenA', 'TokenB']);
      expect(many.get('TokenB')).toEqual(tokenSnapshot('TokenB'));

      await store.state.commitWallet(walletSnapshot('WalletA'), [], T0);
      expect(await store.state.wallet('WalletA')).toEqual(walletSnapshot('WalletA'));
      expect(await store.state.wallet('TokenA')).toBeNull();
      await store.close();
      store = await home.open();
      expect(await store.state.token('TokenA')).toEqual(tokenSnapshot('TokenA', 2));
    });
  });

  describe('one event told to many chats', () => {
    it('writes a row per chat, whatever their number, once per chat however often it comes', async () => {
      // 40 chats: more than one statement's worth of rows, and a last one of another size.
      const to = Array.from({ length: 40 }, (_, i) => ({ chat: chat(String(i)), label: i % 2 === 0 ? `label ${i}` : null }));
      // A chat listed twice is still one row.
      const doubled = [...to, { chat: chat('7'), label: null }];
      expect(await store.state.commitToken(tokenSnapshot('TokenA'), [{ event: priceEvent('TokenA', 'many'), to: doubled }], T0)).toBe(40);
      expect(await store.state.commitToken(tokenSnapshot('TokenA'), [{ event: priceEvent('TokenA', 'many'), to }], T0)).toBe(0);
      const rows = await store.outbox.due('telegram', at(1), 100);
      expect(rows.map((row) => row.chat.chatId).sort((a, b) => Number(a) - Number(b))).toEqual(to.map((d) => d.chat.chatId));
      expect(rows.find((row) => row.chat.chatId === '4')?.label).toBe('label 4');
      expect(rows.find((row) => row.chat.chatId === '5')?.label).toBeNull();
    });
  });

  describe('commits made together', () => {
    it('are written in one go, each resolving with its own rows, the last state winning', async () => {
      const commits = Array.from({ length: 300 }, (_, i) =>
        store.state.commitToken(
          tokenSnapshot(`Token${i % 10}`, i),
          i % 3 === 0 ? [{ event: priceEvent(`Token${i % 10}`, `k${i % 30}`), to: [{ chat: chat('1'), label: null }] }] : [],
          T0,
        ),
      );
      const added = await Promise.all(commits);
      // Keys k0..k29 every third commit: the first commit of each key adds its row, the repeats none.
      expect(added.reduce((sum, n) => sum + n, 0)).toBe(10);
      expect(added.slice(0, 30).filter((n, i) => i % 3 === 0)).toEqual(Array(10).fill(1));
      expect((await store.state.token('Token3'))?.seenAt).toBe(293);
      expect((await store.outbox.pending()).count).toBe(10);
    });

    it('fail one by one: only the commit at fault rejects', async () => {
      const broken = { ...priceEvent('TokenB', 'bad'), at: 10n as unknown as number };
      const good = store.state.commitToken(
        tokenSnapshot('TokenA'),
        [{ event: priceEvent('TokenA', 'good'), to: [{ chat: chat('1'), label: null }] }],
        T0,
      );
      const bad = store.state.commitToken(tokenSnapshot('TokenB'), [{ event: broken, to: [{ chat: chat('1'), label: null }] }], T0);
      const wallet = store.state.commitWallet(walletSnapshot('WalletA'), [], T0);
      await expect(good).resolves.toBe(1);
      await expect(bad).rejects.toThrow();
      await expect(wallet).resolves.toBe(0);
      expect(await store.state.token('TokenB')).toBeNull();
      expect((await store.outbox.due('telegram', T0, 10)).map((row) => row.event.key)).toEqual(['good']);
    });

    it('commitMany writes a batch of tokens and wallets all or nothing, after the single commits before it', async () => {
      void store.state.commitToken(tokenSnapshot('TokenA', 1), [], T0);
      const to = [{ chat: chat('1'), label: null }];
      const added = await store.state.commitMany(
        {
          tokens: [
            { snapshot: tokenSnapshot('TokenA', 2), alerts: [{ event: priceEvent('TokenA', 'a1'), to }] },
            {
              snapshot: tokenSnapshot('TokenB', 2),
              alerts: [
                { event: priceEvent('TokenB', 'b1'), to },
                { event: priceEvent('TokenB', 'a1'), to },
              ],
            },
          ],
          wallets: [{ snapshot: walletSnapshot('WalletA'), alerts: [] }],
        },
        T0,
      );
      expect(added).toBe(2);
      expect((await store.state.token('TokenA'))?.seenAt).toBe(2);
      expect(await store.state.wallet('WalletA')).toEqual(walletSnapshot('WalletA'));
      const broken = { ...priceEvent('TokenC', 'c1'), at: 10n as unknown as number };
      await expect(
        store.state.commitMany(
          {
            tokens: [
              { snapshot: tokenSnapshot('TokenC'), alerts: [] },
              { snapshot: tokenSnapshot('TokenD'), alerts: [{ event: broken, to }] },
            ],
            wallets: [],
          },
          T0,
        ),
      ).rejects.toThrow();
      expect(await store.state.token('TokenC')).toBeNull();
    });

    it('are written even while a test fakes the timers', async () => {
      vi.useFakeTimers();
      try {
        await expect(store.state.commitToken(tokenSnapshot('TokenA'), [], T0)).resolves.toBe(0);
      } finally {
        vi.useRealTimers();
      }
    });

    it('are visible to a read made before they were awaited, and written by close', async () => {
      void store.state.commitToken(
        tokenSnapshot('TokenA'),
        [{ event: priceEvent('TokenA', 'k1'), to: [{ chat: chat('1'), label: null }] }],
        T0,
      );
      expect((await store.outbox.due('telegram', T0, 10)).length).toBe(1);
      const late = store.state.commitWallet(walletSnapshot('WalletA'), [], T0);
      await store.close();
      await expect(late).resolves.toBe(0);
      store = await home.open();
      expect(await store.state.wallet('WalletA')).toEqual(walletSnapshot('WalletA'));
    });
  });

  describe('the outbox', () => {
    it('writes one row per alert per chat with the state, skipping an event key a chat already has', async () => {
      const event = priceEvent('TokenA', 'price:TokenA:1');
      const to = [
        { chat: chat('1'), label: null },
        { chat: chat('2'), label: 'mine' },
      ];
      expect(await store.state.commitToken(tokenSnapshot('TokenA'), [{ event, to }], T0)).toBe(2);
      // The same change seen again (by reconciliation), now also for a third chat: only that row is new.
      expect(
        await store.state.commitToken(tokenSnapshot('TokenA'), [{ event, to: [...to, { chat: chat('3'), label: null }] }], at(10)),
      ).toBe(1);
      // The same key twice in one commit counts once.
      expect(
        await store.state.commitToken(
          tokenSnapshot('TokenA'),
          [
            { event, to },
            { event, to },
          ],
          at(20),
        ),
      ).toBe(0);
      const due = await store.outbox.due('telegram', at(100), 10);
      expect(due.map((row) => [row.chat.chatId, row.label, row.event])).toEqual([
        ['1', null, event],
        ['2', 'mine', event],
        ['3', null, event],
      ]);
      expect(due[0]).toMatchObject({ attempts: 0, createdAt: T0, nextAttemptAt: T0 });
      // One event, one object, however many chats.
      expect(due[1]?.event).toBe(due[0]?.event);
      expect(await store.outbox.pending()).toEqual({ count: 3, oldest: T0 });
    });

    it('keeps platforms and threads apart', async () => {
      const event = priceEvent('TokenA', 'k1');
      const to = [
        { chat: chat('1'), label: null },
        { chat: chat('1', 'telegram', '5'), label: null },
        { chat: chat('1', 'discord'), label: null },
      ];
      expect(await store.state.commitToken(tokenSnapshot('TokenA'), [{ event, to }], T0)).toBe(3);
      expect((await store.outbox.due('telegram', T0, 10)).map((row) => row.chat)).toEqual([chat('1'), chat('1', 'telegram', '5')]);
      expect((await store.outbox.due('discord', T0, 10)).map((row) => row.chat)).toEqual([chat('1', 'discord')]);
      expect(await store.outbox.due('console', T0, 10)).toEqual([]);
    });

    it('writes state and rows all or nothing', async () => {
      const broken = { ...priceEvent('TokenA', 'k1'), at: 10n as unknown as number };
      await expect(
        store.state.commitToken(tokenSnapshot('TokenA', 5), [{ event: broken, to: [{ chat: chat('1'), label: null }] }], T0),
      ).rejects.toThrow();
      expect(await store.state.token('TokenA')).toBeNull();
      expect(await store.outbox.pending()).toEqual({ count: 0, oldest: null });
    });

    it('gives due rows oldest first, up to the limit, and not before their next attempt', async () => {
      for (let i = 0; i < 5; i += 1) {
        await store.state.commitToken(
          tokenSnapshot('TokenA'),
          [{ event: priceEvent('TokenA', `k${i}`), to: [{ chat: chat('1'), label: null }] }],
          at(i),
        );
      }
      const firstTwo = await store.outbox.due('telegram', at(10), 2);
      expect(firstTwo.map((row) => row.event.key)).toEqual(['k0', 'k1']);
      expect(await store.outbox.due('telegram', at(-1), 10)).toEqual([]);
      expect((await store.outbox.due('telegram', at(2), 10)).map((row) => row.event.key)).toEqual(['k0', 'k1', 'k2']);

      await store.outbox.retryAt([firstTwo[0]!.id], at(1000), 'Too Many Requests');
      expect((await store.outbox.due('telegram', at(10), 10)).map((row) => row.event.key)).toEqual(['k1', 'k2', 'k3', 'k4']);
      const retried = (await store.outbox.due('telegram', at(1000), 10))[0];
      expect(retried).toMatchObject({ attempts: 1, nextAttemptAt: at(1000) });
      expect(retried?.event.key).toBe('k0');
    });

    it('never gives a delivered row again, and marking twice is harmless', async () => {
      await store.state.commitToken(
        tokenSnapshot('TokenA'),
        [
          {
            event: priceEvent('TokenA', 'k1'),
            to: [
              { chat: chat('1'), label: null },
              { chat: chat('2'), label: null },
            ],
          },
        ],
        T0,
      );
      const [first, second] = await store.outbox.due('telegram', T0, 10);
      await store.outbox.markDelivered([first!.id], at(5));
      await store.outbox.markDelivered([first!.id], at(6));
      await store.outbox.retryAt([first!.id], at(7), 'late failure report');
      expect((await store.outbox.due('telegram', at(100), 10)).map((row) => row.id)).toEqual([second!.id]);
      expect(await store.outbox.pending()).toEqual({ count: 1, oldest: T0 });
      // Delivered rows still block the same key for that chat.
      expect(
        await store.state.commitToken(
          tokenSnapshot('TokenA'),
          [{ event: priceEvent('TokenA', 'k1'), to: [{ chat: chat('1'), label: null }] }],
          at(10),
        ),
      ).toBe(0);
    });

    it('skips paused chats and defers a whole chat', async () => {
      const to = [
        { chat: chat('1'), label: null },
        { chat: chat('1', 'telegram', '9'), label: null },
        { chat: chat('2'), label: null },
      ];
      await store.state.commitToken(tokenSnapshot('TokenA'), [{ event: priceEvent('TokenA', 'k1'), to }], T0);
      await store.chats.pause(chat('2'), 'Forbidden: bot was kicked', T0);
      expect((await store.outbox.due('telegram', T0, 10)).map((row) => row.chat.chatId)).toEqual(['1', '1']);
      await store.outbox.deferChat(chat('1'), at(30_000));
      expect(await store.outbox.due('telegram', at(29_999), 10)).toEqual([]);
      expect((await store.outbox.due('telegram', at(30_000), 10)).length).toBe(2);
      // A shorter defer never brings rows forward.
      await store.outbox.deferChat(chat('1'), at(10));
      expect(await store.outbox.due('telegram', at(29_999), 10)).toEqual([]);
      await store.chats.resume(chat('2'));
      expect((await store.outbox.due('telegram', T0, 10)).map((row) => row.chat.chatId)).toEqual(['2']);
      expect((await store.outbox.pending()).count).toBe(3);
    });

    it('prunes delivered rows older than the cut, keeping undelivered ones and their events', async () => {
      await store.state.commitToken(
        tokenSnapshot('TokenA'),
        [
          {
            event: priceEvent('TokenA', 'k1'),
            to: [
              { chat: chat('1'), label: null },
              { chat: chat('2'), label: null },
            ],
          },
        ],
        T0,
      );
      await store.state.commitToken(
        tokenSnapshot('TokenA'),
        [{ event: priceEvent('TokenA', 'k2'), to: [{ chat: chat('1'), label: null }] }],
        T0,
      );
      const rows = await store.outbox.due('telegram', T0, 10);
      await store.outbox.markDelivered([rows[0]!.id, rows[2]!.id], at(100));
      expect(await store.outbox.prune(at(100))).toBe(0);
      expect(await store.outbox.prune(at(101))).toBe(2);
      const left = await store.outbox.due('telegram', T0, 10);
      expect(left.map((row) => [row.chat.chatId, row.event.key])).toEqual([['2', 'k1']]);
      // k2 is forgotten entirely: it may be written again.
      expect(
        await store.state.commitToken(
          tokenSnapshot('TokenA'),
          [{ event: priceEvent('TokenA', 'k2'), to: [{ chat: chat('1'), label: null }] }],
          at(200),
        ),
      ).toBe(1);
    });

    it('writes free text holding a NUL (a label, a pause reason, an error) without failing, PostgreSQL as U+FFFD', async () => {
      const asWritten = (text: string | null | undefined) => text?.replaceAll('\uFFFD', '\u0000');
      const follow = await store.follows.upsert(
        newFollow(chat('1'), 'WalletA', { kind: 'wallet', label: 'dev\u0000wallet', addedBy: 'user\u0000x' }),
      );
      expect(asWritten(follow.follow.label)).toBe('dev\u0000wallet');
      expect(asWritten((await store.follows.get(chat('1'), 'WalletA'))?.addedBy)).toBe('user\u0000x');
      await store.state.commitToken(
        tokenSnapshot('TokenA'),
        [{ event: priceEvent('TokenA', 'k1'), to: [{ chat: chat('1'), label: 'dev\u0000wallet' }] }],
        T0,
      );
      const [row] = await store.outbox.due('telegram', T0, 10);
      expect(asWritten(row?.label)).toBe('dev\u0000wallet');
      await store.outbox.retryAt([row!.id], at(10), 'Bad Request: \u0000');
      await store.chats.pause(chat('2'), 'gone\u0000', T0);
      expect(asWritten(await store.chats.pausedReason(chat('2')))).toBe('gone\u0000');
    });

    it('moves a Telegram group to its supergroup: follows, settings, pending rows and keys', async () => {
      const group = chat('-42');
      const supergroup = chat('-10042');
      await store.follows.upsert(newFollow(group, 'TokenA'));
      await store.follows.upsert(newFollow(group, 'TokenB'));
      await store.follows.upsert(newFollow(supergroup, 'TokenB', { label: 'already here' }));
      await store.chats.updateSettings(group, { detectAddresses: true });
      await store.state.commitToken(
        tokenSnapshot('TokenA'),
        [{ event: priceEvent('TokenA', 'k1'), to: [{ chat: group, label: null }] }],
        T0,
      );
      const key = await issueOne(store.actionKeys, { command: 'token', args: ['TokenA'] }, group, at(60_000));
      expect((await store.follows.followersOf('token', 'TokenA')).map((f) => f.chat.chatId)).toEqual(['-42']);

      await store.chats.migrate('telegram', '-42', '-10042');
      expect(await store.follows.countForChat(group)).toBe(0);
      expect((await store.follows.list(supergroup, { offset: 0, limit: 10 })).follows.map((f) => [f.address, f.label])).toEqual([
        ['TokenA', null],
        ['TokenB', 'already here'],
      ]);
      expect((await store.follows.followersOf('token', 'TokenA')).map((f) => f.chat.chatId)).toEqual(['-10042']);
      expect(await store.chats.settings(supergroup)).toEqual({ detectAddresses: true });
      expect(await store.chats.settings(group)).toEqual({ detectAddresses: null });
      expect((await store.outbox.due('telegram', T0, 10)).map((row) => row.chat.chatId)).toEqual(['-10042']);
      expect((await store.actionKeys.resolve(key, supergroup, T0)).status).toBe('ok');
      // Other platforms keep their own ids.
      await store.follows.upsert(newFollow(chat('-42', 'discord'), 'TokenC'));
      await store.chats.migrate('telegram', '-42', '-10042');
      expect(await store.follows.countForChat(chat('-42', 'discord'))).toBe(1);
    });
  });
});
