/**
 * /readyz's checks: the store answers a query (a real SQLite store; a closed one fails, one that
 * never answers fails after its bound), a chat is connected (the console always is), and every
 * stream socket is up or still in its quick reconnects (a refused key never is).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SocketStatus } from '../../src/market/stream';
import { quietStreams } from '../support/streamStatus';
import { createReadiness, STREAM_DOWN_AFTER_FAILURES, type ReadinessChat } from '../../src/ops/readiness';
import { openSqliteStore } from '../../src/store/sqliteStore';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function store() {
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-ready-'));
  dirs.push(dir);
  return openSqliteStore(join(dir, 'bot.db'));
}

function socket(state: SocketStatus['state'], failures = 0): SocketStatus {
  return {
    url: 'ws://127.0.0.1/ws/token-feed',
    state,
    subscriptions: 1,
    reconnects: failures,
    failures,
    lastMessageAt: null,
    lastPongAt: null,
    lastError: null,
  };
}

const consoleChat: ReadinessChat = { name: 'console' };

describe('readiness', () => {
  it('is ready with a store that answers, the console, and sockets open or just dropped', async () => {
    const s = store();
    const report = await createReadiness({
      store: s,
      chats: () => [consoleChat],
      streams: quietStreams([socket('open'), socket('backoff', STREAM_DOWN_AFTER_FAILURES - 1), socket('rejected', 9)]),
    })();
    expect(report).toMatchObject({
      ready: true,
      notReady: [],
      checks: { chats: { connected: ['console'] }, streams: { sockets: 3, open: 1 } },
    });
    await s.close();
  });

  it('names the streams when a socket failed to reconnect again and again, or the key is refused', async () => {
    const s = store();
    const down = await createReadiness({
      store: s,
      chats: () => [consoleChat],
      streams: quietStreams([socket('open'), socket('connecting', STREAM_DOWN_AFTER_FAILURES)]),
    })();
    expect(down).toMatchObject({ ready: false, notReady: ['streams'] });
    expect(down.checks.streams.reason).toBe(`1 of 2 stream sockets failed to reconnect ${STREAM_DOWN_AFTER_FAILURES} times in a row`);
    const refused = await createReadiness({ store: s, chats: () => [consoleChat], streams: quietStreams([socket('auth-failed', 1)]) })();
    expect(refused.checks.streams.reason).toContain('refuses the API key');
    await s.close();
  });

  it('names the chats when no platform is connected, and is ready again when one is', async () => {
    const s = store();
    let polling = false;
    const telegram: ReadinessChat = { name: 'telegram', connected: () => polling };
    const check = createReadiness({
      store: s,
      chats: () => [telegram, { name: 'discord', connected: () => false }],
      streams: quietStreams(),
    });
    expect(await check()).toMatchObject({
      ready: false,
      notReady: ['chats'],
      checks: { chats: { reason: 'no chat platform is connected (telegram, discord)' } },
    });
    polling = true;
    expect(await check()).toMatchObject({ ready: true, checks: { chats: { connected: ['telegram'] } } });
    await s.close();
  });

  it('names the store when it fails a query, or does not answer within its bound', async () => {
    const s = store();
    await s.close();
    const closed = await createReadiness({ store: s, chats: () => [consoleChat], streams: quietStreams() })();
    expect(closed).toMatchObject({
      ready: false,
      notReady: ['store'],
      checks: { store: { ok: false, reason: 'the store did not answer a query' } },
    });
    const silent = { chats: { pausedCount: () => new Promise<number>(() => undefined) } };
    const late = await createReadiness({ store: silent, chats: () => [consoleChat], streams: quietStreams(), storeTimeoutMs: 50 })();
    expect(late.checks.store).toEqual({ ok: false, reason: 'the store did not answer a query within 0.05 s' });
  });

  it('with several processes, lists every process and is not ready while this one holds no member lease', async () => {
    const s = store();
    let joined = false;
    const processes = [
      {
        owner: 'a:1:x',
        roles: ['watcher', 'sender'],
        partitions: 256,
        shards: [],
        leases: ['sender:telegram'],
        renewedAgoMs: 800,
        streams: { sockets: 1, open: 1, subscriptions: 12 },
      },
    ];
    const check = createReadiness({
      store: s,
      chats: () => [consoleChat],
      streams: quietStreams(),
      cluster: { joined: () => joined, processes: async () => processes },
    });
    expect(await check()).toMatchObject({ ready: false, notReady: ['cluster'], checks: { cluster: { ok: false, processes } } });
    joined = true;
    expect(await check()).toMatchObject({ ready: true, checks: { cluster: { ok: true, processes } } });
    await s.close();
  });

  it('passes the chats check for a process that runs no chat (a watcher alone)', async () => {
    const s = store();
    expect((await createReadiness({ store: s, chats: () => [], streams: quietStreams() })()).notReady).toEqual(['chats']);
    expect(await createReadiness({ store: s, chats: () => [], chatsExpected: false, streams: quietStreams() })()).toMatchObject({
      ready: true,
      checks: { chats: { ok: true } },
    });
    await s.close();
  });
});
