/**
 * The four streams in the vendor protocol (protocol.ts), as the real service's pages show them
 * (shared/spec/real-service.md): the API key in the `x-api-key` header of the upgrade (refused
 * with HTTP 401), a welcome on opening, `{"tokenAddress": ...}` to subscribe (chart-live adds
 * `timeframe`), a confirmation, then data messages with an `event` field and no snapshot.
 * token-feed is no per-token stream but a feed of new tokens matching a filter set
 * (`{"type": "setFilters", "filters": {...}}`, feedFilters.ts), pushed as lists when tokens launch.
 * There is no wallet stream. What the vendor does not show is decided here as the spec protocol
 * decides it (streams.ts): several subscriptions on one socket, errors as `{"type": "error", ...}`
 * then close 4000 or 4004, pings answered, heartbeats, limits, unsubscribing.
 *
 * Changes of one market mutation are pushed together once it returns, each message serialised
 * once for every subscriber of its target.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import { keyMatches } from './auth';
import type { WsStream } from './endpoints';
import { FeedFilterError, matchesFilters, parseFeedFilters, type FeedFilters } from './feedFilters';
import { jsonText, type JsonValue } from './jsonText';
import type { Market, MarketChange } from './market';
import { isWireAddress } from './params';
import { PushBatch } from './pushBatch';
import { SocketKeeper, type KeptSocket, type UpgradeRefusal } from './socketKeeper';
import {
  CLOSE_BAD_REQUEST,
  DEFAULT_INTERVAL_SECS,
  MAX_INTERVAL_SECS,
  STREAM_CLOSE_UNKNOWN_TOKEN,
  isRecord,
  resolveStreamOptions,
  textOf,
  type StreamOptions,
} from './streams';
import { WRAPPED_SOL_MINT } from './units';
import type { WireTrade } from './wireTypes';

/** How each path names itself in its welcome, as the vendor's `Connected to TradesLive WebSocket`. */
export const VENDOR_STREAM_NAMES: Readonly<Record<WsStream, string>> = {
  'token-feed': 'TokenFeed',
  'chart-live': 'ChartLive',
  'holders-live': 'HoldersLive',
  'trades-live': 'TradesLive',
};

const HINTS: Readonly<Record<WsStream, string>> = {
  'token-feed': 'Send a JSON object with "type": "setFilters" and "filters".',
  'chart-live': 'Send a JSON object with "tokenAddress" and "timeframe".',
  'holders-live': 'Send a JSON object with "tokenAddress".',
  'trades-live': 'Send a JSON object with "tokenAddress".',
};

/** The message a socket gets as soon as it opens. */
export function vendorWelcome(stream: WsStream): string {
  return `Connected to ${VENDOR_STREAM_NAMES[stream]} WebSocket. ${HINTS[stream]}`;
}

/** The error message of an upgrade without the right key. */
export const VENDOR_UPGRADE_UNAUTHORIZED = 'A valid API key is required in the x-api-key header';

const ADDRESS_RULE = 'base58, 32–44 characters, or 0x + 40 hex digits';

/** A token subscription; `timeframe` is the candle's seconds on chart-live and 0 elsewhere. */
interface TokenTarget {
  tokenAddress: string;
  timeframe: number;
}

interface Peer extends KeptSocket {
  readonly stream: WsStream;
  /** Token subscriptions by key (token and timeframe), so that a repeated one is not added twice. */
  readonly subs: Map<string, TokenTarget>;
  /** token-feed: the filter set in force; null before the first setFilters. */
  filters: FeedFilters | null;
}

interface PendingChanges {
  trades: WireTrade[];
  /** Tokens whose current candle changed. */
  candles: Set<string>;
  /** Token → wallets (or bonding curves) whose holding changed. */
  holders: Map<string, Set<string>>;
  /** A token was launched: token-feed's lists are due. */
  launched: boolean;
}

function emptyPending(): PendingChanges {
  return { trades: [], candles: new Set(), holders: new Map(), launched: false };
}

