/**
 * One process's part in a bot of several (TOKENWATCH_ROLES over one PostgreSQL): its leases, taken
 * and kept through the database alone (src/store/postgres/pgLeases.ts), with no protocol of its own
 * between processes.
 *
 * Every tick (1 s) it:
 *
 * - renews what it holds every 3 s (a lease runs out 10 s after its last renewal): its member
 *   lease (`member:<process>`, carrying its roles, partitions and shards for /status), its
 *   partitions, and the named leases it holds (`sender:<platform>`, `telegram:poller`);
 * - reads every lease once, counts the live watchers, and with the watcher role takes free
 *   partitions up to its fair share or gives back its excess (partitions.ts);
 * - tries the named leases it wants and does not hold: a standby takes one as soon as its holder's
 *   runs out.
 *
 * A lease is also held only until its local deadline (its last renewal, by this process's
 * monotonic clock, plus the lease's time less a margin): a process that stalled (SIGSTOP, a long
 * pause) finds on waking that it holds nothing, before it could act on a lease another took. What
 * it might still write is fenced in the database (CommitFence): a commit under a moved lease is
 * refused.
 *
 * A process that lost touch with its leases (a step failed, or they were given up at their local
 * deadline) leaves a named lease last held by another process to that process for a lease's time
 * (`ttlMs`) once it reaches the database again: after PostgreSQL was away from every process, each
 * sender takes its own lease back, and with it the rows it had claimed and the alerts it had sent
 * but could not record (src/delivery/outboxDrain.ts), instead of another sending those again. A
 * holder that did not come back is replaced a lease's time later.
 *
 * The clock runs whether or not a step finishes: a step waiting on a server it cannot reach (a
 * network partition holds the connection open and says nothing) does not keep this process's
 * leases alive. At every tick the leases past their local deadline are given up, their partitions
 * unsubscribed, and the log says so once; each step is bounded by the leases' own limits
 * (pgLeases.ts LEASE_LIMITS), and the next starts when it ends.
 */
import { performance } from 'node:perf_hooks';
import { errorText, type Logger } from '../log';
import type { Role } from '../model/roles';
import type { ProcessView } from '../follows/status';
import type { CommitFence } from '../store/store';
import type { LeaseRow } from '../store/postgres/pgLeases';
import { PARTITIONS, partitionLease, partitionOf, partitionOfLease, rebalance } from './partitions';

export interface LeaseBackend {
  take(names: readonly string[], owner: string, ttlMs: number, info?: Record<string, unknown>): Promise<Map<string, number>>;
  renew(names: readonly string[], owner: string, ttlMs: number, info?: Record<string, unknown>): Promise<Map<string, number>>;
  release(names: readonly string[], owner: string): Promise<void>;
  list(prefix?: string): Promise<LeaseRow[]>;
  /**
   * Drops the connections the steps run on and makes new ones: after a step that never answered
   * (a driver left waiting on a connection a partition holds open), so the next step starts clean.
   */
  reconnect?(): void;
}

export interface CoordinatorTiming {
  tickMs: number;
  renewMs: number;
  ttlMs: number;
}

export const DEFAULT_TIMING: CoordinatorTiming = { tickMs: 1_000, renewMs: 3_000, ttlMs: 10_000 };
/** A lease is given up locally this long before it runs out in the database: room for a slow round trip. */
const LOCAL_MARGIN_MS = 1_500;

export interface CoordinatorOptions {
  leases: LeaseBackend;
  /** This process, unique among the bot's (host, pid and a random part). */
  owner: string;
  roles: ReadonlySet<Role>;
  /** Named leases this process holds when it can, one holder at a time (`sender:telegram`…). */
  wanted: readonly string[];
  /** What the member lease tells the others beside the roles and partitions (shards…). */
  info?: () => Record<string, unknown>;
  logger: Logger;
  timing?: Partial<CoordinatorTiming>;
  /** Partitions gained and lost in one tick. */
  onPartitions?: (change: { gained: number[]; lost: number[] }) => void;
  /** A named lease taken (true) or lost (false). */
  onLease?: (name: string, held: boolean) => void;
  monotonic?: () => number;
}

/** One leasing step under way: abandoned once it has run past the lease's life without settling. */
interface Step {
  startedAt: number;
  abandoned: boolean;
  done: Promise<void>;
}

/** Thrown inside an abandoned step at its next await, so that it changes nothing any more. */
class StepAbandoned extends Error {}

