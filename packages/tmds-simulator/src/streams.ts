/**
 * The four live streams of spec §4.7 (/ws/token-feed, /ws/chart-live, /ws/holders-live,
 * /ws/trades-live) on the simulator's own HTTP server. A client subscribes with JSON text messages
 * carrying the API key (spec §5.3); the server acknowledges, sends the current state as snapshot
 * messages, then pushes every change the market announces. The protocol where the spec is silent
 * is recorded in docs/streams.md and docs/simulator.md.
 *
 * Fan-out is indexed by token (and by wallet for trades-live), changes of one synchronous market
 * mutation are pushed together once it returns, and each pushed message is serialised once and
 * the same bytes written to every subscriber, so a thousand subscriptions cost little more than one.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { LRUCache } from 'lru-cache';
import type { RawData } from 'ws';
import { z } from 'zod';
import type { WsStream } from './endpoints';
import { keyMatches } from './auth';
import type { Market, MarketChange } from './market';
import { MAX_WALLETS, isWireAddress } from './params';
import { PushBatch } from './pushBatch';
import { SocketKeeper, type KeptSocket } from './socketKeeper';
import type { WireTrade } from './wireTypes';

export type { WsStream };

/** Close codes (decision: the spec does not show how a refused subscription ends). */
export const CLOSE_BAD_REQUEST = 4000;
export const STREAM_CLOSE_UNAUTHORIZED = 4001;
export const STREAM_CLOSE_UNKNOWN_TOKEN = 4004;
export const UNAUTHORIZED_REASON = 'Unauthorized: invalid API key';

export const DEFAULT_INTERVAL_SECS = 60;
/** A year and a day: longer candles are no use for live data and only make the aggregation scan more. */
export const MAX_INTERVAL_SECS = 366 * 86_400;
/** holders-live sends this many of the largest current holders as its snapshot. */
export const SNAPSHOT_HOLDERS = 20;
/** trades-live sends this many of the latest trades as its snapshot. */
export const SNAPSHOT_TRADES = 20;
/** Wallets whose latest trades are kept up to date for wallet snapshots (each at most SNAPSHOT_TRADES trades). */
export const WALLETS_TRACKED = 2_000;

export interface StreamOptions {
  /** Ping interval; a socket that has not answered the previous ping is terminated. Default 30 s. */
  heartbeatMs?: number;
  /** A socket whose unsent data grows past this is terminated instead of buffered. Default 4 MiB. */
  maxBufferedBytes?: number;
  /** Largest frame accepted from a client (ws closes with 1009 above it). Default 64 KiB. */
  maxPayloadBytes?: number;
  /** Subscriptions one socket may hold; one more is refused (error, close 4000). Default 1,000; 1 is a strict service. */
  maxSubscriptionsPerSocket?: number;
  /** Bytes of serialised snapshots kept for reuse; beyond it the least recently used go first. Default 16 MiB. */
  snapshotCacheBytes?: number;
}

export const DEFAULT_STREAM_OPTIONS: Required<StreamOptions> = {
  heartbeatMs: 30_000,
  maxBufferedBytes: 4 * 1024 * 1024,
  maxPayloadBytes: 64 * 1024,
  maxSubscriptionsPerSocket: 1_000,
  snapshotCacheBytes: 16 * 1024 * 1024,
};

/** The options with the defaults filled in; anything but a whole number ≥ 1 is refused. */
export function resolveStreamOptions(options: StreamOptions): Required<StreamOptions> {
  const resolved = { ...DEFAULT_STREAM_OPTIONS };
  for (const name of Object.keys(DEFAULT_STREAM_OPTIONS) as Array<keyof StreamOptions>) {
    const value = options[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`streams.${name} must be a whole number ≥ 1 (got ${String(value)})`);
    resolved[name] = value;
  }
  return resolved;
}

/** A token subscription; `intervalSecs` is the candle interval on chart-live and 0 elsewhere. */
interface TokenTarget {
  kind: 'token';
  tokenAddress: string;
  intervalSecs: number;
}

interface WalletTarget {
  kind: 'wallets';
  wallets: string[];
}

type Target = TokenTarget | WalletTarget;

interface Peer extends KeptSocket {
  readonly stream: WsStream;
  /** By subscription key, so that a repeated subscription is not added twice. */
  readonly subs: Map<string, Target>;
}

