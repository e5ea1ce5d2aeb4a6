/**
 * The peak job's writes under its lease (src/jobs/callPeaks.ts, `calls:peaks`): a process whose
 * lease ran out and was taken by another writes no peak and no milestone, on a real PostgreSQL, so a
 * milestone the new holder tells is not told a second time under another grouping.
 */
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { CALL_PEAKS_LEASE } from '../../src/cluster/member';
import { CallPeaks } from '../../src/jobs/callPeaks';
import { silentLogger } from '../../src/log';
import type { Candle } from '../../src/market/schemas';
import type { Call, NewCall } from '../../src/store/calls';
import { isLeaseLost, type CommitFence } from '../../src/store/leaseLost';
import { PgLeases } from '../../src/store/postgres/pgLeases';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/postgresStore';
import '../support/postgres/provided';
import { freshDatabase } from '../support/postgres/databases';
import { chat } from '../store/helpers';

const shared = inject('postgres');
const T0 = new Date(1_800_000_000_000);
const group = chat('-100');

function newCall(address: string): NewCall {
  return {
    chat: group,
    address,
    symbol: 'TOK',
    name: 'Token',
    userId: 'alice',
    userName: 'alice',
    messageId: `m-${address}`,
    calledAt: T0,
    priceSol: 0.001,
    priceUsd: 0.15,
    solUsd: 150,
    mcapSol: 1_000,
    mcapUsd: 150_000,
  };
}

/** The service's candles after the call: one whose high is `multiple` times the call's price. */
function candlesReaching(multiple: number): Candle[] {
  const timestamp = T0.getTime() + 60_000;
  return [{ time: null, timestamp, open: 0.001, high: 0.001 * multiple, low: 0.001, close: 0.001, volume: 1 }];
}

describe.runIf(shared.adminUrl !== null)('the peak job under its lease', () => {
  let store: PostgresStore;
  let leases: PgLeases;
  let drop: () => Promise<void>;

  beforeEach(async () => {
    if (shared.adminUrl === null) return;
    const database = await freshDatabase(shared.adminUrl);
    drop = database.drop;
    store = await openPostgresStore(database.url);
    leases = new PgLeases(store.db);
    await store.calls.setEnabled(group, true, T0);
  });

  afterEach(async () => {
    await store?.close();
    await drop?.();
  });

  async function fenceOf(owner: string): Promise<CommitFence> {
    const taken = await leases.take([CALL_PEAKS_LEASE], owner, 10_000);
    const epoch = taken.get(CALL_PEAKS_LEASE);
    if (epoch === undefined) throw new Error(`${owner} could not take ${CALL_PEAKS_LEASE}`);
    return { owner, leases: [{ name: CALL_PEAKS_LEASE, epoch }] };
  }

  /** The lease runs out now, as 10 s after its last renewal would have it, by the database's clock. */
  async function runOut(): Promise<void> {
    await store.db.query({
      text: "UPDATE leases SET expires_at = now() - interval '1 millisecond' WHERE name = $1",
      values: [CALL_PEAKS_LEASE],
    });
  }

  function job(fence: () => CommitFence, multiple: number): CallPeaks {
    return new CallPeaks({
      calls: store.calls,
      market: { chart: async () => candlesReaching(multiple) },
      now: () => new Date(T0.getTime() + 120_000),
      logger: silentLogger,
      fence,
    });
  }

  async function milestoneRows(): Promise<number> {
    return (await store.outbox.due('telegram', new Date(T0.getTime() + 3_600_000), 10)).filter((row) => row.event.kind === 'call-milestone')
      .length;
  }

  it('writes the peak and its milestone while the lease is held, and nothing once another process took it', async () => {
    const { call } = await store.calls.record(newCall('TokenA'));
    const stale = await fenceOf('a');
    await runOut();
    const current = await fenceOf('b');
    expect(current.leases[0]?.epoch).toBe((stale.leases[0]?.epoch ?? 0) + 1);

    // The stalled process read the call and its candles before its lease ran out; its write is refused whole.
    const refused = await job(() => stale, 2)
      .runOnce()
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(isLeaseLost(refused)).toBe(true);
    expect(await milestoneRows()).toBe(0);
    const untouched = (await store.calls.get(group, 'TokenA')) as Call;
    expect([untouched.toldMultiple, untouched.peakSol, untouched.nextCheckAt]).toEqual([0, call.peakSol, call.nextCheckAt]);

    // The holder's run tells ×2 once.
    expect(await job(() => current, 2).runOnce()).toMatchObject({ calls: 1, milestones: 1 });
    expect(await milestoneRows()).toBe(1);
    expect((await store.calls.get(group, 'TokenA'))?.toldMultiple).toBe(2);
  });

  it('refuses a fence for a lease this process never held', async () => {
    await store.calls.record(newCall('TokenB'));
    await fenceOf('b');
    const never: CommitFence = { owner: 'a', leases: [{ name: CALL_PEAKS_LEASE, epoch: -1 }] };
    await expect(store.calls.recordPeaks([], [], T0, never)).rejects.toSatisfy(isLeaseLost);
  });
});
