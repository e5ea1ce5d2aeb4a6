/**
 * An alert the platform accepted whose record the store could not take (a PostgreSQL server away, a
 * full disk) is sent once: the drain records it before it reads or sends anything else, and never
 * sends it again. Before, the next round claimed the row again and sent it a second time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDelivery, type Delivery } from '../../src/delivery/delivery';
import { silentLogger } from '../../src/log';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import type { Store } from '../../src/store/store';
import { StoreUnavailableError } from '../../src/store/storeUnavailable';
import { Clock, RecordingSender, chat, commitAlerts, simpleAlertCard, tempDb } from './helpers';

let db: { path: string; cleanup: () => void };
let store: SqliteStore;
let clock: Clock;
let delivery: Delivery;
/** Whether the store refuses to mark rows delivered now, as a store away does. */
let refusing: boolean;
let marks: number;

/** `target` as delivery sees it: its methods on itself, and `name` answered by `stand`. */
function replacing<T extends object>(target: T, name: PropertyKey, stand: unknown): T {
  return new Proxy(target, {
    get(object, key) {
      if (key === name) return stand;
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/** The store delivery runs on: the real one, but marking delivered is refused while `refusing`. */
function refusingStore(): Store {
  const outbox = replacing(store.outbox, 'markDelivered', async (ids: number[], at: Date) => {
    marks += 1;
    if (refusing) throw new StoreUnavailableError('the test refuses it');
    await store.outbox.markDelivered(ids, at);
  });
  return replacing(store as Store, 'outbox', outbox);
}

beforeEach(() => {
  db = tempDb();
  store = openSqliteStore(db.path);
  clock = new Clock();
  refusing = false;
  marks = 0;
});

afterEach(async () => {
  await delivery?.stop();
  await store.close();
  db.cleanup();
});

function start(sender: RecordingSender): Delivery {
  delivery = createDelivery({
    store: refusingStore(),
    senders: [sender],
    buttonsFor: async () => [],
    alertCard: simpleAlertCard,
    logger: silentLogger,
    now: clock.now,
    pollMs: 60_000,
  });
  return delivery;
}

describe('an alert sent while the store cannot record it', () => {
  it('is recorded when the store is back and never sent again; nothing else goes out before it is recorded', async () => {
    const telegram = new RecordingSender('telegram');
    const drain = start(telegram);
    await commitAlerts(store, ['e1'], [chat('t1')], clock.now());
    refusing = true;
    await drain.drain();
    expect(telegram.titlesFor('t1')).toEqual(['alert e1']);
    expect((await store.outbox.pending()).count).toBe(1);

    // Still refused: the next round tries the record first, and sends nothing, old or new.
    await commitAlerts(store, ['e2'], [chat('t1')], clock.now());
    const before = marks;
    await drain.drain();
    expect(marks).toBeGreaterThan(before);
    expect(telegram.titlesFor('t1')).toEqual(['alert e1']);

    refusing = false;
    await drain.drain();
    expect(telegram.titlesFor('t1')).toEqual(['alert e1', 'alert e2']);
    expect((await store.outbox.pending()).count).toBe(0);
    expect(delivery.counters('telegram')?.sent).toBe(2);
  });
});
