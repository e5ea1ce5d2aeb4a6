/**
 * This process as one member of a bot of several (TOKENWATCH_ROLES over one PostgreSQL): its
 * coordinator of leases (coordinator.ts), the leases it wants by its roles (those the chat
 * platforms need, as their registry src/chats/platforms.ts gives them: `sender:<platform>`,
 * `telegram:poller`), LISTEN/NOTIFY between the processes (src/store/postgres/pgNotify.ts), and the
 * watcher's scope. What a lease change or a note means to this process's parts is parts.ts's; a
 * sender that lost its lease stops at once because delivery asks `holds()` before each message.
 *
 * Notes between processes: `follows` (a command changed the follows of an address, or a chat was
 * paused: every watcher re-reads them), `outbox` (alerts were written: the senders wake) and
 * `digests` (a daily watchlist was set: the senders, which write them, schedule again). They are a
 * hurry-up only; every FOLLOWS_POLL_MS a watcher still re-reads every follow and a sender the
 * watchlists, and delivery polls the outbox, so a note lost costs a delay, never an alert.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { errorText, type Logger } from '../log';
import type { Platform } from '../model/chat';
import type { Role } from '../model/roles';
import type { PostgresStore } from '../store/postgres/postgresStore';
import { PgLeases } from '../store/postgres/pgLeases';
import { PgNotifier, listen, type PgListener } from '../store/postgres/pgNotify';
import type { WatchScope } from '../watch/scope';
import type { CommitFence } from '../store/leaseLost';
import type { ProcessView } from '../follows/status';
import { Coordinator, memberLease, type CoordinatorTiming } from './coordinator';
import { partitionOf } from './partitions';

/**
 * How often a watcher re-reads every follow, whatever notes it heard. Seldom: the notes carry each
 * change and a reconnected listener re-reads at once, so this only mends a note lost some other
 * way; and a re-read asks the store for the followers of every target (10,000 tokens: 10,000 reads).
 */
const FOLLOWS_POLL_MS = 5 * 60_000;
/** The calls' peak job (src/jobs/callPeaks.ts) runs in one process: a sender's, as it writes alerts. */
export const CALL_PEAKS_LEASE = 'calls:peaks';

export function senderLease(platform: Platform): string {
  return `sender:${platform}`;
}

const Note = z.discriminatedUnion('topic', [
  z.object({ from: z.string(), topic: z.literal('follows'), address: z.string().max(100).nullable() }),
  z.object({ from: z.string(), topic: z.literal('outbox') }),
  z.object({ from: z.string(), topic: z.literal('digests') }),
]);
type Note = z.infer<typeof Note>;

/** What the member acts on: the parts of this process, each optional where its role is absent. */
export interface MemberParts {
  /** Closes at once, reading nothing, the subscriptions of targets in partitions no longer held. */
  letGo(): void;
  /** Forget memory of the partitions' targets, then re-read the targets (subscribe, unsubscribe). */
  partitionsChanged(change: { gained: number[]; lost: number[] }, inPartitions: (address: string) => boolean): Promise<void>;
  /** Follows of `address` (null: all) changed in another process. */
  followsChanged(address: string | null): Promise<void>;
  /** Alerts were written by another process, or this one took a sender lease. */
  outboxReady(): void;
  /** A chat's daily watchlist was set or turned off in another process. */
  digestsChanged(): Promise<void>;
  /** A named lease taken or lost. */
  leaseChanged(name: string, held: boolean): Promise<void>;
}

export interface ClusterMemberOptions {
  store: PostgresStore;
  databaseUrl: string;
  roles: ReadonlySet<Role>;
  /**
   * The named leases the chat platforms need in this process, as their registry gives them
   * (`platformLeases` of src/chats/platforms.ts): each configured platform's sender lease with the
   * sender role, and what a platform needs beside it (Telegram's poller).
   */
  platformLeases: readonly string[];
  /** What the member lease tells the others beside roles and partitions (the Discord shards run here). */
  info: () => Record<string, unknown>;
  logger: Logger;
  timing?: Partial<CoordinatorTiming>;
}

export interface ClusterMember {
  readonly owner: string;
  readonly coordinator: Coordinator;
  /** The watcher's scope: the partitions held. */
  readonly scope: WatchScope;
  /** Wires the parts and takes the first leases. */
  start(parts: MemberParts): Promise<void>;
  /** Tells the other processes. Never throws: a note is a hurry-up only. */
  followsChanged(address: string | null): void;
  outboxWritten(): void;
  digestsChanged(): void;
  holds(name: string): boolean;
  /** The fence of a write made under these named leases (a job's), at the epochs this process holds them. */
  fenceOf(names: readonly string[]): CommitFence;
  members(): Promise<ProcessView[]>;
  /** Whether this process holds its member lease: it takes part in the bot now. */
  joined(): boolean;
  stop(): Promise<void>;
}

