/**
 * A kind sent alone (the daily watchlist) keeps its own card when a chat's backlog is merged into
 * digests, in its place among them: merging it would shrink a whole watchlist to one line.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DailyDigestEvent } from '../../src/alerts/kinds/dailyDigest';
import { DIGEST_MAX_ITEMS } from '../../src/delivery/digest';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { Clock, RecordingSender, chat, commitAlerts, tempDb, testDelivery } from './helpers';

let db: { path: string; cleanup: () => void };
let store: SqliteStore;
let clock: Clock;

beforeEach(() => {
  db = tempDb();
  store = openSqliteStore(db.path);
  clock = new Clock();
});

afterEach(async () => {
  await store.close();
  db.cleanup();
});

function watchlistEvent(key: string): DailyDigestEvent {
  return {
    kind: 'daily-digest',
    key,
    at: clock.ms,
    token: { address: '', symbol: '', name: '' },
    day: '2023-11-14',
    time: '09:00',
    zone: 'UTC',
    tokens: [],
    tokensUnread: 0,
    wallets: [],
    walletsUnread: 0,
  };
}

describe('a backlog with a daily watchlist in it', () => {
  it('is merged into digests around the watchlist, which goes out whole, in its place', async () => {
    const to = chat('busy');
    const before = Array.from({ length: DIGEST_MAX_ITEMS }, (_, i) => `a${i + 1}`);
    await commitAlerts(store, before, [to], clock.now());
    await store.outbox.add([{ event: watchlistEvent('watchlist-1'), to: [{ chat: to, label: null }] }], clock.now());
    await commitAlerts(store, ['b1', 'b2'], [to], clock.now());
    const telegram = new RecordingSender('telegram');
    const delivery = testDelivery(store, [telegram], clock, {
      backoff: { baseMs: 1_000, maxMs: 60_000 },
      digestThreshold: 5,
    });
    try {
      await delivery.drain();
    } finally {
      await delivery.stop();
    }
    expect(telegram.titlesFor('busy')).toEqual([
      `${DIGEST_MAX_ITEMS} alerts (digest 1 of 2)`,
      'alert watchlist-1',
      '2 alerts (digest 2 of 2)',
    ]);
  });
});
