/**
 * Named leases after PostgreSQL was away from every process, on a real PostgreSQL: each process gave
 * its leases up at its local deadline and they ran out in the database. The first process back must
 * not take another's sender lease at once: that sender may be coming back too, with rows it claimed
 * and alerts it sent but could not record, which a new holder would send again. It is left to its
 * holder for a lease's time, and taken after that if the holder does not come back.
 */
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { Coordinator, type LeaseBackend } from '../../src/cluster/coordinator';
import { silentLogger } from '../../src/log';
import { PgLeases } from '../../src/store/postgres/pgLeases';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/postgresStore';
import '../support/postgres/provided';
import { freshDatabase } from '../support/postgres/databases';

const shared = inject('postgres');
const SENDER = 'sender:telegram';

describe.runIf(shared.adminUrl !== null)('named leases after PostgreSQL was away from every process', () => {
  let store: PostgresStore;
  let leases: PgLeases;
  let drop: () => Promise<void>;
  /** Whether the database is out of reach: every leasing statement fails as a lost connection does. */
  let away: boolean;
  const coordinators: Coordinator[] = [];

  beforeEach(async () => {
    if (shared.adminUrl === null) return;
    const database = await freshDatabase(shared.adminUrl);
    drop = database.drop;
    store = await openPostgresStore(database.url);
    leases = new PgLeases(store.db);
    away = false;
  });

  afterEach(async () => {
    away = false;
    for (const coordinator of coordinators.splice(0)) await coordinator.stop();
    await store?.close();
    await drop?.();
  });

  const backend = (): LeaseBackend => {
    const through = <T>(run: () => Promise<T>): Promise<T> =>
      away ? Promise.reject(new Error('Connection terminated unexpectedly')) : run();
    return {
      take: (names, owner, ttlMs, info) => through(() => leases.take(names, owner, ttlMs, info)),
      renew: (names, owner, ttlMs, info) => through(() => leases.renew(names, owner, ttlMs, info)),
      release: (names, owner) => through(() => leases.release(names, owner)),
      list: (prefix) => through(() => leases.list(prefix)),
    };
  };

  /** A sender process on its own clock, ticked by the test alone. */
  function sender(owner: string): { coordinator: Coordinator; clock: { now: number } } {
    const clock = { now: 0 };
    const coordinator = new Coordinator({
      leases: backend(),
      owner,
      roles: new Set(['sender']),
      wanted: [SENDER],
      logger: silentLogger,
      monotonic: () => clock.now,
      timing: { tickMs: 3_600_000 },
    });
    coordinators.push(coordinator);
    return { coordinator, clock };
  }

  /** Both away past their leases: given up locally, run out in the database. */
  async function awayFromBoth(...processes: Array<{ coordinator: Coordinator; clock: { now: number } }>): Promise<void> {
    away = true;
    for (const each of processes) {
      each.clock.now += 3_000;
      await each.coordinator.tickNow();
      each.clock.now += 9_000;
      await each.coordinator.tickNow();
      expect(each.coordinator.holds(SENDER)).toBe(false);
    }
    away = false;
    await store.db.query({ text: "UPDATE leases SET expires_at = now() - interval '1 millisecond'" });
  }

  it('leaves the sender lease to its holder when another process is back first, and the holder takes it back', async () => {
    const a = sender('a');
    const b = sender('b');
    await a.coordinator.start();
    await b.coordinator.start();
    expect(a.coordinator.holds(SENDER)).toBe(true);
    expect(b.coordinator.holds(SENDER)).toBe(false);
    await awayFromBoth(a, b);
    // b is back first: a's lease has run out, but a may be coming back too.
    await b.coordinator.tickNow();
    expect(b.coordinator.holds(SENDER)).toBe(false);
    await a.coordinator.tickNow();
    expect(a.coordinator.holds(SENDER)).toBe(true);
    for (let second = 0; second < 12; second += 1) {
      a.clock.now += 1_000;
      b.clock.now += 1_000;
      await a.coordinator.tickNow();
      await b.coordinator.tickNow();
    }
    expect(a.coordinator.holds(SENDER)).toBe(true);
    expect(b.coordinator.holds(SENDER)).toBe(false);
  });

  it('takes it a lease’s time later when its holder does not come back', async () => {
    const a = sender('a');
    const b = sender('b');
    await a.coordinator.start();
    await b.coordinator.start();
    await awayFromBoth(a, b);
    const backAt = b.clock.now;
    // Ticking every second, as it does: not taken within the lease's time, taken at the first tick after it.
    while (b.clock.now - backAt < 10_000) {
      await b.coordinator.tickNow();
      expect(b.coordinator.holds(SENDER), `${b.clock.now - backAt} ms after b was back`).toBe(false);
      b.clock.now += 1_000;
    }
    await b.coordinator.tickNow();
    expect(b.coordinator.holds(SENDER)).toBe(true);
  });
});