/** The named leases this process asks for by its roles: the chat platforms' (a sender's per platform, the poller's) and the call peaks'. */
function wantedLeases(options: Pick<ClusterMemberOptions, 'roles' | 'platformLeases'>): string[] {
  return [...options.platformLeases, ...(options.roles.has('sender') ? [CALL_PEAKS_LEASE] : [])];
}

/** Acts on another process's note; one that does not parse, this process's own, or one before the parts are wired is let pass. */
function actOnNote(payload: string, owner: string, parts: MemberParts | null, log: Logger): void {
  let note: Note;
  try {
    note = Note.parse(JSON.parse(payload));
  } catch {
    return;
  }
  if (note.from === owner || parts === null) return;
  if (note.topic === 'outbox') parts.outboxReady();
  else if (note.topic === 'digests')
    void parts
      .digestsChanged()
      .catch((error: unknown) => log.warn({ reason: errorText(error) }, 'rescheduling the daily watchlists after a note failed'));
  else
    void parts.followsChanged(note.address).catch((error: unknown) => log.warn({ reason: errorText(error) }, 'resync after a note failed'));
}

/** The safety net under the notes: follows (a watcher's) and watchlist schedules (a sender's) read again every FOLLOWS_POLL_MS. */
function pollParts(roles: ReadonlySet<Role>, parts: MemberParts): NodeJS.Timeout {
  const poll = setInterval(() => {
    if (roles.has('watcher')) void parts.followsChanged(null).catch(() => undefined);
    if (roles.has('sender')) void parts.digestsChanged().catch(() => undefined);
  }, FOLLOWS_POLL_MS);
  poll.unref();
  return poll;
}

export function createClusterMember(options: ClusterMemberOptions): ClusterMember {
  const { store, logger } = options;
  const owner = `${hostname().slice(0, 40)}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const log = logger.child({ component: 'cluster' });
  // A pool of their own with short limits: a leasing step never queues behind the watcher's commits, nor hangs on a server out of reach.
  const leases = PgLeases.connect(options.databaseUrl, log);
  const notifier = new PgNotifier(store.db);
  let parts: MemberParts | null = null;
  let listener: PgListener | null = null;
  let poll: NodeJS.Timeout | null = null;
  // Partition changes are applied one after another, in the order they came.
  let applying: Promise<void> = Promise.resolve();

  const wanted = wantedLeases(options);
  const coordinator = new Coordinator({
    leases,
    owner,
    roles: options.roles,
    wanted,
    info: options.info,
    logger: log,
    ...(options.timing === undefined ? {} : { timing: options.timing }),
    onPartitions: (change) => {
      // Before the change waits its turn: what is lost is let go now, whatever a change before it waits on.
      if (change.lost.length > 0) parts?.letGo();
      const touched = new Set([...change.gained, ...change.lost]);
      applying = applying
        .then(() => parts?.partitionsChanged(change, (address) => touched.has(partitionOf(address))))
        .catch((error: unknown) =>
          log.error({ reason: errorText(error) }, 'applying a partition change failed; the next follows poll retries'),
        );
    },
    onLease: (name, held) => {
      void parts
        ?.leaseChanged(name, held)
        .catch((error: unknown) => log.error({ lease: name, reason: errorText(error) }, 'acting on a lease change failed'));
    },
  });

  const send = (note: Note): void => {
    notifier
      .notify(JSON.stringify(note))
      .catch((error: unknown) => log.debug({ reason: errorText(error) }, 'note not sent; the others poll'));
  };

  return {
    owner,
    coordinator,
    scope: {
      owns: (address) => coordinator.owns(address),
      fence: (addresses) => coordinator.fence(addresses),
      fenced: () => void coordinator.tickNow(),
    },
    async start(given) {
      parts = given;
      listener = listen(
        options.databaseUrl,
        log,
        (payload) => actOnNote(payload, owner, parts, log),
        () => {
          // Notes may have been missed while the listener was away.
          void given.followsChanged(null).catch(() => undefined);
          void given.digestsChanged().catch(() => undefined);
          given.outboxReady();
        },
      );
      await listener.ready;
      await coordinator.start();
      poll = pollParts(options.roles, given);
      log.info(
        {
          owner,
          roles: [...options.roles],
          partitions: coordinator.partitions().length,
          leases: wanted.filter((name) => coordinator.holds(name)),
        },
        'joined the bot as one of its processes',
      );
    },
    followsChanged: (address) => send({ from: owner, topic: 'follows', address }),
    outboxWritten: () => send({ from: owner, topic: 'outbox' }),
    digestsChanged: () => send({ from: owner, topic: 'digests' }),
    holds: (name) => coordinator.holds(name),
    fenceOf: (names) => coordinator.fenceOf(names),
    members: () => coordinator.members(),
    joined: () => coordinator.holds(memberLease(owner)),
    async stop() {
      if (poll !== null) clearInterval(poll);
      await coordinator.stop();
      await leases.close().catch(() => undefined);
      await applying;
      await listener?.close();
    },
  };
}
