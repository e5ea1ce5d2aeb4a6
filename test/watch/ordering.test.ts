/**
 * An older reading never overrides a newer one: a token reaches the watcher from the stream and
 * from the reconciliation's REST answers, and an answer read before a frame can be applied after
 * it (or, through a delaying proxy, a frame can come late). The watcher keeps the newest `syncedAt`
 * applied and ignores what is older, counted and not alerted on.
 *
 * Driven through a fake of the stream client's subscribe, with the real SQLite store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EventHandler } from '../../src/market/stream';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { createWatcher, type Watcher } from '../../src/watch/watcher';
import { chat, newFollow, tempDir } from '../store/helpers';
import { makeToken, T1 } from './support/fixtures';

const FAR = new Date(Date.UTC(2100, 0, 1));
let store: SqliteStore | null = null;
let watcher: Watcher | null = null;
let cleanup: () => void = () => undefined;

afterEach(async () => {
  await watcher?.close();
  await store?.close();
  watcher = null;
  store = null;
  cleanup();
});

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

/** A watcher over a fresh store where chat 1 follows T1's risk status, with T1's token-feed handler. */
async function started() {
  const dir = tempDir();
  cleanup = dir.cleanup;
  store = openSqliteStore(dir.path);
  await store.follows.upsert({
    ...newFollow(chat('1'), T1),
    options: { events: ['risk-status'], minUsd: 0, thresholdPct: 10, side: 'both' },
  });
  let handler: EventHandler | null = null;
  const streams = {
    subscribe: (stream: string, _target: unknown, onEvent: EventHandler) => {
      if (stream === 'token-feed') handler = onEvent;
      return () => undefined;
    },
  };
  const running = createWatcher({ store, streams });
  watcher = running;
  await running.start();
  const push = (riskStatus: string, second: number, snapshot = false) => {
    if (handler === null) throw new Error('no token-feed subscription');
    void handler({
      stream: 'token-feed',
      kind: 'token',
      tokenAddress: T1,
      snapshot,
      token: makeToken({ riskStatus, syncedAt: at(second) }),
    });
  };
  return { running, push };
}

async function statusAlerts(): Promise<string[]> {
  const rows = (await store?.outbox.due('telegram', FAR, 100)) ?? [];
  return rows.flatMap((row) => (row.event.kind === 'risk-status' ? [`${row.event.from} → ${row.event.to}`] : []));
}

describe('inputs older than the state applied', () => {
  it('ignores a REST answer read before a newer stream frame and applied after it', async () => {
    const { running, push } = await started();
    push('SAFE', 10, true);
    push('DANGER', 30);
    await running.idle();
    // The reconciliation read WARNING at second 20, before the frame of second 30 came.
    await running.applyTokens([makeToken({ riskStatus: 'WARNING', syncedAt: at(20) })]);
    await running.idle();
    expect(await statusAlerts()).toEqual(['SAFE → DANGER']);
    expect(running.status().stale).toBe(1);
  });

  it('ignores a stream frame that comes after a newer one', async () => {
    const { running, push } = await started();
    push('WARNING', 10, true);
    push('DANGER', 30);
    push('WARNING', 20);
    // A newer frame after the stale one is compared with the newest state applied (DANGER).
    push('DANGER', 31);
    await running.idle();
    expect(await statusAlerts()).toEqual(['WARNING → DANGER']);
    expect(running.status().stale).toBe(1);
  });

  it('keeps a frame that came while a REST request was out over its answer of the same second', async () => {
    const { running, push } = await started();
    push('SAFE', 30, true);
    await running.idle();
    // The request goes out; the change comes as a frame of second 30; the answer, read just before it, comes after.
    const readSince = running.mark();
    push('DANGER', 30);
    await running.idle();
    await running.applyTokens([makeToken({ riskStatus: 'SAFE', syncedAt: at(30) })], readSince);
    await running.idle();
    expect(await statusAlerts()).toEqual(['SAFE → DANGER']);
    expect(running.status().stale).toBe(1);
    // An answer asked for after that frame may be what a socket missed: applied, even of the same second.
    await running.applyTokens([makeToken({ riskStatus: 'WARNING', syncedAt: at(30) })], running.mark());
    await running.idle();
    expect(await statusAlerts()).toEqual(['SAFE → DANGER', 'DANGER → WARNING']);
  });

  it('applies data of the same second in the order it came', async () => {
    const { running, push } = await started();
    push('SAFE', 10, true);
    push('DANGER', 10);
    await running.idle();
    expect(await statusAlerts()).toEqual(['SAFE → DANGER']);
    expect(running.status().stale).toBe(0);
  });
});