interface Held {
  epoch: number;
  /** Local monotonic ms after which this process no longer counts on it. */
  until: number;
}

/** A member's stream figures from its lease's info, as it wrote them (anything else: none). */
function streamsOf(value: unknown): ProcessView['streams'] {
  if (value === null || typeof value !== 'object') return null;
  const figures = value as Record<string, unknown>;
  const read = (key: string): number => (typeof figures[key] === 'number' ? figures[key] : 0);
  return { sockets: read('sockets'), open: read('open'), subscriptions: read('subscriptions') };
}

/** What one tick (or the deadline clock) changed: partitions gained and lost, named leases taken and lost. */
class Changes {
  readonly gained: number[] = [];
  readonly lost: number[] = [];
  readonly named: Array<[string, boolean]> = [];
  /** How many were given up at their local deadline rather than by the database's word. */
  expired = 0;

  dropped(name: string, memberName: string): void {
    const partition = partitionOfLease(name);
    if (partition !== null) this.lost.push(partition);
    else if (name !== memberName) this.named.push([name, false]);
  }

  kept(name: string, memberName: string): void {
    const partition = partitionOfLease(name);
    if (partition !== null) this.gained.push(partition);
    else if (name !== memberName) this.named.push([name, true]);
  }
}

export function memberLease(owner: string): string {
  return `member:${owner}`;
}

export class Coordinator {
  private readonly timing: CoordinatorTiming;
  private readonly held = new Map<string, Held>();
  private readonly mono: () => number;
  private readonly memberName: string;
  private lastRenew = -Infinity;
  private timer: NodeJS.Timeout | null = null;
  /** The step under way, if any. */
  private step: Step | null = null;
  private stopped = false;
  private failing = false;
  /** Whether this process lost touch with its leases since its last step that reached them all. */
  private outOfTouch = false;
  /** Until when (monotonic ms) named leases another process held last are left to it. */
  private leaveOthersUntil = -Infinity;
  private liveWatchers = 0;

  constructor(private readonly options: CoordinatorOptions) {
    this.timing = { ...DEFAULT_TIMING, ...options.timing };
    this.mono = options.monotonic ?? (() => performance.now());
    this.memberName = memberLease(options.owner);
  }

  get owner(): string {
    return this.options.owner;
  }

  /** The first tick: the member lease and a first share of partitions taken before the process goes on. */
  async start(): Promise<void> {
    await this.tickNow();
    this.schedule();
  }

  /** Runs a tick now (or waits for the one under way): after a commit was refused, or in tests. */
  tickNow(): Promise<void> {
    if (this.step !== null) return this.step.done;
    const step: Step = { startedAt: this.mono(), abandoned: false, done: Promise.resolve() };
    this.step = step;
    step.done = this.tick(step).finally(() => {
      if (this.step === step) this.step = null;
    });
    return step.done;
  }

  /** Whether this process holds the partition of `address` now. */
  owns(address: string): boolean {
    return this.holds(partitionLease(partitionOf(address)));
  }

  /** Whether this process holds the named lease now (its local deadline included). */
  holds(name: string): boolean {
    const lease = this.held.get(name);
    return lease !== undefined && lease.until > this.mono();
  }

  /** The partitions held now, in order. */
  partitions(): number[] {
    const now = this.mono();
    const found: number[] = [];
    for (const [name, lease] of this.held) {
      const partition = partitionOfLease(name);
      if (partition !== null && lease.until > now) found.push(partition);
    }
    return found.sort((a, b) => a - b);
  }

  /** The fence of a commit that writes these addresses' state: their partitions at the epochs held. */
  fence(addresses: Iterable<string>): CommitFence {
    const names = new Set<string>();
    for (const address of addresses) names.add(partitionLease(partitionOf(address)));
    return this.fenceOf(names);
  }

  /** The fence of a write made under these named leases, at the epochs held. */
  fenceOf(names: Iterable<string>): CommitFence {
    // One not held is fenced at epoch -1, which never matches: such a write is refused whole.
    return { owner: this.options.owner, leases: [...names].map((name) => ({ name, epoch: this.held.get(name)?.epoch ?? -1 })) };
  }

  /** Live watchers seen at the last tick. */
  watchers(): number {
    return this.liveWatchers;
  }

