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
    expect(await keys.resolve(key, here, NOW)).toEqual({ status: 'ok', action: { command: 'holders', args: ['TokenA', '2'], refresh: true } });
    expect(await keys.resolve(key, chat('1', 'telegram', null), NOW)).toEqual({ status: 'wrong-chat' });
    expect(await keys.resolve(key, chat('2', 'telegram', '4'), NOW)).toEqual({ status: 'wrong-chat' });
    expect(await keys.resolve(key, chat('1', 'discord', '4'), NOW)).toEqual({ status: 'wrong-chat' });
    expect(await keys.resolve(key, here, LATER)).toEqual({ status: 'expired' });
    expect(await keys.resolve(key, chat('2'), LATER)).toEqual({ status: 'expired' });
    expect(await keys.resolve('A'.repeat(21), here, NOW)).toEqual({ status: 'unknown' });
    expect(await keys.resolve('unknownkey', here, NOW)).toEqual({ status: 'unknown' });
  });

  it('issues a card\'s keys together, in order, as one by one', async () => {
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
    expect(await keys.resolve(issued[1] ?? '', chat('1'), NOW)).toEqual({ status: 'ok', action: { command: 'token', args: ['TokenA'], refresh: true } });
    expect(await keys.resolve(issued[1] ?? '', chat('2'), NOW)).toEqual({ status: 'wrong-chat' });
  });

  it('keeps what was issued, whatever happens to the action afterwards', async () => {
    const keys = await make();
    const action = { command: 'token', args: ['TokenA'] };
    const key = await issueOne(keys, action, chat('1'), LATER);
    action.args.push('changed');
    expect(await keys.resolve(key, chat('1'), NOW)).toEqual({ status: 'ok', action: { command: 'token', args: ['TokenA'] } });
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