interface CachedSnapshot {
  /** The token's change count, or for wallets the revisions of each wallet's latest trades: the state the frames show. */
  version: string;
  /** Tokens and holders carry syncedAt in whole seconds, so their snapshots live at most one second; -1: timeless. */
  second: number;
  frames: Buffer[];
}

/** One wallet's latest trades over every token, newest first, and a number that changes whenever they do. */
interface WalletLatest {
  trades: WireTrade[];
  revision: number;
}

const MessageSchema = z.object({
  action: z.enum(['subscribe', 'unsubscribe'], { error: 'action must be "subscribe" or "unsubscribe"' }).optional(),
  tokenAddress: z.string({ error: 'tokenAddress must be a string' }).optional(),
  wallets: z
    .union([z.array(z.string()), z.string()], { error: 'wallets must be a list of wallet addresses or a comma-separated string' })
    .optional(),
  intervalSecs: z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^\d{1,9}$/)
          .transform(Number),
      ],
      {
        error: `intervalSecs must be a whole number of seconds from 1 to ${MAX_INTERVAL_SECS}`,
      },
    )
    .optional(),
});

type Message = z.infer<typeof MessageSchema>;

/** Changes announced by the market and not yet pushed. */
interface PendingChanges {
  trades: Array<{ tokenAddress: string; wallet: string; trade: WireTrade }>;
  /** Tokens whose current candle changed. */
  candles: Set<string>;
  /** Token → wallets whose holder record changed. */
  holders: Map<string, Set<string>>;
  /** Tokens whose Token may have changed. */
  tokens: Set<string>;
}

function emptyPending(): PendingChanges {
  return { trades: [], candles: new Set(), holders: new Map(), tokens: new Set() };
}

class BadRequest extends Error {}

const ADDRESS_RULE = 'base58, 32–44 characters, or 0x + 40 hex digits';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

function frameOf(message: unknown): Buffer {
  return Buffer.from(JSON.stringify(message));
}

function tradeSnapshotFrame(trade: WireTrade): Buffer {
  return frameOf({
    type: 'trade',
    tokenAddress: trade.makerData.tokenAddress,
    wallet: trade.makerData.address,
    snapshot: true,
    data: trade,
  });
}

function targetKey(target: Target): string {
  return target.kind === 'token' ? `t|${target.tokenAddress}|${target.intervalSecs}` : `w|${[...target.wallets].sort().join(',')}`;
}

function walletList(raw: string[] | string): string[] {
  const items = typeof raw === 'string' ? raw.split(',') : raw;
  return [...new Set(items.map((item) => item.trim()).filter((item) => item.length > 0))];
}

/** Newest first, with a total order so that a snapshot is the same whatever order the tokens were read in. */
function newestFirst(a: WireTrade, b: WireTrade): number {
  return (
    b.timestamp - a.timestamp ||
    (a.makerData.tokenAddress < b.makerData.tokenAddress ? -1 : a.makerData.tokenAddress > b.makerData.tokenAddress ? 1 : 0) ||
    b.transactionIndex - a.transactionIndex ||
    (a.transactionHash < b.transactionHash ? -1 : a.transactionHash > b.transactionHash ? 1 : 0)
  );
}

/** Adds a trade to a newest-first list of the latest SNAPSHOT_TRADES trades. */
function keepLatest(latest: WireTrade[], trade: WireTrade): void {
  latest.push(trade);
  // The same order as REST's trades-history, so a snapshot and a REST read agree.
  latest.sort(newestFirst);
  latest.length = Math.min(latest.length, SNAPSHOT_TRADES);
}