class BadRequest extends Error {}

function frameOf(message: JsonValue): Buffer {
  return Buffer.from(jsonText(message));
}

function keyOf(target: TokenTarget): string {
  return `${target.tokenAddress}|${target.timeframe}`;
}

/** chart-live's `timeframe`: whole seconds (a digit string is read too), default 60. */
function timeframeOf(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_INTERVAL_SECS;
  const seconds = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_INTERVAL_SECS) {
    throw new BadRequest(`timeframe must be a whole number of seconds from 1 to ${MAX_INTERVAL_SECS}`);
  }
  return seconds;
}

/** The token a message names, checked; wallets are refused, there being no wallet stream. */
function tokenOf(stream: WsStream, value: Record<string, unknown>, unsubscribing: boolean): string {
  if (value.wallets !== undefined) {
    throw new BadRequest(
      `There is no wallet stream: ${stream} follows one token ("tokenAddress"); follow wallets over REST (/api/wallet-tracker)`,
    );
  }
  const tokenAddress = value.tokenAddress;
  if (tokenAddress === undefined) throw new BadRequest(`tokenAddress is required${unsubscribing ? ' to unsubscribe' : ''}`);
  if (typeof tokenAddress !== 'string' || !isWireAddress(tokenAddress)) {
    throw new BadRequest(`tokenAddress is not a valid address (${ADDRESS_RULE})`);
  }
  return tokenAddress;
}

export class VendorStreamHub {
  private readonly options: Required<StreamOptions>;
  /** The sockets, and the public view of them and their subscriptions. */
  readonly sockets: SocketKeeper<Peer>;
  /** Per token stream: token → timeframe (0 outside chart-live) → subscribed sockets. */
  private readonly tokens: Record<Exclude<WsStream, 'token-feed'>, Map<string, Map<number, Set<Peer>>>> = {
    'chart-live': new Map(),
    'holders-live': new Map(),
    'trades-live': new Map(),
  };
  /** token-feed sockets with a filter set. */
  private readonly feed = new Set<Peer>();
  private readonly batch: PushBatch<PendingChanges>;

  constructor(
    private readonly market: Market,
    private readonly apiKey: string,
    options: StreamOptions = {},
  ) {
    this.options = resolveStreamOptions(options);
    this.sockets = new SocketKeeper<Peer>(this.options, {
      receive: (peer, data, isBinary) => this.receive(peer, data, isBinary),
      release: (peer) => this.forget(peer),
    });
    this.batch = new PushBatch(market, emptyPending, {
      gather: (change) => this.onChange(change),
      push: (changes) => this.push(changes),
    });
  }

  close(): void {
    this.batch.stop();
    this.sockets.close();
  }

  // ----- connections -----

  /** The http server's 'upgrade' handler: 404 off the four paths, 401 without the key in x-api-key, else a WebSocket. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.sockets.upgrade(
      req,
      socket,
      head,
      (ws, stream) => this.accept(ws, stream),
      (request) => this.admit(request),
    );
  }

  private admit(req: IncomingMessage): UpgradeRefusal | null {
    if (keyMatches(req.headers['x-api-key'], this.apiKey)) return null;
    return { status: '401 Unauthorized', error: 'Unauthorized', message: VENDOR_UPGRADE_UNAUTHORIZED };
  }

  private accept(ws: WebSocket, stream: WsStream): void {
    const peer: Peer = { ws, stream, subs: new Map(), filters: null, alive: true, done: false };
    this.sockets.keep(peer);
    this.sockets.send(peer, frameOf({ type: 'connected', message: vendorWelcome(stream) }));
  }

  /** Ends every subscription of a socket; the socket itself may still be closing. */
  private forget(peer: Peer): void {
    for (const target of peer.subs.values()) this.index(peer, target, -1);
    peer.subs.clear();
    if (peer.filters !== null) {
      peer.filters = null;
      this.feed.delete(peer);
      this.sockets.tally('token-feed', -1);
    }
  }

