/**
 * The outbox drain on a real SQLite file: fan-out to chats on several platforms with one card per
 * event, order within a chat, retries with backoff and the platform's own wait, a chat that is
 * gone, digests, a stop in the middle and a restart that loses and repeats nothing, and a notify
 * that wakes the loop.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDelivery, type Delivery } from '../../src/delivery/delivery';
import { DIGEST_MAX_ITEMS } from '../../src/delivery/digest';
import { silentLogger } from '../../src/log';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { Clock, RecordingSender, capturedLogger, chat, commitAlerts, simpleAlertCard, tempDb } from './helpers';

/** What a wait for the loop's own work allows: a bound on a loaded machine, not a guess of its time. */
const WAIT = { timeout: 10_000, interval: 20 };

let db: { path: string; cleanup: () => void };
let store: SqliteStore;
let clock: Clock;
const deliveries: Delivery[] = [];

beforeEach(() => {
  db = tempDb();
  store = openSqliteStore(db.path);
  clock = new Clock();
});

afterEach(async () => {
  for (const delivery of deliveries.splice(0)) await delivery.stop();
  await store.close();
  db.cleanup();
});

function delivery(senders: RecordingSender[], extra: Partial<Parameters<typeof createDelivery>[0]> = {}): Delivery {
  const made = createDelivery({
    store,
    senders,
    buttonsFor: async (card, to) => card.actions.map((action, index) => ({ label: action.label, key: `${to.chatId}-${index}` })),
    alertCard: simpleAlertCard,
    logger: silentLogger,
    now: clock.now,
    pollMs: 60_000,
    backoff: { baseMs: 1_000, maxMs: 60_000 },
    ...extra,
  });
  deliveries.push(made);
  return made;
}