export class StreamHub {
  private readonly options: Required<StreamOptions>;
  /** The sockets, and the public view of them and their subscriptions. */
  readonly sockets: SocketKeeper<Peer>;
  /** Per stream: token → interval (0 outside chart-live) → subscribed sockets. */
  private readonly tokens: Record<WsStream, Map<string, Map<number, Set<Peer>>>> = {
    'token-feed': new Map(),
    'chart-live': new Map(),
    'holders-live': new Map(),
    'trades-live': new Map(),
  };
  /** trades-live wallet → sockets following it, with how many of the socket's subscriptions do. */
  private readonly wallets = new Map<string, Map<Peer, number>>();
  /** Changes since the last push, gathered while a mutation runs and pushed once it returns. */
  private readonly batch: PushBatch<PendingChanges>;
  /** Token → changes announced for it: a cached snapshot of the token is current while this has not moved. */
  private readonly versions = new Map<string, number>();
  /**
   * Serialised snapshots by stream and target, for the many subscriptions to one target. Bounded in
   * bytes: versions left behind by a change are never read again and age out first.
   */
  private readonly snapshots: LRUCache<string, CachedSnapshot>;
  /**
   * Each followed wallet's latest trades, kept up to date from that wallet's trade events only:
   * reading them from the market replays the wallet's ledger in every token it touched and builds
   * SNAPSHOT_TRADES trades (about 0.4 ms for an active wallet), and any other wallet's trade
   * changes nothing here.
   */
  private readonly walletLatest = new LRUCache<string, WalletLatest>({ max: WALLETS_TRACKED });
  /** Source of WalletLatest revisions; never reused, so a wallet evicted and read again gets a new one. */
  private walletRevision = 0;
  /**
   * Each token's latest trades, newest first, kept up to date from trade events: reading them from
   * the market means building a view of every trade in the token's history (thousands), far too
   * slow to repeat for every subscription while the market moves.
   */
  private readonly latestTrades = new Map<string, WireTrade[]>();

  constructor(
    private readonly market: Market,
    private readonly apiKey: string,
    options: StreamOptions = {},
  ) {
    this.options = resolveStreamOptions(options);
    this.snapshots = new LRUCache({
      maxSize: this.options.snapshotCacheBytes,
      // The key and bookkeeping count too, so that empty snapshots are not free.
      sizeCalculation: (entry, key) => entry.frames.reduce((bytes, frame) => bytes + frame.length, key.length + 100),
    });
    this.sockets = new SocketKeeper<Peer>(this.options, {
      receive: (peer, data, isBinary) => this.receive(peer, data, isBinary),
      release: (peer) => this.forget(peer),
    });
    this.batch = new PushBatch(market, emptyPending, {
      gather: (change) => this.onChange(change),
      push: (changes) => this.push(changes),
    });
  }

  // ----- the public view -----

  /** Bytes the snapshot cache holds, as its bound counts them (at most snapshotCacheBytes). */
  cachedSnapshotBytes(): number {
    return this.snapshots.calculatedSize;
  }

  close(): void {
    this.batch.stop();
    this.sockets.close();
  }

  // ----- connections -----

  /** The http server's 'upgrade' handler: a stream path becomes a WebSocket, anything else a 404. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.sockets.upgrade(req, socket, head, (ws, stream) => this.sockets.keep({ ws, stream, subs: new Map(), alive: true, done: false }));
  }

  /** Ends every subscription of a socket; the socket itself may still be closing. */
  private forget(peer: Peer): void {
    for (const target of peer.subs.values()) this.index(peer, target, -1);
    peer.subs.clear();
  }

  // ----- client messages -----

  private receive(peer: Peer, data: RawData, isBinary: boolean): void {
    if (peer.done) return;
    if (isBinary) {
      this.sockets.refuse(peer, CLOSE_BAD_REQUEST, 'Bad Request', 'Binary frames are not accepted: send a JSON text message');
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(textOf(data));
    } catch {
      this.sockets.refuse(peer, CLOSE_BAD_REQUEST, 'Bad Request', 'The message is not JSON');
      return;
    }
    if (!isRecord(value)) {
      this.sockets.refuse(peer, CLOSE_BAD_REQUEST, 'Bad Request', 'The message must be a JSON object');
      return;
    }
    const action = value.action;
    if (action !== undefined && action !== 'subscribe' && action !== 'unsubscribe') {
      this.sockets.refuse(peer, CLOSE_BAD_REQUEST, 'Bad Request', 'action must be "subscribe" or "unsubscribe"');
      return;
    }
    const subscribing = action !== 'unsubscribe';
    // The key is checked before anything else of a subscription, so a caller without it learns nothing.
    if (subscribing && !keyMatches(value.apiKey, this.apiKey)) {
      this.sockets.refuse(
        peer,
        STREAM_CLOSE_UNAUTHORIZED,
        'Unauthorized',
        'A valid API key is required in the apiKey field of the subscription message',
        UNAUTHORIZED_REASON,
      );
      return;
    }
    let message: Message;
    let target: Target;
    try {
      const parsed = MessageSchema.safeParse(value);
      if (!parsed.success) throw new BadRequest(parsed.error.issues[0]?.message ?? 'Malformed message');
      message = parsed.data;
      target = this.targetOf(peer.stream, message, !subscribing);
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error;
      this.sockets.refuse(peer, CLOSE_BAD_REQUEST, 'Bad Request', error.message);
      return;
    }
    if (subscribing) this.subscribe(peer, target);
    else this.unsubscribe(peer, target, message.intervalSecs === undefined);
  }

