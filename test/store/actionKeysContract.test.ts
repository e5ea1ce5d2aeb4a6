/**
 * The in-memory, the SQLite and the PostgreSQL action key stores answer alike: the same cases run
 * against each (PostgreSQL when the run's throwaway server started).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ActionKeyStore } from '../../src/store/actionKeys';
import { MemoryActionKeyStore } from '../support/memoryActionKeys';
import { chat } from './helpers';
import { STORE_KINDS } from './support/stores';
import { issueOne } from '../support/issueOne';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
});

const STORES: Array<[string, () => Promise<ActionKeyStore>]> = [
  ['memory', async () => new MemoryActionKeyStore()],
  ...STORE_KINDS.map(([kind, makeHome]): [string, () => Promise<ActionKeyStore>] => [
    kind,
    async () => {
      const home = await makeHome();
      const store = await home.open();
      cleanups.push(async () => {
        await store.close();
        await home.remove();
      });
      return store.actionKeys;
    },
  ]),
];

const NOW = new Date(1_700_000_000_000);
const LATER = new Date(1_700_000_600_000);

describe.each(STORES)('the %s action key store', (_name, make) => {
  it('answers ok, expired, wrong-chat and unknown alike', async () => {
    const keys = await make();
    const here = chat('1', 'telegram', '4');
    const key = await issueOne(keys, { command: 'holders', args: ['TokenA', '2'], refresh: true }, here, LATER);
    expect(key).toMatch(/^[A-Za-z0-9_-]{1,20}$/);
    expect(await keys.resolve(key, here, NOW)).toEqual({
      status: 'ok',
      action: { command: 'holders', args: ['TokenA', '2'], refresh: true },
    });
    expect(await keys.resolve(key, chat('1', 'telegram', null), NOW)).toEqual({ status: 'wrong-chat' });
    expect(await keys.resolve(key, chat('2', 'telegram', '4'), NOW)).toEqual({ status: 'wrong-chat' });
    expect(await keys.resolve(key, chat('1', 'discord', '4'), NOW)).toEqual({ status: 'wrong-chat' });
    expect(await keys.resolve(key, here, LATER)).toEqual({ status: 'expired' });
    expect(await keys.resolve(key, chat('2'), LATER)).toEqual({ status: 'expired' });
    expect(await keys.resolve('A'.repeat(21), here, NOW)).toEqual({ status: 'unknown' });
    expect(await keys.resolve('unknownkey', here, NOW)).toEqual({ status: 'unknown' });
  });

  it("issues a card's keys together, in order, as one by one", async () => {
    const keys = await make();
    const actions = [
      { label: 'Chart', command: 'chart', args: ['TokenA'] },
      { label: 'Refresh', command: 'token', args: ['TokenA'], refresh: true },
    ];
    const issued = await keys.issueAll(actions, chat('1'), LATER);
    expect(issued).toHaveLength(2);
    expect(new Set(issued).size).toBe(2);
    actions[0]?.args.push('changed');
    expect(await keys.resolve(issued[0] ?? '', chat('1'), NOW)).toEqual({ status: 'ok', action: { command: 'chart', args: ['TokenA'] } });
    expect(await keys.resolve(issued[1] ?? '', chat('1'), NOW)).toEqual({
      status: 'ok',
      action: { command: 'token', args: ['TokenA'], refresh: true },
    });
    expect(await keys.resolve(issued[1] ?? '', chat('2'), NOW)).toEqual({ status: 'wrong-chat' });
  });

  it('keeps what was issued, whatever happens to the action afterwards', async () => {
    const keys = await make();
    const action = { command: 'token', args: ['TokenA'] };
    const key = await issueOne(keys, action, chat('1'), LATER);
    action.args.push('changed');
    expect(await keys.resolve(key, chat('1'), NOW)).toEqual({ status: 'ok', action: { command: 'token', args: ['TokenA'] } });
  });

  it('keeps a person’s keys and a chat’s keys within their budgets, the oldest dropped first', async () => {
    const keys = await make();
    const budget = { perPerson: 3, perChat: 4 };
    const settled = async () => (keys as Partial<{ settled(): Promise<void> }>).settled?.();
    const action = (n: number) => ({ command: 'token', args: [`Token${n}`] });
    const ok = (n: number) => ({ status: 'ok', action: action(n) });
    // One person over two chats: their fourth key drops their first, wherever it was shown.
    const [k1, k2] = await keys.issueAll([action(1), action(2)], chat('1'), LATER, { userId: 'alice', budget });
    const [k3, k4] = await keys.issueAll([action(3), action(4)], chat('2'), LATER, { userId: 'alice', budget });
    await settled();
    expect(await keys.resolve(k1 ?? '', chat('1'), NOW)).toEqual({ status: 'unknown' });
    expect(await keys.resolve(k2 ?? '', chat('1'), NOW)).toEqual(ok(2));
    expect(await keys.resolve(k3 ?? '', chat('2'), NOW)).toEqual(ok(3));
    expect(await keys.resolve(k4 ?? '', chat('2'), NOW)).toEqual(ok(4));
    // Another person, and keys of nobody's (an alert's buttons), count for the chat: its fifth drops its oldest.
    const [k5] = await keys.issueAll([action(5)], chat('2'), LATER, { userId: 'bob', budget });
    const [k6, k7] = await keys.issueAll([action(6), action(7)], chat('2'), LATER, { userId: null, budget });
    await settled();
    expect(await keys.resolve(k3 ?? '', chat('2'), NOW)).toEqual({ status: 'unknown' });
    for (const [key, n] of [
      [k4, 4],
      [k5, 5],
      [k6, 6],
      [k7, 7],
    ] as const)
      expect(await keys.resolve(key ?? '', chat('2'), NOW)).toEqual(ok(n));
    // Topics of a chat share its budget; another chat's keys are untouched.
    const [k8] = await keys.issueAll([action(8)], chat('2', 'telegram', '9'), LATER, { userId: null, budget });
    await settled();
    expect(await keys.resolve(k4 ?? '', chat('2'), NOW)).toEqual({ status: 'unknown' });
    expect(await keys.resolve(k8 ?? '', chat('2', 'telegram', '9'), NOW)).toEqual(ok(8));
    expect(await keys.resolve(k2 ?? '', chat('1'), NOW)).toEqual(ok(2));
  });

  it('prunes keys expired at or before now', async () => {
    const keys = await make();
    await issueOne(keys, { command: 'token', args: [] }, chat('1'), new Date(NOW.getTime() + 1000));
    await issueOne(keys, { command: 'token', args: [] }, chat('1'), LATER);
    expect(await keys.prune(new Date(NOW.getTime() + 999))).toBe(0);
    expect(await keys.prune(new Date(NOW.getTime() + 1000))).toBe(1);
    expect(await keys.prune(LATER)).toBe(1);
  });
});
