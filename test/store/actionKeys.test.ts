/** Action keys kept by a store across restarts: a contract suite, on every store (support/stores.ts). */
import { describe, expect, it } from 'vitest';
import { chat } from './helpers';
import { issueOne } from '../support/issueOne';
import { eachStore, STORE_KINDS, type ContractStore, type StoreHome } from './support/stores';

const NOW = new Date(1_700_000_000_000);
const LATER = new Date(1_700_000_600_000);

describe.each(STORE_KINDS)('action keys (%s)', (_kind, makeHome) => {
  let home: StoreHome;
  let store: ContractStore;
  eachStore(makeHome, (opened) => ({ home, store } = opened));

  it('issues short opaque keys of [A-Za-z0-9_-] that resolve in their chat', async () => {
    const keys = new Set<string>();
    for (let i = 0; i < 200; i += 1) {
      const key = await issueOne(store.actionKeys, { command: 'holders', args: [`Token${i}`] }, chat('1'), LATER);
      expect(key).toMatch(/^[A-Za-z0-9_-]{1,20}$/);
      expect(Buffer.byteLength(key)).toBeLessThanOrEqual(20);
      expect(key).not.toContain(`Token${i}`);
      keys.add(key);
    }
    expect(keys.size).toBe(200);
    const key = await issueOne(store.actionKeys, { command: 'chart', args: ['TokenA', '1h'] }, chat('1'), LATER);
    expect(await store.actionKeys.resolve(key, chat('1'), NOW)).toEqual({
      status: 'ok',
      action: { command: 'chart', args: ['TokenA', '1h'] },
    });
    // Bound to the thread too, as the in-memory store binds it.
    expect((await store.actionKeys.resolve(key, chat('1', 'telegram', '3'), NOW)).status).toBe('wrong-chat');
    const inTopic = await issueOne(store.actionKeys, { command: 'chart', args: [] }, chat('1', 'telegram', '3'), LATER);
    expect((await store.actionKeys.resolve(inTopic, chat('1', 'telegram', '3'), NOW)).status).toBe('ok');
    expect((await store.actionKeys.resolve(inTopic, chat('1'), NOW)).status).toBe('wrong-chat');
  });

  it('keeps a chat within its budget across a restart that follows the issue at once', async () => {
    const budget = { perPerson: 10, perChat: 2 };
    const [oldest] = await store.actionKeys.issueAll([{ command: 'holders', args: ['a'] }], chat('1'), LATER, { userId: null, budget });
    const newer = await store.actionKeys.issueAll(
      [
        { command: 'holders', args: ['b'] },
        { command: 'holders', args: ['c'] },
      ],
      chat('1'),
      LATER,
      { userId: null, budget },
    );
    await store.close();
    store = await home.open();
    expect((await store.actionKeys.resolve(oldest ?? '', chat('1'), NOW)).status).toBe('unknown');
    for (const key of newer) expect((await store.actionKeys.resolve(key, chat('1'), NOW)).status).toBe('ok');
  });

  it('keeps the Refresh flag of an action, and only when set', async () => {
    const refresh = await issueOne(store.actionKeys, { command: 'token', args: ['TokenA'], refresh: true }, chat('1'), LATER);
    const plain = await issueOne(store.actionKeys, { command: 'token', args: ['TokenA'], refresh: false }, chat('1'), LATER);
    expect(await store.actionKeys.resolve(refresh, chat('1'), NOW)).toEqual({
      status: 'ok',
      action: { command: 'token', args: ['TokenA'], refresh: true },
    });
    expect(await store.actionKeys.resolve(plain, chat('1'), NOW)).toEqual({ status: 'ok', action: { command: 'token', args: ['TokenA'] } });
  });

  it('refuses keys of other chats, unknown keys and expired keys', async () => {
    const key = await issueOne(store.actionKeys, { command: 'token', args: ['TokenA'] }, chat('1'), LATER);
    expect(await store.actionKeys.resolve(key, chat('2'), NOW)).toEqual({ status: 'wrong-chat' });
    expect(await store.actionKeys.resolve(key, chat('1', 'discord'), NOW)).toEqual({ status: 'wrong-chat' });
    expect(await store.actionKeys.resolve('nope', chat('1'), NOW)).toEqual({ status: 'unknown' });
    expect(await store.actionKeys.resolve("x' OR 1=1 --", chat('1'), NOW)).toEqual({ status: 'unknown' });
    expect(await store.actionKeys.resolve(key, chat('1'), LATER)).toEqual({ status: 'expired' });
    // The same order of checks as the in-memory store: expired before another chat's.
    expect(await store.actionKeys.resolve(key, chat('2'), LATER)).toEqual({ status: 'expired' });
  });

  it('survive a restart until they expire, and prune forgets expired ones', async () => {
    const lasting = await issueOne(store.actionKeys, { command: 'token', args: ['TokenA'] }, chat('1'), LATER);
    const brief = await issueOne(store.actionKeys, { command: 'token', args: ['TokenB'] }, chat('1'), new Date(NOW.getTime() + 1000));
    await store.close();
    store = await home.open();
    expect(await store.actionKeys.resolve(lasting, chat('1'), NOW)).toEqual({
      status: 'ok',
      action: { command: 'token', args: ['TokenA'] },
    });
    expect(await store.actionKeys.prune(new Date(NOW.getTime() + 999))).toBe(0);
    expect(await store.actionKeys.prune(new Date(NOW.getTime() + 1000))).toBe(1);
    expect(await store.actionKeys.resolve(brief, chat('1'), NOW)).toEqual({ status: 'unknown' });
    expect((await store.actionKeys.resolve(lasting, chat('1'), NOW)).status).toBe('ok');
  });
});