  // ----- client messages -----

  private receive(peer: Peer, data: RawData, isBinary: boolean): void {
    if (peer.done) return;
    const badRequest = (message: string) => this.sockets.refuse(peer, CLOSE_BAD_REQUEST, 'Bad Request', message);
    if (isBinary) {
      badRequest('Binary frames are not accepted: send a JSON text message');
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(textOf(data));
    } catch {
      badRequest('The message is not JSON');
      return;
    }
    if (!isRecord(value)) {
      badRequest('The message must be a JSON object');
      return;
    }
    const action = value.action;
    if (action !== undefined && action !== 'subscribe' && action !== 'unsubscribe') {
      badRequest('action must be "subscribe" or "unsubscribe"');
      return;
    }
    try {
      // An apiKey field in the message is allowed and ignored: the upgrade's header was the key.
      if (peer.stream === 'token-feed') this.receiveFeed(peer, value, action === 'unsubscribe');
      else if (action === 'unsubscribe') this.unsubscribe(peer, value);
      else this.subscribe(peer, value);
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error;
      badRequest(error.message);
    }
  }

  private receiveFeed(peer: Peer, value: Record<string, unknown>, unsubscribing: boolean): void {
    if (unsubscribing) {
      if (peer.filters !== null) {
        peer.filters = null;
        this.feed.delete(peer);
        this.sockets.tally('token-feed', -1);
      }
      this.sockets.send(peer, frameOf({ type: 'unsubscribed', message: 'Filters removed' }));
      return;
    }
    if (value.type !== 'setFilters') {
      throw new BadRequest(
        'token-feed is a feed of new tokens: send {"type": "setFilters", "filters": {...}}; read one token over REST (/api/token-data)',
      );
    }
    let filters: FeedFilters;
    try {
      filters = parseFeedFilters(value.filters);
    } catch (error) {
      if (error instanceof FeedFilterError) throw new BadRequest(error.message);
      throw error;
    }
    if (peer.filters === null) {
      this.checkRoom(peer);
      this.feed.add(peer);
      this.sockets.tally('token-feed', 1);
    }
    // A new filter set replaces the one in force.
    peer.filters = filters;
    this.sockets.send(peer, frameOf({ type: 'subscriptionConfirmed', message: 'Filters applied' }));
  }

  private checkRoom(peer: Peer): void {
    const most = this.options.maxSubscriptionsPerSocket;
    const held = peer.subs.size + (peer.filters === null ? 0 : 1);
    if (held >= most) throw new BadRequest(`At most ${most} subscription${most === 1 ? '' : 's'} per socket`);
  }

  private subscribe(peer: Peer, value: Record<string, unknown>): void {
    if (value.type === 'setFilters') throw new BadRequest('Filters apply to token-feed only; send {"tokenAddress": "..."}');
    const tokenAddress = tokenOf(peer.stream, value, false);
    const timeframe = peer.stream === 'chart-live' ? timeframeOf(value.timeframe) : 0;
    if (!this.market.hasToken(tokenAddress)) {
      this.sockets.refuse(peer, STREAM_CLOSE_UNKNOWN_TOKEN, 'Not Found', 'Token not found');
      return;
    }
    const target: TokenTarget = { tokenAddress, timeframe };
    const key = keyOf(target);
    if (!peer.subs.has(key)) {
      this.checkRoom(peer);
      peer.subs.set(key, target);
      this.index(peer, target, 1);
    }
    // A repeated subscription is confirmed again but not added twice; no snapshot either way.
    const message = `Subscribed to ${tokenAddress}${peer.stream === 'chart-live' ? ` with ${timeframe}s timeframe` : ''}`;
    this.sockets.send(peer, frameOf({ type: 'subscriptionConfirmed', message }));
  }

