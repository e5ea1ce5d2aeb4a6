/**
 * The hourly budget on an injected clock: past it a chat's alerts wait for the next clock hour and
 * go out there as one digest, nothing dropped; the chat is told once that hour; DANGER is not held.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Delivery } from '../../src/delivery/delivery';
import type { RiskStatusEvent } from '../../src/model/events';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { Clock, RecordingSender, chat, commitAlerts, snapshot, tempDb, testDelivery } from './helpers';

const HOUR = 3_600_000;
const START = Date.UTC(2023, 10, 15, 10, 5);

let db: { path: string; cleanup: () => void };
let store: SqliteStore;
let clock: Clock;
let telegram: RecordingSender;
let delivery: Delivery;

beforeEach(() => {
  db = tempDb();
  store = openSqliteStore(db.path);
  clock = new Clock(START);
  telegram = new RecordingSender('telegram');
  // A threshold above the test's rows: only the budget makes digests here.
  delivery = testDelivery(store, [telegram], clock, {
    digestThreshold: 100,
  });
});

afterEach(async () => {
  await delivery.stop();
  await store.close();
  db.cleanup();
});

describe('a chat with a budget of 3 alerts an hour', () => {
  it('sends 3, holds the rest for the next hour’s digest, tells the chat once, and drops none', async () => {
    const to = chat('busy');
    await store.chats.updateSettings(to, { budget: 3 });
    await commitAlerts(store, ['a1', 'a2'], [to], clock.now());
    await delivery.drain();
    clock.advance(60_000);
    await commitAlerts(store, ['a3', 'a4', 'a5'], [to], clock.now());
    await delivery.drain();
    clock.advance(60_000);
    await commitAlerts(store, ['a6'], [to], clock.now());
    const danger: RiskStatusEvent = {
      key: 'd1',
      kind: 'risk-status',
      at: clock.ms,
      token: { address: 'TokenAddress1111111111111111111111111111111', symbol: 'TOK', name: 'Token' },
      from: 'SAFE',
      to: 'DANGER',
      flags: [],
    };
    await store.state.commitToken(snapshot(), [{ event: danger, to: [{ chat: to, label: null }] }], clock.now());
    await delivery.drain();
    expect(telegram.titlesFor('busy')).toEqual(['alert a1', 'alert a2', 'alert a3', 'Hourly alert budget reached', 'alert d1']);

    clock.ms = Math.floor(START / HOUR) * HOUR + HOUR - 1;
    await delivery.drain();
    expect(telegram.titlesFor('busy')).toHaveLength(5);
    clock.ms += 1;
    await delivery.drain();
    const titles = telegram.titlesFor('busy');
    expect(titles.slice(5)).toEqual(['3 alerts']);
    const digest = telegram.sent.filter((s) => s.chat.chatId === 'busy')[5];
    expect(digest?.card.fields.map((f) => f.name)).toEqual(['alert a4', 'alert a5', 'alert a6']);
    expect((await store.outbox.pending()).count).toBe(0);
    // Every alert committed was delivered: a1..a6 and d1, none dropped.
    const delivered = await store.outbox.history(to, 50);
    expect(delivered.map((d) => d.event.key).sort()).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'd1']);

    // The new hour's budget is whole again: the digest did not spend it.
    await commitAlerts(store, ['b1', 'b2', 'b3', 'b4'], [to], clock.now());
    await delivery.drain();
    expect(telegram.titlesFor('busy').slice(6)).toEqual(['alert b1', 'alert b2', 'alert b3', 'Hourly alert budget reached']);
  });

  it('holds nothing once the budget is off', async () => {
    const to = chat('calm');
    await store.chats.updateSettings(to, { budget: 1 });
    await store.chats.updateSettings(to, { budget: null });
    expect((await store.chats.settings(to)).budget).toBeUndefined();
    await commitAlerts(store, ['a1', 'a2', 'a3'], [to], clock.now());
    await delivery.drain();
    expect(telegram.titlesFor('calm')).toEqual(['alert a1', 'alert a2', 'alert a3']);
  });
});
