/**
 * Quiet hours across midnight in a time zone, on an injected clock: the chat's alerts are held
 * and sent as one digest when the hours end; a change to DANGER goes at once unless strict.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Delivery } from '../../src/delivery/delivery';
import { quietUntil } from '../../src/delivery/quietHours';
import type { RiskStatusEvent } from '../../src/model/events';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { Clock, RecordingSender, chat, commitAlerts, snapshot, tempDb, testDelivery } from './helpers';

// 2023-11-15 04:30 UTC is 23:30 in New York (EST, UTC-5); 07:00 there is 12:00 UTC.
const NY_2330 = Date.UTC(2023, 10, 15, 4, 30);
const NY_0700 = Date.UTC(2023, 10, 15, 12, 0);
const QUIET = { from: '23:00', to: '07:00', zone: 'America/New_York' };

describe('quietUntil', () => {
  it('reads the hours on the zone’s wall clock, across midnight', () => {
    expect(quietUntil(QUIET, Date.UTC(2023, 10, 15, 3, 59))).toBeNull(); // 22:59 there
    expect(quietUntil(QUIET, NY_2330)).toBe(NY_0700);
    expect(quietUntil(QUIET, Date.UTC(2023, 10, 15, 10, 0))).toBe(NY_0700); // 05:00 there
    expect(quietUntil(QUIET, NY_0700)).toBeNull();
    expect(quietUntil({ from: '09:00', to: '17:00', zone: 'UTC' }, Date.UTC(2023, 10, 15, 12))).toBe(Date.UTC(2023, 10, 15, 17));
    expect(quietUntil({ from: '09:00', to: '09:00', zone: 'UTC' }, Date.UTC(2023, 10, 15, 9))).toBeNull();
  });
});

let db: { path: string; cleanup: () => void };
let store: SqliteStore;
let clock: Clock;
let telegram: RecordingSender;
let delivery: Delivery;

beforeEach(() => {
  db = tempDb();
  store = openSqliteStore(db.path);
  clock = new Clock(NY_2330);
  telegram = new RecordingSender('telegram');
  delivery = testDelivery(store, [telegram], clock);
});

afterEach(async () => {
  await delivery.stop();
  await store.close();
  db.cleanup();
});

function danger(key: string): RiskStatusEvent {
  return {
    key,
    kind: 'risk-status',
    at: clock.ms,
    token: { address: 'TokenAddress1111111111111111111111111111111', symbol: 'TOK', name: 'Token' },
    from: 'WARNING',
    to: 'DANGER',
    flags: [],
  };
}

async function scenario(strict: boolean): Promise<void> {
  const to = chat('night');
  await store.chats.updateSettings(to, { quiet: { ...QUIET, strict } });
  await commitAlerts(store, ['p1', 'p2'], [to], clock.now());
  await store.state.commitToken(snapshot(), [{ event: danger('d1'), to: [{ chat: to, label: null }] }], clock.now());
  await commitAlerts(store, ['p3'], [to], clock.now());
  await delivery.drain();
}

describe('a chat with quiet hours 23:00-07:00 America/New_York', () => {
  it('holds its alerts through the night and sends them as one digest at 07:00; DANGER goes at once', async () => {
    await scenario(false);
    expect(telegram.titlesFor('night')).toEqual(['alert d1']);
    clock.ms = NY_0700 - 60_000;
    await delivery.drain();
    expect(telegram.titlesFor('night')).toEqual(['alert d1']);
    clock.ms = NY_0700;
    await delivery.drain();
    const sent = telegram.sent.filter((s) => s.chat.chatId === 'night');
    expect(sent.map((s) => s.card.title)).toEqual(['alert d1', '3 alerts']);
    expect(sent[1]?.card.fields.map((f) => f.name)).toEqual(['alert p1', 'alert p2', 'alert p3']);
    expect(JSON.stringify(sent[1]?.card.description)).toContain('quiet hours');
    expect((await store.outbox.pending()).count).toBe(0);
  });

  it('holds DANGER too when strict', async () => {
    await scenario(true);
    expect(telegram.titlesFor('night')).toEqual([]);
    clock.ms = NY_0700;
    await delivery.drain();
    expect(telegram.titlesFor('night')).toEqual(['4 alerts']);
  });

  it('sends at once outside the hours, and once they are cleared', async () => {
    const to = chat('day');
    await store.chats.updateSettings(to, { quiet: { ...QUIET, strict: false } });
    expect((await store.chats.settings(to)).quiet).toEqual({ ...QUIET, strict: false });
    await store.chats.updateSettings(to, { quiet: null });
    expect((await store.chats.settings(to)).quiet).toBeUndefined();
    await commitAlerts(store, ['p1'], [to], clock.now());
    await delivery.drain();
    expect(telegram.titlesFor('day')).toEqual(['alert p1']);
  });
});
