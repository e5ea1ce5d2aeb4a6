/**
 * What delivery counts for the operators' metrics, on a real SQLite file: alerts a platform
 * accepted by kind (each of a digest), failed sends by why (throttled, error, gone), and the hook
 * told of every accepted message with the rows it carried, at the time the platform answered.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../src/model/follow';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { Clock, RecordingSender, chat, commitAlerts, tempDb, testDelivery } from './helpers';

let db: { path: string; cleanup: () => void };
let store: SqliteStore;

beforeEach(() => {
  db = tempDb();
  store = openSqliteStore(db.path);
});

afterEach(async () => {
  await store.close();
  db.cleanup();
});

describe('delivery’s counts', () => {
  it('counts accepted alerts by kind and failed sends by why, and tells the hook what each message carried', async () => {
    const clock = new Clock();
    const telegram = new RecordingSender('telegram');
    telegram.answer = (attempt) => {
      if (attempt.chat.chatId === 'slow') return { status: 'retry', afterMs: 30_000, reason: 'Too Many Requests: retry after 30' };
      if (attempt.chat.chatId === 'flaky') return { status: 'retry', afterMs: null, reason: 'socket hang up' };
      if (attempt.chat.chatId === 'gone') return { status: 'gone', reason: 'Forbidden: bot was kicked' };
      return { status: 'sent' };
    };
    const told: Array<{ rows: readonly OutboxEntry[]; at: number }> = [];
    const d = testDelivery(store, [telegram], clock, {
      digestThreshold: 5,
      onDelivered: (platform, rows, at) => {
        expect(platform).toBe('telegram');
        told.push({ rows, at: at.getTime() });
      },
    });
    // Two alerts to one chat, seven to another (a digest), and one each to chats that fail.
    await commitAlerts(store, ['e1', 'e2'], [chat('ok')], clock.now());
    await commitAlerts(store, ['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7'], [chat('busy')], clock.now());
    await commitAlerts(store, ['f1'], [chat('slow'), chat('flaky'), chat('gone')], clock.now());
    clock.advance(1_500);
    await d.drain();
    await d.stop();

    expect(d.counters('telegram')).toMatchObject({ sent: 9, sentByKind: { price: 9 }, failures: { throttled: 1, error: 1, gone: 1 } });
    // One message each for e1 and e2, one digest of seven.
    expect(told.map((message) => message.rows.length).sort()).toEqual([1, 1, 7]);
    expect(told.every((message) => message.at === clock.ms)).toBe(true);
    expect(told.flatMap((message) => message.rows.map((row) => row.event.key)).sort()).toEqual([
      'd1',
      'd2',
      'd3',
      'd4',
      'd5',
      'd6',
      'd7',
      'e1',
      'e2',
    ]);
  });
});
