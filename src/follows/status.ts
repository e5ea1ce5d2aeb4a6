/**
 * What `/status` reports: are the live streams up (and how they share sockets, and whether the
 * open-files limit holds some back), how much is followed, is delivery keeping up (the outbox's
 * length and the age of its oldest undelivered alert), whether the store has room to write (a full
 * disk), and the state of each Discord shard.
 */
import type { ChatRef } from '../model/chat';
import type { PackingStatus, StreamStatus } from '../market/stream/index';
import type { OpenFilesLimit } from '../openFiles';
import type { Store } from '../store/store';
import type { NoRoom } from '../store/storeRoom';
import type { Follow } from '../model/follow';
import { tokenSymbols, type TokenSymbols } from './tokenSymbols';

/** One Discord gateway shard as /status shows it. */
export interface ShardState {
  id: number;
  /** "ready", "connecting", "resuming", "closed"… */
  state: string;
  /** Servers this shard carries. */
  guilds: number;
  /** Why Discord closed it for good (4011, 4014), in words; null otherwise. */
  closedFor: string | null;
}

/** One process of a bot of several (TOKENWATCH_ROLES), as its member lease tells it. */
export interface ProcessView {
  /** host:pid:random, unique among the bot's processes. */
  owner: string;
  roles: string[];
  /** Watcher partitions held (of 256). */
  partitions: number;
  /** Discord shards its gateway runs. */
  shards: number[];
  /** Named leases held: `sender:telegram`, `telegram:poller`… */
  leases: string[];
  /** Milliseconds since it last renewed its leases. */
  renewedAgoMs: number;
  /** Its stream sockets and subscriptions when it last renewed (watchers only). */
  streams: { sockets: number; open: number; subscriptions: number } | null;
}

/** The vendor protocol's REST polls as /status shows them (src/jobs/restPolls.ts). */
export interface PollsView {
  /** Whether they run: the service speaks the vendor's protocol. */
  active: boolean;
  /** Each poll's name, pace in ms and whether it slowed down for the service. */
  polls: Array<{ name: string; pauseMs: number; intervalMs: number; slowed: boolean }>;
}

export interface StatusReport {
  streams: {
    /** The protocol the streams are read in, and how it was chosen ("vendor (as the service greeted)"). */
    protocol: string | null;
    /** Subscriptions the service has neither confirmed nor served for a while: their targets are covered by the polls. */
    unconfirmed: number;
    sockets: number;
    open: number;
    subscriptions: number;
    reconnects: number;
    packing: PackingStatus;
    /**
     * Set when the stream sockets are at the open-files limit: the sockets it allows, the limit,
     * and the subscriptions waiting for a socket (new follows that need one are refused). Null otherwise.
     */
    atLimit: { maxSockets: number; openFiles: number | null; waiting: number } | null;
  };
  follows: { follows: number; chats: number; tokens: number; wallets: number };
  /** The REST polls; null where none are made (no watcher here). */
  polls: PollsView | null;
  outbox: { pending: number; oldest: Date | null };
  /** Set while the store refuses writes for lack of room (a full disk): since when, and the database's code. */
  storeFull?: NoRoom | null;
  /** Why this chat is paused, or null. */
  paused: string | null;
  /**
   * What this chat follows: its tokens (their /track follows, oldest first) with their symbols as
   * last seen, and its wallets and targets counted. Absent where the follows could not be listed.
   */
  chat?: { tokens: string[]; symbols: TokenSymbols; wallets: number; targets: number };
  /** Epoch ms the bot started. */
  startedAt: number;
  /** Discord's shards in this process; null without Discord. */
  shards: ShardState[] | null;
  /** Every live process of the bot, with several (TOKENWATCH_ROLES); null when one process runs it all. */
  processes: ProcessView[] | null;
}

export interface StatusSource {
  report(chat: ChatRef): Promise<StatusReport>;
}

export interface StatusDeps {
  /** The state, when given, names the chat's tokens by symbol. */
  store: Pick<Store, 'follows' | 'outbox' | 'chats'> & Partial<Pick<Store, 'state' | 'room'>>;
  streams: () => StreamStatus;
  /** The streams' protocol in words (ProtocolChoice.describe); absent: not shown. */
  protocol?: () => string;
  /** The REST polls; absent or null: none. */
  polls?: () => PollsView | null;
  startedAt: number;
  /** The open-files limit in force (src/openFiles.ts), when read. */
  openFiles?: OpenFilesLimit | null;
  /** Discord's shards, once the chat runs; null or absent without Discord. */
  shards?: () => ShardState[] | null;
  /** The live processes of a bot of several; absent for one process. */
  processes?: () => Promise<ProcessView[]>;
}

/** Follows of one chat read for its line: far above any per-chat limit a bot would set. */
const CHAT_FOLLOWS_READ = 1_000;

/** The chat's tokens (its /track follows), wallets and targets, the tokens named by their last-seen symbols. */
async function chatFollows(deps: StatusDeps, chat: ChatRef): Promise<StatusReport['chat']> {
  let follows: Follow[];
  try {
    follows = (await deps.store.follows.list(chat, { offset: 0, limit: CHAT_FOLLOWS_READ })).follows;
  } catch {
    // The rest of the report still stands without this chat's line.
    return undefined;
  }
  const isTarget = (follow: Follow): boolean => follow.options.target !== null && follow.options.target !== undefined;
  const tokens = follows.filter((follow) => follow.kind === 'token' && !isTarget(follow)).map((follow) => follow.address);
  return {
    tokens,
    symbols: await tokenSymbols(deps.store.state, tokens),
    wallets: follows.filter((follow) => follow.kind === 'wallet').length,
    targets: follows.filter(isTarget).length,
  };
}

export function createStatusSource(deps: StatusDeps): StatusSource {
  return {
    async report(chat) {
      const streams = deps.streams();
      const { maxSockets, waitingForRoom, packing } = streams;
      // Full: some wait for a socket, or every socket allowed is open and carries all it may.
      const full =
        maxSockets !== null &&
        (waitingForRoom > 0 ||
          (streams.sockets.length >= maxSockets && streams.sockets.every((socket) => socket.subscriptions >= packing.perSocket)));
      const [totals, targets, pending, paused, processes, chatLine] = await Promise.all([
        deps.store.follows.totals(),
        deps.store.follows.targets(),
        deps.store.outbox.pending(),
        deps.store.chats.pausedReason(chat),
        deps.processes?.() ?? null,
        chatFollows(deps, chat),
      ]);
      return {
        streams: {
          protocol: deps.protocol?.() ?? null,
          unconfirmed: streams.unconfirmed,
          sockets: streams.sockets.length,
          open: streams.sockets.filter((socket) => socket.state === 'open').length,
          subscriptions: streams.sockets.reduce((sum, socket) => sum + socket.subscriptions, 0),
          reconnects: streams.counters.reconnects,
          packing,
          atLimit: full && maxSockets !== null ? { maxSockets, openFiles: deps.openFiles?.soft ?? null, waiting: waitingForRoom } : null,
        },
        follows: { ...totals, tokens: targets.tokens.length, wallets: targets.wallets.length },
        polls: deps.polls?.() ?? null,
        outbox: { pending: pending.count, oldest: pending.oldest },
        storeFull: deps.store.room?.full() ?? null,
        paused,
        ...(chatLine === undefined ? {} : { chat: chatLine }),
        startedAt: deps.startedAt,
        shards: deps.shards?.() ?? null,
        processes,
      };
    },
  };
}