  /** Every live member of the bot, from the leases table: what /status and /readyz show. */
  async members(): Promise<ProcessView[]> {
    const rows = (await this.options.leases.list()).filter((row) => row.live);
    const partitions = new Map<string, number>();
    const named = new Map<string, string[]>();
    for (const row of rows) {
      if (partitionOfLease(row.name) !== null) partitions.set(row.owner, (partitions.get(row.owner) ?? 0) + 1);
      else if (!row.name.startsWith('member:')) named.set(row.owner, [...(named.get(row.owner) ?? []), row.name]);
    }
    return rows
      .filter((row) => row.name.startsWith('member:'))
      .map((row) => ({
        owner: row.owner,
        roles: Array.isArray(row.info.roles) ? row.info.roles.filter((role): role is string => typeof role === 'string') : [],
        partitions: partitions.get(row.owner) ?? 0,
        shards: Array.isArray(row.info.shards) ? row.info.shards.filter((shard): shard is number => typeof shard === 'number') : [],
        leases: named.get(row.owner) ?? [],
        renewedAgoMs: Math.max(0, this.timing.ttlMs - row.leftMs),
        streams: streamsOf(row.info.streams),
      }));
  }

  /** Stops ticking and gives back every lease, so that the others take over at once rather than after the expiry. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.step?.done;
    const names = [...this.held.keys()];
    this.dropAll();
    await this.options.leases.release(names, this.options.owner).catch((error: unknown) => {
      this.options.logger.warn({ reason: errorText(error) }, 'leases not given back at stop; they run out by themselves');
    });
  }

  /** One timer for the whole life: a tick when none is under way, else only the deadlines. */
  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.step === null) void this.tickNow();
      else {
        this.report(this.expire(new Changes()));
        this.abandonHungStep();
      }
      this.schedule();
    }, this.timing.tickMs);
    this.timer.unref();
  }

  /**
   * A step still under way a whole lease's life after it began waits on an answer that is not
   * coming (every statement it makes has its own time limit, so only a driver left waiting on a
   * connection can hold it this long): it is abandoned, changing nothing from then on, and the
   * lease connections are made again, so that the next tick can take leases once PostgreSQL is
   * back. Without this, one hung step would keep the process from ever leasing again.
   */
  private abandonHungStep(): void {
    const step = this.step;
    if (step === null || this.mono() - step.startedAt < this.timing.ttlMs) return;
    step.abandoned = true;
    this.step = null;
    this.options.logger.warn(
      { waitedMs: Math.round(this.mono() - step.startedAt) },
      'a leasing step never answered; it is abandoned and the lease connections are made again',
    );
    this.options.leases.reconnect?.();
  }

  /** Gives up every lease past its local deadline (into `changes`). */
  private expire(changes: Changes): Changes {
    const now = this.mono();
    for (const [name, lease] of [...this.held]) {
      if (lease.until > now || !this.held.delete(name)) continue;
      changes.dropped(name, this.memberName);
      changes.expired += 1;
      this.outOfTouch = true;
    }
    return changes;
  }

  /** The named leases this process wants and may take now: not held, not another's live one, nor, just back, another's last. */
  private wantedFree(byName: ReadonlyMap<string, LeaseRow>): string[] {
    const { owner, wanted } = this.options;
    const leavingOthers = this.mono() < this.leaveOthersUntil;
    return wanted.filter((name) => {
      const row = byName.get(name);
      if (this.held.has(name)) return false;
      if (row === undefined || row.owner === owner) return true;
      return !row.live && !leavingOthers;
    });
  }

  /** Tells the log and the parts what a tick (or the deadline clock) changed. */
  private report(changes: Changes): void {
    if (changes.expired > 0) {
      this.options.logger.warn(
        {
          partitions: changes.lost.length,
          leases: changes.named.filter(([, held]) => !held).map(([name]) => name),
          held: this.partitions().length,
        },
        'leases given up at their local deadline: not renewed in time (PostgreSQL out of reach, or this process stalled); their ' +
          'partitions and subscriptions are let go until taken again',
      );
    }
    const { gained, lost, named } = changes;
    if (gained.length > 0 || lost.length > 0) {
      this.options.logger.info(
        { gained: gained.length, lost: lost.length, held: this.partitions().length, of: PARTITIONS, watchers: this.liveWatchers },
        'watcher partitions changed',
      );
      this.options.onPartitions?.({ gained: gained.sort((a, b) => a - b), lost: lost.sort((a, b) => a - b) });
    }
    for (const [name, held] of named) {
      this.options.logger.info({ lease: name, held }, held ? 'lease taken' : 'lease lost');
      this.options.onLease?.(name, held);
    }
  }

  private async tick(step: Step): Promise<void> {
    if (this.stopped) return;
    const changes = new Changes();
    // Every answer is checked on arrival: an abandoned step stops at its next await.
    const answer = async <T>(pending: Promise<T>): Promise<T> => {
      const value = await pending;
      if (step.abandoned) throw new StepAbandoned();
      return value;
    };
    const drop = (name: string): void => {
      if (this.held.delete(name)) changes.dropped(name, this.memberName);
    };
    const keep = (name: string, epoch: number, until: number): void => {
      const before = this.held.get(name);
      this.held.set(name, { epoch, until });
      if (before === undefined || before.epoch !== epoch) changes.kept(name, this.memberName);
    };
    try {
      // Past its local deadline a lease is not counted on, whatever the database says later; said
      // at once, so that an abandoned step leaves nothing of it untold.
      this.report(this.expire(new Changes()));
      const started = this.mono();
      const until = started + this.timing.ttlMs - LOCAL_MARGIN_MS;
      const { leases, owner, roles } = this.options;

      if (started - this.lastRenew >= this.timing.renewMs || !this.held.has(this.memberName)) {
        const info = { ...this.options.info?.(), roles: [...roles], partitions: this.partitions().length };
        const member = await answer(leases.take([this.memberName], owner, this.timing.ttlMs, info));
        const memberEpoch = member.get(this.memberName);
        if (memberEpoch === undefined) throw new Error('member lease held by another process of the same name');
        keep(this.memberName, memberEpoch, until);
        const others = [...this.held.keys()].filter((name) => name !== this.memberName);
        const renewed = await answer(leases.renew(others, owner, this.timing.ttlMs));
        for (const name of others) {
          const epoch = renewed.get(name);
          if (epoch === undefined || epoch !== this.held.get(name)?.epoch) drop(name);
          else keep(name, epoch, until);
        }
        this.lastRenew = started;
      }

      const rows = await answer(leases.list());
      const liveRows = rows.filter((row) => row.live);
      this.liveWatchers = liveRows.filter(
        (row) => row.name.startsWith('member:') && Array.isArray(row.info.roles) && row.info.roles.includes('watcher'),
      ).length;
      // A lease this process counts as its own that the table gives to another (or to no one) is gone.
      const byName = new Map(rows.map((row) => [row.name, row]));
      for (const name of [...this.held.keys()]) {
        const row = byName.get(name);
        if (row === undefined || row.owner !== owner || !row.live) drop(name);
      }

      if (roles.has('watcher')) {
        const mine = new Set(this.partitions());
        const others = new Set<number>();
        for (const row of liveRows) {
          const partition = partitionOfLease(row.name);
          if (partition !== null && row.owner !== owner) others.add(partition);
        }
        const plan = rebalance(owner, mine, others, Math.max(1, this.liveWatchers));
        if (plan.release.length > 0) {
          const names = plan.release.map(partitionLease);
          for (const name of names) drop(name);
          await answer(leases.release(names, owner));
        }
        if (plan.take.length > 0) {
          const taken = await answer(leases.take(plan.take.map(partitionLease), owner, this.timing.ttlMs));
          for (const [name, epoch] of taken) keep(name, epoch, until);
        }
      }

      if (this.outOfTouch) {
        // Back in touch: another process may be coming back too, with work under the leases it held.
        this.outOfTouch = false;
        this.leaveOthersUntil = started + this.timing.ttlMs;
      }
      const wantedFree = this.wantedFree(byName);
      if (wantedFree.length > 0) {
        const taken = await answer(leases.take(wantedFree, owner, this.timing.ttlMs));
        for (const [name, epoch] of taken) keep(name, epoch, until);
      }
      if (this.failing) this.options.logger.info('leases reachable again');
      this.failing = false;
    } catch (error) {
      if (error instanceof StepAbandoned) return;
      // The database away: what is held stays held until its local deadline, then is let go.
      if (!this.failing)
        this.options.logger.warn({ reason: errorText(error) }, 'could not renew or take leases; what is held is kept until it runs out');
      this.failing = true;
      this.outOfTouch = true;
    } finally {
      if (!step.abandoned) this.report(changes);
    }
  }

  private dropAll(): void {
    const lost = this.partitions();
    const named = [...this.held.keys()].filter((name) => name !== this.memberName && partitionOfLease(name) === null);
    this.held.clear();
    if (lost.length > 0) this.options.onPartitions?.({ gained: [], lost });
    for (const name of named) this.options.onLease?.(name, false);
  }
}