  private targetOf(stream: WsStream, message: Message, unsubscribing: boolean): Target {
    const { tokenAddress, wallets, intervalSecs } = message;
    if (tokenAddress !== undefined && wallets !== undefined) throw new BadRequest('Send either tokenAddress or wallets, not both');
    if (intervalSecs !== undefined) {
      if (stream !== 'chart-live') throw new BadRequest('intervalSecs applies to chart-live only');
      if (!Number.isInteger(intervalSecs) || intervalSecs < 1 || intervalSecs > MAX_INTERVAL_SECS) {
        throw new BadRequest(`intervalSecs must be a whole number of seconds from 1 to ${MAX_INTERVAL_SECS}`);
      }
    }
    if (wallets !== undefined) {
      if (stream !== 'trades-live') throw new BadRequest(`Only trades-live follows wallets: send tokenAddress on ${stream}`);
      const list = walletList(wallets);
      if (list.length === 0) throw new BadRequest('wallets must name at least one wallet');
      if (list.length > MAX_WALLETS) throw new BadRequest(`At most ${MAX_WALLETS} wallets per subscription (got ${list.length})`);
      const bad = list.find((wallet) => !isWireAddress(wallet));
      if (bad !== undefined) throw new BadRequest(`wallets: "${bad.slice(0, 60)}" is not a valid address (${ADDRESS_RULE})`);
      return { kind: 'wallets', wallets: list };
    }
    if (tokenAddress === undefined) {
      const what = stream === 'trades-live' ? 'tokenAddress or wallets' : 'tokenAddress';
      throw new BadRequest(`${what} is required${unsubscribing ? ' to unsubscribe' : ''}`);
    }
    if (!isWireAddress(tokenAddress)) throw new BadRequest(`tokenAddress is not a valid address (${ADDRESS_RULE})`);
    const interval = stream === 'chart-live' ? (intervalSecs ?? (unsubscribing ? 0 : DEFAULT_INTERVAL_SECS)) : 0;
    return { kind: 'token', tokenAddress, intervalSecs: interval };
  }

  private subscribe(peer: Peer, target: Target): void {
    if (target.kind === 'token' && !this.market.hasToken(target.tokenAddress)) {
      this.sockets.refuse(peer, STREAM_CLOSE_UNKNOWN_TOKEN, 'Not Found', 'Token not found');
      return;
    }
    const key = targetKey(target);
    if (!peer.subs.has(key)) {
      if (peer.subs.size >= this.options.maxSubscriptionsPerSocket) {
        const most = this.options.maxSubscriptionsPerSocket;
        this.sockets.refuse(peer, CLOSE_BAD_REQUEST, 'Bad Request', `At most ${most} subscription${most === 1 ? '' : 's'} per socket`);
        return;
      }
      peer.subs.set(key, target);
      this.index(peer, target, 1);
    }
    // A repeated subscription is acknowledged and gets the current state again, but is not added twice.
    const ack =
      target.kind === 'token'
        ? {
            type: 'subscribed',
            stream: peer.stream,
            tokenAddress: target.tokenAddress,
            ...(peer.stream === 'chart-live' ? { intervalSecs: target.intervalSecs } : {}),
          }
        : { type: 'subscribed', stream: peer.stream, wallets: target.wallets };
    this.sockets.send(peer, frameOf(ack));
    for (const frame of this.snapshot(peer.stream, target)) this.sockets.send(peer, frame);
  }

