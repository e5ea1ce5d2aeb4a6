/**
 * Whether the bot can do its work now, for `GET /readyz`: the store answers a query and has room
 * to write (a full disk refuses the alerts' commits while reads go on), at least one chat platform
 * is connected (or the console runs), and the stream client's sockets are up or
 * still in their quick reconnects. Each check says in a few words of its own what is wrong, never
 * a text from the service, a chat or the database (which may carry a host or a password).
 *
 * Nothing here is remembered between asks: the answer flips back as soon as what failed is back.
 */
import type { SocketStatus, StreamStatus } from '../market/stream';
import type { ProcessView } from '../follows/status';
import type { Store } from '../store/store';
import type { NoRoom } from '../store/storeRoom';

/**
 * Losses in a row after which a socket that is reconnecting counts as down. The stream client
 * waits up to 0.5 s, 1 s, then 2 s before its first three attempts (src/market/stream/backoff.ts):
 * a dropped link or a restart of the service is back within them, a service that stays away is not.
 */
export const STREAM_DOWN_AFTER_FAILURES = 3;
/** A store that has not answered within this is as good as one that fails. */
export const STORE_CHECK_TIMEOUT_MS = 2_000;

/** What readiness needs of a running chat: its name, and whether it reaches its platform (absent: always, as the console). */
export interface ReadinessChat {
  name: string;
  connected?: () => boolean;
}

export interface ReadinessSources {
  store: { chats: Pick<Store['chats'], 'pausedCount'> } & Pick<Store, 'room'>;
  chats: () => readonly ReadinessChat[];
  /** False for a process that runs no chat (one of several, with the watcher role alone): the chats check then passes. Default true. */
  chatsExpected?: boolean;
  streams: () => StreamStatus;
  storeTimeoutMs?: number;
  /**
   * With several processes: whether this one holds its member lease (it takes part in the bot), and
   * every live process, which the answer lists so that one ask shows the whole bot.
   */
  cluster?: { joined: () => boolean; processes: () => Promise<ProcessView[]> };
}

export interface Check {
  ok: boolean;
  /** What is wrong, in the bot's own words; absent when ok. */
  reason?: string;
}

export interface ReadinessReport {
  ready: boolean;
  /** The checks that failed, by name: what `/readyz` names when it answers 503. */
  notReady: Array<'store' | 'chats' | 'streams' | 'cluster'>;
  checks: {
    store: Check;
    chats: Check & { connected: string[] };
    streams: Check & { sockets: number; open: number };
    /** Several processes only: this one's part, and every live process with its roles, partitions, shards and lease age. */
    cluster?: Check & { processes: ProcessView[] };
  };
}

export type Readiness = () => Promise<ReadinessReport>;

export function createReadiness(sources: ReadinessSources): Readiness {
  const timeoutMs = sources.storeTimeoutMs ?? STORE_CHECK_TIMEOUT_MS;
  return async () => {
    const store = await storeCheck(sources.store, timeoutMs);
    const checks: ReadinessReport['checks'] = {
      store,
      chats: sources.chatsExpected === false ? { ok: true, connected: [] } : chatsCheck(sources.chats()),
      streams: streamsCheck(sources.streams().sockets),
    };
    if (sources.cluster !== undefined) checks.cluster = await clusterCheck(sources.cluster, store.ok);
    const notReady = (['store', 'chats', 'streams', 'cluster'] as const).filter((name) => checks[name] !== undefined && !checks[name].ok);
    return { ready: notReady.length === 0, notReady, checks };
  };
}

async function storeCheck(store: ReadinessSources['store'], timeoutMs: number): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
    timer.unref();
  });
  try {
    // A query on the small table of chats: an answer is all this asks for.
    const answer = await Promise.race([store.chats.pausedCount('console'), late]);
    if (answer === 'late') return { ok: false, reason: `the store did not answer a query within ${timeoutMs / 1000} s` };
    const full = store.room?.full() ?? null;
    if (full !== null) return { ok: false, reason: noRoomText(full) };
    return { ok: true };
  } catch {
    return { ok: false, reason: 'the store did not answer a query' };
  } finally {
    clearTimeout(timer);
  }
}

/** The database's code alone (never its words, which may name a path or a host). */
export function noRoomText(full: NoRoom): string {
  const code = full.code === '' ? '' : ` (${full.code})`;
  return `the store is full: it has refused writes for lack of room${code} since ${full.since.toISOString()}`;
}

function chatsCheck(chats: readonly ReadinessChat[]): ReadinessReport['checks']['chats'] {
  const connected = chats.filter((chat) => chat.connected === undefined || chat.connected()).map((chat) => chat.name);
  if (connected.length > 0) return { ok: true, connected };
  return {
    ok: false,
    reason: chats.length === 0 ? 'no chat runs' : `no chat platform is connected (${chats.map((chat) => chat.name).join(', ')})`,
    connected,
  };
}

async function clusterCheck(
  cluster: NonNullable<ReadinessSources['cluster']>,
  storeUp: boolean,
): Promise<NonNullable<ReadinessReport['checks']['cluster']>> {
  const processes = storeUp ? await cluster.processes().catch(() => []) : [];
  if (!cluster.joined())
    return { ok: false, reason: 'this process holds no member lease: it has not joined the bot, or lost its leases', processes };
  return { ok: true, processes };
}

/** A socket that is neither served nor on its way back quickly. A refused target (`rejected`) is the target's matter, not the service's. */
function isDown(socket: SocketStatus): boolean {
  if (socket.state === 'auth-failed') return true;
  return (socket.state === 'connecting' || socket.state === 'backoff') && socket.failures >= STREAM_DOWN_AFTER_FAILURES;
}

function streamsCheck(sockets: readonly SocketStatus[]): ReadinessReport['checks']['streams'] {
  const open = sockets.filter((socket) => socket.state === 'open').length;
  const counts = { sockets: sockets.length, open };
  if (sockets.some((socket) => socket.state === 'auth-failed'))
    return { ok: false, reason: 'the market data service refuses the API key on the live streams', ...counts };
  const down = sockets.filter(isDown).length;
  if (down > 0)
    return {
      ok: false,
      reason: `${down} of ${sockets.length} stream sockets failed to reconnect ${STREAM_DOWN_AFTER_FAILURES} times in a row`,
      ...counts,
    };
  return { ok: true, ...counts };
}