describe('delivery', () => {
  it('sends each alert once to every following chat, on its platform, building each card once', async () => {
    const telegram = new RecordingSender('telegram');
    const discord = new RecordingSender('discord');
    const chats = [chat('t1'), chat('t2'), chat('d1', 'discord')];
    await commitAlerts(store, ['e1', 'e2'], chats, clock.now());
    const d = delivery([telegram, discord]);
    await d.drain();
    expect(telegram.titlesFor('t1')).toEqual(['alert e1', 'alert e2']);
    expect(telegram.titlesFor('t2')).toEqual(['alert e1', 'alert e2']);
    expect(discord.titlesFor('d1')).toEqual(['alert e1', 'alert e2']);
    expect(d.cardsBuilt).toBe(2);
    // The same Card object for every chat, so a sender can render it once (renderOnce).
    expect(telegram.sent[0]?.card).toBe(discord.sent[0]?.card);
    // Buttons are issued per chat: action keys belong to the chat they are shown in.
    expect(telegram.sent[0]?.buttons).toEqual([{ label: 'Token', key: 't1-0' }]);
    await d.drain();
    expect(telegram.sent).toHaveLength(4);
    expect(await store.outbox.pending()).toEqual({ count: 0, oldest: null });
  });

  it('retries after backoff, or after the wait the platform asked for, and keeps a chat in order', async () => {
    const telegram = new RecordingSender('telegram');
    const { logger, lines } = capturedLogger();
    await commitAlerts(store, ['e1', 'e2'], [chat('a'), chat('b')], clock.now());
    let refusals = 0;
    telegram.answer = (attempt) => {
      if (attempt.chat.chatId === 'a' && refusals < 2) {
        refusals += 1;
        return { status: 'retry', afterMs: refusals === 1 ? null : 30_000, reason: 'Too Many Requests' };
      }
      return { status: 'sent' };
    };
    const d = delivery([telegram], { logger });
    await d.drain();
    expect(telegram.titlesFor('b')).toEqual(['alert e1', 'alert e2']);
    expect(telegram.titlesFor('a')).toEqual([]);
    // A row committed after the failure does not overtake the one that failed.
    await commitAlerts(store, ['e3'], [chat('a')], clock.now());
    await d.drain();
    expect(telegram.attempts.filter((s) => s.chat.chatId === 'a')).toHaveLength(1);

    clock.advance(999); // first backoff is 1 s
    await d.drain();
    expect(refusals).toBe(1);
    clock.advance(1);
    await d.drain();
    expect(refusals).toBe(2); // refused again, asking for 30 s this time

    clock.advance(29_999);
    await d.drain();
    expect(telegram.titlesFor('a')).toEqual([]);
    clock.advance(1);
    await d.drain();
    expect(telegram.titlesFor('a')).toEqual(['alert e1', 'alert e2', 'alert e3']);
    expect(lines.filter((line) => line.msg === 'alert not delivered; will retry')).toHaveLength(2);
  });

  it('treats a sender that throws as a passing failure', async () => {
    const telegram = new RecordingSender('telegram');
    await commitAlerts(store, ['e1'], [chat('a')], clock.now());
    let thrown = false;
    telegram.answer = () => {
      if (thrown) return { status: 'sent' };
      thrown = true;
      throw new Error('socket hang up');
    };
    const d = delivery([telegram]);
    await d.drain();
    expect(telegram.sent).toHaveLength(0);
    clock.advance(1_000);
    await d.drain();
    expect(telegram.titlesFor('a')).toEqual(['alert e1']);
  });

  it('pauses a chat that is gone, with one log line, and never tries it again', async () => {
    const telegram = new RecordingSender('telegram');
    const { logger, lines } = capturedLogger();
    const paused: string[] = [];
    await store.follows.upsert({
      chat: chat('gone'),
      kind: 'token',
      address: 'TokenAddress1111111111111111111111111111111',
      label: null,
      options: { events: [], minUsd: 0, thresholdPct: 10, side: 'both' },
      addedBy: 'u',
      now: clock.now(),
    });
    await commitAlerts(store, ['e1', 'e2'], [chat('gone'), chat('fine')], clock.now());
    telegram.answer = (attempt) =>
      attempt.chat.chatId === 'gone' ? { status: 'gone', reason: 'Forbidden: bot was blocked by the user' } : { status: 'sent' };
    const d = delivery([telegram], { logger, onPaused: (c) => paused.push(c.chatId) });
    await d.drain();
    clock.advance(3_600_000);
    await commitAlerts(store, ['e3'], [chat('gone'), chat('fine')], clock.now());
    await d.drain();
    await d.drain();
    expect(telegram.attempts.filter((s) => s.chat.chatId === 'gone')).toHaveLength(1);
    expect(telegram.titlesFor('fine')).toEqual(['alert e1', 'alert e2', 'alert e3']);
    expect(paused).toEqual(['gone']);
    expect(lines.filter((line) => line.msg === 'chat cannot be written to: its follows are paused')).toHaveLength(1);
    expect(await store.chats.pausedReason(chat('gone'))).toBe('Forbidden: bot was blocked by the user');
    // Its follows leave the watcher's targets; its alerts wait, undelivered, for a resume.
    expect((await store.follows.targets()).tokens).toEqual([]);
    expect((await store.outbox.pending()).count).toBe(3);
    await store.chats.resume(chat('gone'));
    telegram.answer = () => ({ status: 'sent' });
    await d.drain();
    expect(telegram.titlesFor('gone')).toEqual(['alert e1', 'alert e2', 'alert e3']);
  });

  it('merges a chat’s backlog past the limit into digests, dropping nothing', async () => {
    const telegram = new RecordingSender('telegram');
    const keys = Array.from({ length: DIGEST_MAX_ITEMS + 2 }, (_, i) => `e${i + 1}`);
    await commitAlerts(store, keys, [chat('busy')], clock.now());
    await commitAlerts(store, ['q1', 'q2'], [chat('quiet')], clock.now());
    const d = delivery([telegram], { digestThreshold: 5 });
    await d.drain();
    const busy = telegram.sent.filter((s) => s.chat.chatId === 'busy');
    expect(busy.map((s) => s.card.title)).toEqual([`${DIGEST_MAX_ITEMS} alerts (digest 1 of 2)`, '2 alerts (digest 2 of 2)']);
    expect(busy.flatMap((s) => s.card.fields.map((f) => f.name))).toEqual(keys.map((k) => `alert ${k}`));
    expect(telegram.titlesFor('quiet')).toEqual(['alert q1', 'alert q2']);
    expect(d.counters('telegram')).toMatchObject({ sent: keys.length + 2, digests: 2, digested: keys.length });
    expect((await store.outbox.pending()).count).toBe(0);
  });

  it('gives each message a send key naming exactly the rows it carries, a digest all of its own', async () => {
    const telegram = new RecordingSender('telegram');
    await commitAlerts(store, ['s1'], [chat('single')], clock.now());
    await commitAlerts(store, ['d1', 'd2', 'd3', 'd4', 'd5', 'd6'], [chat('many')], clock.now());
    const d = delivery([telegram], { digestThreshold: 5 });
    await d.drain();
    const [single] = telegram.sent.filter((s) => s.chat.chatId === 'single');
    const [digest] = telegram.sent.filter((s) => s.chat.chatId === 'many');
    expect(single?.key).toMatch(/^tw\d+$/);
    // Six rows, six ids: the same digest sent again is the same key, one with a row more is not.
    expect(digest?.key).toMatch(/^tw\d+(\.\d+){5}$/);
    expect(new Set(digest?.key?.slice(2).split('.')).size).toBe(6);
  });

  it('stopped in the middle, the store closed and reopened: nothing lost, nothing repeated', async () => {
    const first = new RecordingSender('telegram');
    const chats = Array.from({ length: 6 }, (_, i) => chat(`c${i}`));
    const keys = ['e1', 'e2', 'e3', 'e4'];
    await commitAlerts(store, keys, chats, clock.now());
    let release: () => void = () => undefined;
    first.gate = new Promise((resolve) => {
      release = resolve;
    });
    const d1 = delivery([first], { concurrency: 2 });
    const draining = d1.drain();
    await vi.waitFor(() => expect(first.attempts.length).toBe(2), WAIT);
    const stopping = d1.stop();
    release();
    await stopping;
    await draining;
    // The two sends under way finished and were recorded; nothing else started.
    expect(first.sent).toHaveLength(2);
    await store.close();

    store = openSqliteStore(db.path);
    const second = new RecordingSender('telegram');
    await delivery([second]).drain();
    const all = [...first.sent, ...second.sent].map((s) => `${s.chat.chatId}/${s.card.title}`).sort();
    const wanted = chats.flatMap((c) => keys.map((k) => `${c.chatId}/alert ${k}`)).sort();
    expect(all).toEqual(wanted);
    for (const c of chats) expect([...first.titlesFor(c.chatId), ...second.titlesFor(c.chatId)]).toEqual(keys.map((k) => `alert ${k}`));
  });

  it('wakes when notified, and drains what an earlier run left when started', async () => {
    const telegram = new RecordingSender('telegram');
    await commitAlerts(store, ['left'], [chat('a')], clock.now());
    const d = delivery([telegram]);
    d.start();
    await vi.waitFor(() => expect(telegram.titlesFor('a')).toEqual(['alert left']), WAIT);
    await commitAlerts(store, ['new'], [chat('a')], clock.now());
    d.notify();
    await vi.waitFor(() => expect(telegram.titlesFor('a')).toEqual(['alert left', 'alert new']), WAIT);
  });

  it('forgets delivered alerts after a week, at start', async () => {
    const telegram = new RecordingSender('telegram');
    const { logger, lines } = capturedLogger();
    await commitAlerts(store, ['old'], [chat('a')], clock.now());
    await delivery([telegram]).drain();
    clock.advance(8 * 24 * 3_600_000);
    await commitAlerts(store, ['fresh'], [chat('a')], clock.now());
    delivery([telegram], { logger }).start();
    await vi.waitFor(() => expect(lines.find((line) => line.msg === 'delivered alerts pruned')).toMatchObject({ removed: 1 }), WAIT);
    await vi.waitFor(() => expect(telegram.titlesFor('a')).toEqual(['alert old', 'alert fresh']), WAIT);
  });
});
