/**
 * The peak job shares its reads between chats: with 1,000 calls overdue in one chat, another
 * chat's call is read in the job's first run, well within its 5-minute schedule. A real SQLite
 * store; the market answers every candle request empty and records what was asked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CallPeaks } from '../../src/jobs/callPeaks';
import type { Candle } from '../../src/market/schemas';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { tempDb } from '../delivery/helpers';
import { CALLED_AT, chat, newCall } from '../store/helpers';

let store: SqliteStore | null = null;
let cleanup: () => void = () => undefined;

afterEach(async () => {
  await store?.close();
  store = null;
  cleanup();
});

describe('the peak job’s share between chats', () => {
  it('reads a small chat’s call in its first run beside a chat with 1,000 overdue calls', async () => {
    const db = tempDb();
    cleanup = db.cleanup;
    const opened = openSqliteStore(db.path);
    store = opened;
    const busy = chat('-901');
    const small = chat('-902');
    await opened.calls.setEnabled(busy, true, CALLED_AT);
    await opened.calls.setEnabled(small, true, CALLED_AT);
    for (let index = 0; index < 1_000; index++) await opened.calls.record(newCall(busy, `Busy${index}`, `u${index % 9}`));
    await opened.calls.record(newCall(small, 'SmallToken', 'zoe', { calledAt: new Date(CALLED_AT.getTime() + 60_000) }));
    const asked: string[] = [];
    const market = {
      chart: async (base: string): Promise<Candle[]> => {
        asked.push(base);
        return [];
      },
    };
    const now = new Date(CALLED_AT.getTime() + 10 * 60_000);
    const job = new CallPeaks({ calls: opened.calls, market, now: () => now });
    const figures = await job.runOnce();
    expect(figures.requests).toBeGreaterThan(0);
    expect(asked).toContain('SmallToken');
  });
});