  /** Ends the socket's subscriptions to a token (on chart-live: at the given timeframe, or every one when none is given). */
  private unsubscribe(peer: Peer, value: Record<string, unknown>): void {
    const tokenAddress = tokenOf(peer.stream, value, true);
    const timeframe = value.timeframe === undefined || peer.stream !== 'chart-live' ? null : timeframeOf(value.timeframe);
    for (const [key, target] of [...peer.subs]) {
      if (target.tokenAddress !== tokenAddress || (timeframe !== null && target.timeframe !== timeframe)) continue;
      peer.subs.delete(key);
      this.index(peer, target, -1);
    }
    this.sockets.send(peer, frameOf({ type: 'unsubscribed', message: `Unsubscribed from ${tokenAddress}` }));
  }

  private index(peer: Peer, target: TokenTarget, delta: 1 | -1): void {
    if (peer.stream === 'token-feed') return;
    this.sockets.tally(peer.stream, delta);
    const byToken = this.tokens[peer.stream];
    let byTimeframe = byToken.get(target.tokenAddress);
    if (delta > 0) {
      if (!byTimeframe) byToken.set(target.tokenAddress, (byTimeframe = new Map()));
      let peers = byTimeframe.get(target.timeframe);
      if (!peers) byTimeframe.set(target.timeframe, (peers = new Set()));
      peers.add(peer);
      return;
    }
    const peers = byTimeframe?.get(target.timeframe);
    peers?.delete(peer);
    if (peers?.size === 0) byTimeframe?.delete(target.timeframe);
    if (byTimeframe?.size === 0) byToken.delete(target.tokenAddress);
  }

  // ----- changes -----

  private onChange(change: MarketChange): void {
    const tokenAddress = change.tokenAddress;
    const pending = this.batch.pending;
    switch (change.kind) {
      case 'trade':
        if (this.tokens['trades-live'].has(tokenAddress)) pending.trades.push(change.trade);
        break;
      case 'candle':
        if (this.tokens['chart-live'].has(tokenAddress)) pending.candles.add(tokenAddress);
        break;
      case 'holder':
        if (this.tokens['holders-live'].has(tokenAddress)) {
          let wallets = pending.holders.get(tokenAddress);
          if (!wallets) pending.holders.set(tokenAddress, (wallets = new Set()));
          wallets.add(change.wallet);
        }
        break;
      case 'launch':
        if (this.feed.size > 0) pending.launched = true;
        break;
      case 'token':
        // No per-token token-feed here: a token's risk, flags and pools are read over REST.
        return;
    }
    this.batch.schedule();
  }

  private push({ trades, candles, holders, launched }: PendingChanges): void {
    for (const trade of trades) {
      const peers = this.tokens['trades-live'].get(trade.makerData.tokenAddress)?.get(0);
      const event = peers ? this.market.vendorTrade(trade) : null;
      if (peers && event) this.sockets.sendAll(peers, frameOf(event));
    }
    for (const tokenAddress of candles) {
      for (const [timeframe, peers] of this.tokens['chart-live'].get(tokenAddress) ?? []) {
        const candle = this.market.vendorCandle(tokenAddress, timeframe);
        if (candle) this.sockets.sendAll(peers, frameOf({ event: 'chart', tokenAddress, quoteToken: WRAPPED_SOL_MINT, timeframe, candle }));
      }
    }
    for (const [tokenAddress, wallets] of holders) {
      const peers = this.tokens['holders-live'].get(tokenAddress)?.get(0);
      if (!peers) continue;
      for (const wallet of wallets) {
        const holder = this.market.vendorHolder(tokenAddress, wallet);
        if (holder) this.sockets.sendAll(peers, frameOf(holder));
      }
    }
    if (launched) this.pushFeed();
  }

  /** token-feed: every socket gets the new tokens its filters let through, as one list; none when none does. */
  private pushFeed(): void {
    const tokens = this.market.feedTokens();
    for (const peer of this.feed) {
      const filters = peer.filters;
      if (filters === null) continue;
      const data = tokens.filter((token) => matchesFilters(token, filters));
      if (data.length > 0) this.sockets.send(peer, frameOf({ event: 'token', data }));
    }
  }
}