  /**
   * Ends the socket's subscriptions to a token (on chart-live: at the given interval, or every
   * interval when none is given), or stops following the given wallets.
   */
  private unsubscribe(peer: Peer, target: Target, anyInterval: boolean): void {
    const removed: Array<[string, Target]> = [];
    const added: Target[] = [];
    for (const [key, sub] of peer.subs) {
      if (target.kind === 'token' && sub.kind === 'token') {
        if (sub.tokenAddress === target.tokenAddress && (anyInterval || sub.intervalSecs === target.intervalSecs)) removed.push([key, sub]);
      } else if (target.kind === 'wallets' && sub.kind === 'wallets') {
        const remaining = sub.wallets.filter((wallet) => !target.wallets.includes(wallet));
        if (remaining.length === sub.wallets.length) continue;
        removed.push([key, sub]);
        if (remaining.length > 0) added.push({ kind: 'wallets', wallets: remaining });
      }
    }
    for (const [key, sub] of removed) {
      peer.subs.delete(key);
      this.index(peer, sub, -1);
    }
    for (const sub of added) {
      const key = targetKey(sub);
      if (peer.subs.has(key)) continue;
      peer.subs.set(key, sub);
      this.index(peer, sub, 1);
    }
    const ack =
      target.kind === 'token'
        ? { type: 'unsubscribed', stream: peer.stream, tokenAddress: target.tokenAddress }
        : { type: 'unsubscribed', stream: peer.stream, wallets: target.wallets };
    this.sockets.send(peer, frameOf(ack));
  }

  private index(peer: Peer, target: Target, delta: 1 | -1): void {
    this.sockets.tally(peer.stream, delta);
    if (target.kind === 'token') {
      const byToken = this.tokens[peer.stream];
      let byInterval = byToken.get(target.tokenAddress);
      if (delta > 0) {
        if (!byInterval) byToken.set(target.tokenAddress, (byInterval = new Map()));
        let peers = byInterval.get(target.intervalSecs);
        if (!peers) byInterval.set(target.intervalSecs, (peers = new Set()));
        peers.add(peer);
      } else if (byInterval) {
        const peers = byInterval.get(target.intervalSecs);
        peers?.delete(peer);
        if (peers?.size === 0) byInterval.delete(target.intervalSecs);
        if (byInterval.size === 0) byToken.delete(target.tokenAddress);
      }
      return;
    }
    for (const wallet of target.wallets) {
      let followers = this.wallets.get(wallet);
      if (delta > 0) {
        if (!followers) this.wallets.set(wallet, (followers = new Map()));
        followers.set(peer, (followers.get(peer) ?? 0) + 1);
      } else if (followers) {
        const left = (followers.get(peer) ?? 0) - 1;
        if (left > 0) followers.set(peer, left);
        else followers.delete(peer);
        if (followers.size === 0) this.wallets.delete(wallet);
      }
    }
  }

  // ----- snapshots -----

  private snapshot(stream: WsStream, target: Target): Buffer[] {
    const cacheKey = `${stream}|${targetKey(target)}`;
    const version =
      target.kind === 'token'
        ? String(this.versions.get(target.tokenAddress) ?? 0)
        : [...target.wallets]
            .sort()
            .map((wallet) => this.latestOfWallet(wallet).revision)
            .join(',');
    const second = stream === 'token-feed' || stream === 'holders-live' ? this.market.now() : -1;
    const cached = this.snapshots.get(cacheKey);
    if (cached && cached.version === version && cached.second === second) return cached.frames;
    const frames = target.kind === 'token' ? this.tokenSnapshot(stream, target) : this.walletSnapshot(target.wallets);
    this.snapshots.set(cacheKey, { version, second, frames });
    return frames;
  }

  private tokenSnapshot(stream: WsStream, target: TokenTarget): Buffer[] {
    const tokenAddress = target.tokenAddress;
    switch (stream) {
      case 'token-feed': {
        const token = this.market.tokenFrame(tokenAddress);
        return token ? [frameOf({ type: 'token', tokenAddress, snapshot: true, data: token })] : [];
      }
      case 'chart-live': {
        const candle = this.market.currentCandle(tokenAddress, target.intervalSecs);
        return candle ? [frameOf({ type: 'candle', tokenAddress, snapshot: true, data: candle })] : [];
      }
      case 'holders-live': {
        const holders = (this.market.holders(tokenAddress, 'balance') ?? [])
          .filter((holder) => holder.currentlyHoldingAmount !== '0')
          .slice(0, SNAPSHOT_HOLDERS);
        return holders.map((holder) => frameOf({ type: 'holder', tokenAddress, wallet: holder.address, snapshot: true, data: holder }));
      }
      case 'trades-live': {
        let latest = this.latestTrades.get(tokenAddress);
        if (!latest) {
          latest = this.market.tokenTrades(tokenAddress, undefined, SNAPSHOT_TRADES)?.tradeHistory ?? [];
          this.latestTrades.set(tokenAddress, latest);
        }
        return [...latest].reverse().map((trade) => tradeSnapshotFrame(trade));
      }
    }
  }

