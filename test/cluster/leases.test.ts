/**
 * The leases several processes share, on a real PostgreSQL: epochs, expiry by the database's
 * clock, fenced commits (state, and the peak job's) refused once a lease moved on, and coordinators that split the 256
 * watcher partitions fairly, take a stopped one's share, and give everything up when stalled.
 */
import type { PoolClient } from 'pg';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { Coordinator, type LeaseBackend } from '../../src/cluster/coordinator';
import { PARTITIONS, fairShare, partitionLease, partitionOf, rebalance } from '../../src/cluster/partitions';
import { createLogger, silentLogger } from '../../src/log';
import { LeaseLostError, type CommitFence } from '../../src/store/leaseLost';
import { CALL_PEAKS_LEASE } from '../../src/cluster/member';
import { CallPeaks } from '../../src/jobs/callPeaks';
import { PgLeases } from '../../src/store/postgres/pgLeases';
import { FENCE_SQL } from '../../src/store/postgres/fence';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/postgresStore';
import '../support/postgres/provided';
import { freshDatabase } from '../support/postgres/databases';
import { CALLED_AT, chat, newCall, tokenSnapshot } from '../store/helpers';

const shared = inject('postgres');

describe('partitions', () => {
  it('spreads addresses over every partition and ranks each process its own way', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 20_000; i += 1) seen.add(partitionOf(`Token${i}pump`));
    expect(seen.size).toBe(PARTITIONS);
    expect(partitionOf('So11111111111111111111111111111111111111112')).toBe(partitionOf('So11111111111111111111111111111111111111112'));
    expect(fairShare(1)).toBe(256);
    expect(fairShare(3)).toBe(86);
    const a = rebalance('a', new Set(), new Set(), 2).take;
    const b = rebalance('b', new Set(), new Set(), 2).take;
    expect(a).toHaveLength(128);
    expect(b).toHaveLength(128);
    // Two processes prefer different partitions: most of what each takes first is not the other's first choice.
    expect(a.filter((partition) => b.includes(partition)).length).toBeLessThan(100);
  });

  it('gives back the least preferred past the share, and takes only what no one holds', () => {
    const all = new Set(Array.from({ length: PARTITIONS }, (_, index) => index));
    const plan = rebalance('a', all, new Set(), 2);
    expect(plan.release).toHaveLength(128);
    expect(plan.take).toEqual([]);
    const others = new Set([0, 1, 2]);
    const taken = rebalance('b', new Set(), others, 1).take;
    expect(taken).toHaveLength(253);
    expect(taken.some((partition) => others.has(partition))).toBe(false);
  });
});

/** `leases` with every statement run through `through`: a test's stand-in for the network between the process and PostgreSQL. */
function passedThrough(leases: PgLeases, through: <T>(run: () => Promise<T>) => Promise<T>): LeaseBackend {
  return {
    take: (names, owner, ttlMs, info) => through(() => leases.take(names, owner, ttlMs, info)),
    renew: (names, owner, ttlMs, info) => through(() => leases.renew(names, owner, ttlMs, info)),
    release: (names, owner) => through(() => leases.release(names, owner)),
    list: (prefix) => through(() => leases.list(prefix)),
  };
}

