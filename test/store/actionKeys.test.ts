import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { chat, tempDir } from './helpers';

let store: SqliteStore;
let path: string;
let cleanup: () => void;

beforeEach(() => {
  ({ path, cleanup } = tempDir());
  store = openSqliteStore(path);
});
afterEach(async () => {
  await store.close();
  cleanup();
});

const NOW = new Date(1_700_000_000_000);
const LATER = new Date(1_700_000_600_000);

describe('action keys', () => {
  it('issues short opaque keys of [A-Za-z0-9_-] that resolve in their chat', async () => {
    const keys = new Set<string>();
    for (let i = 0; i < 200; i += 1) {
      const key = await store.actionKeys.issue({ command: 'holders', args: [`Token${i}`] }, chat('1'), LATER);
      expect(key).toMatch(/^[A-Za-z0-9_-]{1,20}$/);
      expect(Buffer.byteLength(key)).toBeLessThanOrEqual(20);
      expect(key).not.toContain(`Token${i}`);
      keys.add(key);
    }
    expect(keys.size).toBe(200);
    const key = await store.actionKeys.issue({ command: 'chart', args: ['TokenA', '1h'] }, chat('1'), LATER);
    expect(await store.actionKeys.resolve(key, chat('1'), NOW)).toEqual({ status: 'ok', action: { command: 'chart', args: ['TokenA', '1h'] } });
    // A topic of the same group shares its keys.
    expect((await store.actionKeys.resolve(key, chat('1', 'telegram', '3'), NOW)).status).toBe('ok');
  });

  it('refuses keys of other chats, unknown keys and expired keys', async () => {
    const key = await store.actionKeys.issue({ command: 'token', args: ['TokenA'] }, chat('1'), LATER);
    expect(await store.actionKeys.resolve(key, chat('2'), NOW)).toEqual({ status: 'wrong-chat' });
    expect(await store.actionKeys.resolve(key, chat('1', 'discord'), NOW)).toEqual({ status: 'wrong-chat' });
    expect(await store.actionKeys.resolve('nope', chat('1'), NOW)).toEqual({ status: 'unknown' });
    expect(await store.actionKeys.resolve("x' OR 1=1 --", chat('1'), NOW)).toEqual({ status: 'unknown' });
    expect(await store.actionKeys.resolve(key, chat('1'), LATER)).toEqual({ status: 'expired' });
  });

  it('survive a restart until they expire, and prune forgets expired ones', async () => {
    const lasting = await store.actionKeys.issue({ command: 'token', args: ['TokenA'] }, chat('1'), LATER);
    const brief = await store.actionKeys.issue({ command: 'token', args: ['TokenB'] }, chat('1'), new Date(NOW.getTime() + 1000));
    await store.close();
    store = openSqliteStore(path);
    expect(await store.actionKeys.resolve(lasting, chat('1'), NOW)).toEqual({ status: 'ok', action: { command: 'token', args: ['TokenA'] } });
    expect(await store.actionKeys.prune(new Date(NOW.getTime() + 2000))).toBe(1);
    expect(await store.actionKeys.resolve(brief, chat('1'), NOW)).toEqual({ status: 'unknown' });
    expect((await store.actionKeys.resolve(lasting, chat('1'), NOW)).status).toBe('ok');
  });
});