  /** The latest trades of the wallets in any token, oldest first, valued at transaction time like live trades. */
  private walletSnapshot(wallets: string[]): Buffer[] {
    return wallets
      .flatMap((wallet) => this.latestOfWallet(wallet).trades)
      .sort(newestFirst)
      .slice(0, SNAPSHOT_TRADES)
      .reverse()
      .map((trade) => tradeSnapshotFrame(trade));
  }

  /**
   * A wallet's latest trades, read from the market the first time only. Not market.walletTrades:
   * it values trades at today's price (wallet-tracker, spec §4.6), while streams carry the value at
   * transaction time.
   */
  private latestOfWallet(wallet: string): WalletLatest {
    let latest = this.walletLatest.get(wallet);
    if (!latest) {
      latest = { trades: this.market.latestWalletTrades(wallet, SNAPSHOT_TRADES), revision: ++this.walletRevision };
      this.walletLatest.set(wallet, latest);
    }
    return latest;
  }

  // ----- changes -----

  private onChange(change: MarketChange): void {
    const tokenAddress = change.tokenAddress;
    this.versions.set(tokenAddress, (this.versions.get(tokenAddress) ?? 0) + 1);
    const pending = this.batch.pending;
    switch (change.kind) {
      case 'trade': {
        const latest = this.latestTrades.get(tokenAddress);
        if (latest) keepLatest(latest, change.trade);
        // Only the trading wallet's snapshots change; peek, so that a trade does not count as a read.
        const ofWallet = this.walletLatest.peek(change.wallet);
        if (ofWallet) {
          keepLatest(ofWallet.trades, change.trade);
          ofWallet.revision = ++this.walletRevision;
        }
        if (this.tokens['trades-live'].has(tokenAddress) || this.wallets.has(change.wallet)) {
          pending.trades.push({ tokenAddress, wallet: change.wallet, trade: change.trade });
        }
        break;
      }
      case 'candle':
        if (this.tokens['chart-live'].has(tokenAddress)) pending.candles.add(tokenAddress);
        break;
      case 'holder': {
        if (this.tokens['holders-live'].has(tokenAddress)) {
          let wallets = pending.holders.get(tokenAddress);
          if (!wallets) pending.holders.set(tokenAddress, (wallets = new Set()));
          wallets.add(change.wallet);
        }
        // A share of supply moving can change the token's top-10 supply and owner balance without a trade.
        if (this.tokens['token-feed'].has(tokenAddress)) pending.tokens.add(tokenAddress);
        break;
      }
      case 'token':
        if (this.tokens['token-feed'].has(tokenAddress)) pending.tokens.add(tokenAddress);
        break;
    }
    this.batch.schedule();
  }

  private push({ trades, candles, holders, tokens }: PendingChanges): void {
    for (const { tokenAddress, wallet, trade } of trades) {
      const frame = frameOf({ type: 'trade', tokenAddress, wallet, data: trade });
      const byToken = this.tokens['trades-live'].get(tokenAddress)?.get(0);
      if (byToken) for (const peer of byToken) this.sockets.send(peer, frame);
      const byWallet = this.wallets.get(wallet);
      // A socket following both the token and the wallet gets the trade once.
      if (byWallet) for (const peer of byWallet.keys()) if (!byToken?.has(peer)) this.sockets.send(peer, frame);
    }
    for (const tokenAddress of candles) {
      for (const [intervalSecs, peers] of this.tokens['chart-live'].get(tokenAddress) ?? []) {
        const candle = this.market.currentCandle(tokenAddress, intervalSecs);
        if (candle) this.sockets.sendAll(peers, frameOf({ type: 'candle', tokenAddress, data: candle }));
      }
    }
    for (const [tokenAddress, wallets] of holders) {
      const peers = this.tokens['holders-live'].get(tokenAddress)?.get(0);
      if (!peers) continue;
      for (const wallet of wallets) {
        const holder = this.market.holder(tokenAddress, wallet);
        if (holder) this.sockets.sendAll(peers, frameOf({ type: 'holder', tokenAddress, wallet, data: holder }));
      }
    }
    for (const tokenAddress of tokens) {
      const peers = this.tokens['token-feed'].get(tokenAddress)?.get(0);
      const token = peers ? this.market.tokenFrame(tokenAddress) : null;
      if (peers && token) this.sockets.sendAll(peers, frameOf({ type: 'token', tokenAddress, data: token }));
    }
  }
}