describe.runIf(shared.adminUrl !== null)('leases in PostgreSQL', () => {
  let store: PostgresStore;
  let leases: PgLeases;
  let drop: () => Promise<void>;
  const coordinators: Coordinator[] = [];
  const holding: PoolClient[] = [];

  beforeEach(async () => {
    if (shared.adminUrl === null) return;
    const database = await freshDatabase(shared.adminUrl);
    drop = database.drop;
    store = await openPostgresStore(database.url);
    leases = new PgLeases(store.db);
  });

  afterEach(async () => {
    // Connections a test holds as another process would: ended, never given back to the pool.
    for (const client of holding.splice(0)) client.release(true);
    for (const coordinator of coordinators.splice(0)) await coordinator.stop();
    await store?.close();
    await drop?.();
  });

  /** The lease runs out now, as 10 s after its last renewal would have it, by the database's clock. */
  async function runOut(name: string): Promise<void> {
    await store.db.query({ text: "UPDATE leases SET expires_at = now() - interval '1 millisecond' WHERE name = $1", values: [name] });
    expect((await leases.list(name)).find((lease) => lease.name === name)?.live).toBe(false);
  }

  it('takes a free lease at epoch 1, renews it at the same epoch, and refuses it to another owner while live', async () => {
    expect(await leases.take(['sender:telegram'], 'a', 10_000)).toEqual(new Map([['sender:telegram', 1]]));
    expect(await leases.take(['sender:telegram'], 'a', 10_000)).toEqual(new Map([['sender:telegram', 1]]));
    expect(await leases.take(['sender:telegram'], 'b', 10_000)).toEqual(new Map());
    expect(await leases.renew(['sender:telegram'], 'b', 10_000)).toEqual(new Map());
    expect(await leases.renew(['sender:telegram'], 'a', 10_000)).toEqual(new Map([['sender:telegram', 1]]));
  });

  it('hands a lease that ran out, or was given back, to the next owner at the next epoch', async () => {
    await leases.take(['partition:7'], 'a', 10_000);
    await runOut('partition:7');
    expect(await leases.renew(['partition:7'], 'a', 10_000)).toEqual(new Map());
    expect(await leases.take(['partition:7'], 'b', 10_000)).toEqual(new Map([['partition:7', 2]]));
    await leases.release(['partition:7'], 'b');
    expect(await leases.take(['partition:7'], 'a', 10_000)).toEqual(new Map([['partition:7', 3]]));
  });

  it('refuses a fenced commit once its lease moved on, and writes nothing of it', async () => {
    const address = 'FencedToken1111111111111111111111111111pump';
    const name = partitionLease(partitionOf(address));
    const taken = await leases.take([name], 'stalled', 10_000);
    const epoch = taken.get(name) as number;
    const snapshot = { ...tokenSnapshot(address), riskStatus: 'SAFE' };
    const fence = { owner: 'stalled', leases: [{ name, epoch }] };
    expect(await store.state.commitMany({ tokens: [{ snapshot, alerts: [] }], wallets: [] }, new Date(), fence)).toBe(0);
    expect(await store.state.token(address)).not.toBeNull();

    await runOut(name);
    await leases.take([name], 'awake', 10_000);
    const later = { ...snapshot, riskStatus: 'DANGER' };
    await expect(
      store.state.commitMany({ tokens: [{ snapshot: later, alerts: [] }], wallets: [] }, new Date(), fence),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect((await store.state.token(address))?.riskStatus).toBe('SAFE');
  });

  it('lets the peak job write its peaks and milestones under calls:peaks, and nothing once another process took it', async () => {
    const group = chat('-100');
    await store.calls.setEnabled(group, true, CALLED_AT);
    const { call } = await store.calls.record(newCall(group, 'CalledToken', 'alice'));
    const fenceOf = async (owner: string) => ({
      owner,
      leases: [{ name: CALL_PEAKS_LEASE, epoch: (await leases.take([CALL_PEAKS_LEASE], owner, 10_000)).get(CALL_PEAKS_LEASE) as number }],
    });
    const stalled = await fenceOf('stalled');
    await runOut(CALL_PEAKS_LEASE);
    const awake = await fenceOf('awake');
    // The service's candles after the call: one that traded and closed at twice the call's price.
    const candles = [
      { time: null, timestamp: CALLED_AT.getTime() + 60_000, open: 0.001, high: 0.002, low: 0.001, close: 0.002, volume: 1 },
    ];
    const job = (fence: CommitFence) =>
      new CallPeaks({
        calls: store.calls,
        market: { chart: async () => candles },
        now: () => new Date(CALLED_AT.getTime() + 120_000),
        fence: () => fence,
      });
    const milestones = async () =>
      (await store.outbox.due('telegram', new Date(CALLED_AT.getTime() + 3_600_000), 10)).filter(
        (row) => row.event.kind === 'call-milestone',
      ).length;

    // The stalled process read the call and its candles before its lease ran out: its write is refused whole.
    await expect(job(stalled).runOnce()).rejects.toBeInstanceOf(LeaseLostError);
    expect(await milestones()).toBe(0);
    expect(await store.calls.get(group, 'CalledToken')).toMatchObject({
      toldMultiple: 0,
      peakSol: call.peakSol,
      nextCheckAt: call.nextCheckAt,
    });
    // The holder's run tells ×2, once.
    expect(await job(awake).runOnce()).toMatchObject({ calls: 1, milestones: 1 });
    expect(await milestones()).toBe(1);
    expect((await store.calls.get(group, 'CalledToken'))?.toldMultiple).toBe(2);
    // A process that never held the lease is refused too.
    await expect(
      store.calls.recordPeaks([], [], CALLED_AT, { owner: 'other', leases: [{ name: CALL_PEAKS_LEASE, epoch: -1 }] }),
    ).rejects.toBeInstanceOf(LeaseLostError);
  });

  it('skips a lease whose fence a cut-off process left open, and never waits for it; the holder still renews', async () => {
    await leases.take(['partition:7', 'partition:8', 'partition:9'], 'cut', 10_000);
    // A fenced commit cut off after its read: the transaction stays open with its lock, as a partition leaves it.
    const open = await store.db.pool.connect();
    open.on('error', () => undefined);
    holding.push(open);
    // Open for as long as this test takes, however slow the machine: the server's own end of such
    // a transaction is the next test's case.
    await open.query('SET idle_in_transaction_session_timeout = 0');
    await open.query('BEGIN');
    await open.query(FENCE_SQL, [['partition:7', 'partition:9'], 'cut']);
    // The holder's own renewal keeps the owner: it passes the fence's lock.
    expect(await leases.renew(['partition:9'], 'cut', 10_000)).toEqual(new Map([['partition:9', 1]]));
    await runOut('partition:7');
    await runOut('partition:8');
    // The takeover takes what is free at once and leaves the locked one to a later tick.
    expect(await leases.take(['partition:7', 'partition:8'], 'awake', 10_000)).toEqual(new Map([['partition:8', 2]]));
    await open.query('ROLLBACK');
    expect(await leases.take(['partition:7'], 'awake', 10_000)).toEqual(new Map([['partition:7', 2]]));
  });

  it('has the server end a fence left open, so the lease it locked can be taken', async () => {
    await leases.take(['partition:7'], 'cut', 10_000);
    const open = await store.db.pool.connect();
    let ended = false;
    open.on('error', () => {
      ended = true;
    });
    holding.push(open);
    await open.query('BEGIN');
    await open.query(FENCE_SQL, [['partition:7'], 'cut']);
    await runOut('partition:7');
    // Nothing more comes from the cut-off side: the server's idle-in-transaction limit ends the session and its lock.
    await vi.waitFor(
      async () => {
        expect((await leases.take(['partition:7'], 'awake', 10_000)).get('partition:7')).toBe(2);
      },
      { timeout: 20_000, interval: 200 },
    );
    await vi.waitFor(() => expect(ended).toBe(true), { timeout: 10_000 });
  }, 30_000);

  it('writes a lease with the time its row is written, not the time its statement began', async () => {
    const client = await store.db.pool.connect();
    holding.push(client);
    // A statement that began long ago (here: its transaction did, 3 s before) must not write a lease already run out.
    await client.query('BEGIN');
    await client.query('SELECT pg_sleep(3)');
    const late = new PgLeases({ query: (statement) => client.query(statement) });
    expect(await late.take(['sender:telegram'], 'a', 2_500)).toEqual(new Map([['sender:telegram', 1]]));
    // Measured from the transaction's start (now()), not from the clock when this read runs, so
    // that a slow machine cannot let the lease run out before it is read: written after the
    // sleep, it ends at least 3 + 2.5 s after that start; written at that start, 2.5 s after it.
    const { rows } = await client.query<{ afterSleep: boolean }>(
      "SELECT expires_at >= now() + interval '3 seconds' + interval '2500 milliseconds' AS \"afterSleep\" FROM leases WHERE name = 'sender:telegram'",
    );
    await client.query('COMMIT');
    expect(rows[0]?.afterSleep).toBe(true);
  });

  function coordinator(owner: string, extra: { wanted?: string[]; monotonic?: () => number } = {}): Coordinator {
    const made = new Coordinator({
      leases,
      owner,
      roles: new Set(['watcher', 'sender']),
      wanted: extra.wanted ?? [],
      logger: silentLogger,
      ...(extra.monotonic ? { monotonic: extra.monotonic } : {}),
    });
    coordinators.push(made);
    return made;
  }

  it('splits the partitions between two watchers, and one takes them all when the other stops', async () => {
    const a = coordinator('a');
    const b = coordinator('b');
    await a.start();
    expect(a.partitions()).toHaveLength(PARTITIONS);
    await b.start();
    // Each tick lets the first give back its excess and the second take it.
    while (a.partitions().length !== 128 || b.partitions().length !== 128) {
      await a.tickNow();
      await b.tickNow();
    }
    expect(new Set([...a.partitions(), ...b.partitions()]).size).toBe(PARTITIONS);
    expect(a.watchers()).toBe(2);
    await b.stop();
    while (a.partitions().length !== PARTITIONS) await a.tickNow();
    const members = await a.members();
    expect(members.map((member) => member.owner)).toEqual(['a']);
    expect(members[0]).toMatchObject({ partitions: PARTITIONS, roles: ['watcher', 'sender'] });
  });

  it('holds a named lease in one process only, and a standby takes it when the holder stops', async () => {
    const a = coordinator('a', { wanted: ['sender:telegram'] });
    const b = coordinator('b', { wanted: ['sender:telegram'] });
    await a.start();
    await b.start();
    expect(a.holds('sender:telegram')).toBe(true);
    expect(b.holds('sender:telegram')).toBe(false);
    await a.stop();
    // b's own timer may have begun a tick that read the leases before a gave its lease back; the
    // tick begun after it is the one that must take it.
    await b.tickNow();
    await b.tickNow();
    expect(b.holds('sender:telegram')).toBe(true);
  });

  it('holds nothing once its local deadline passed (a stall), before the database says so', async () => {
    let now = 0;
    const a = coordinator('a', { wanted: ['sender:discord'], monotonic: () => now });
    await a.start();
    expect(a.holds('sender:discord')).toBe(true);
    expect(a.owns('AnyToken')).toBe(true);
    now += 9_000;
    expect(a.holds('sender:discord')).toBe(false);
    expect(a.owns('AnyToken')).toBe(false);
    expect(a.fence(['AnyToken']).leases[0]?.epoch).toBeGreaterThan(0);
  });

  it('gives its leases up at the local deadline while a leasing step hangs on a server that says nothing, and says so', async () => {
    let now = 0;
    const lines: string[] = [];
    const lost: number[] = [];
    const namedLost: string[] = [];
    let cut = false;
    let hung = 0;
    // The database as a network partition leaves it: every statement from the cut on waits until the heal.
    let heal: (error: Error) => void = () => undefined;
    const hanging = new Promise<never>((_, reject) => {
      heal = reject;
    });
    const through = <T>(run: () => Promise<T>): Promise<T> => {
      if (!cut) return run();
      hung += 1;
      return hanging;
    };
    const backend = passedThrough(leases, through);
    const a = new Coordinator({
      leases: backend,
      owner: 'a',
      roles: new Set(['watcher', 'sender']),
      wanted: ['sender:telegram'],
      logger: createLogger('info', { write: (line: string) => void lines.push(line) }),
      monotonic: () => now,
      timing: { tickMs: 20 },
      onPartitions: (change) => lost.push(...change.lost),
      onLease: (name, held) => {
        if (!held) namedLost.push(name);
      },
    });
    await a.start();
    expect(a.partitions()).toHaveLength(PARTITIONS);
    cut = true;
    now += 3_000;
    // The next step hangs on its renewal; the deadline clock goes on all the same.
    await vi.waitFor(() => expect(hung).toBeGreaterThan(0), { timeout: 10_000 });
    now += 6_000;
    await vi.waitFor(() => expect(lost).toHaveLength(PARTITIONS), { timeout: 10_000 });
    expect(namedLost).toEqual(['sender:telegram']);
    expect(a.holds('sender:telegram')).toBe(false);
    expect(lines.filter((line) => line.includes('given up at their local deadline'))).toHaveLength(1);
    expect(JSON.parse(lines.find((line) => line.includes('given up at their local deadline')) ?? '{}')).toMatchObject({
      partitions: PARTITIONS,
      leases: ['sender:telegram'],
    });
    expect(hung).toBe(1);
    heal(new Error('Connection terminated unexpectedly'));
    await a.stop();
  });

  it('abandons a leasing step that never answers, makes its connections again, and leases again once the server answers', async () => {
    let now = 0;
    const lines: string[] = [];
    let cut = false;
    let hung = 0;
    let reconnects = 0;
    // A driver left waiting on a connection a partition held open: its promise never settles, not even at the heal.
    const never = new Promise<never>(() => undefined);
    const through = <T>(run: () => Promise<T>): Promise<T> => {
      if (!cut) return run();
      hung += 1;
      return never;
    };
    const backend = {
      ...passedThrough(leases, through),
      reconnect: () => {
        reconnects += 1;
      },
    };
    const gained: number[] = [];
    const lost: number[] = [];
    const a = new Coordinator({
      leases: backend,
      owner: 'a',
      roles: new Set(['watcher']),
      wanted: [],
      logger: createLogger('info', { write: (line: string) => void lines.push(line) }),
      monotonic: () => now,
      timing: { tickMs: 20 },
      onPartitions: (change) => {
        gained.push(...change.gained);
        lost.push(...change.lost);
      },
    });
    coordinators.push(a);
    await a.start();
    expect(a.partitions()).toHaveLength(PARTITIONS);
    cut = true;
    now += 3_000;
    await vi.waitFor(() => expect(hung).toBe(1), { timeout: 10_000 });
    // The server answers again, but the step's promise stays unsettled: only abandoning it frees the coordinator.
    cut = false;
    gained.length = 0;
    now += 10_000;
    await vi.waitFor(() => expect(reconnects).toBe(1), { timeout: 10_000 });
    expect(lines.filter((line) => line.includes('a leasing step never answered'))).toHaveLength(1);
    // Its leases were given up at their deadline, told once; the next tick, on new connections, takes them back.
    await vi.waitFor(() => expect(a.partitions()).toHaveLength(PARTITIONS), { timeout: 10_000 });
    expect(lost).toHaveLength(PARTITIONS);
    expect(gained).toHaveLength(PARTITIONS);
    expect(reconnects).toBe(1);
    expect(hung).toBe(1);
  });
});
