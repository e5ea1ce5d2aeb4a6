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
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { keyMatches } from './auth';
import { WS_STREAMS, type WsStream } from './endpoints';
import { FeedFilterError, matchesFilters, parseFeedFilters, type FeedFilters } from './feedFilters';
import { jsonText, type JsonValue } from './jsonText';
import type { Market, MarketChange } from './market';
import { isWireAddress } from './params';
import {
  CLOSE_BAD_REQUEST,
  DEFAULT_INTERVAL_SECS,
  DEFAULT_STREAM_OPTIONS,
  MAX_INTERVAL_SECS,
  STREAM_CLOSE_UNKNOWN_TOKEN,
  clipReason,
  isRecord,
  streamOfPath,
  textOf,
  type StreamOptions,
  type StreamsView,
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

interface Peer {
  readonly ws: WebSocket;
  readonly stream: WsStream;
  /** Token subscriptions by key (token and timeframe), so that a repeated one is not added twice. */
  readonly subs: Map<string, TokenTarget>;
  /** token-feed: the filter set in force; null before the first setFilters. */
  filters: FeedFilters | null;
  alive: boolean;
  /** The server has decided to close it: nothing more is read or pushed. */
  done: boolean;
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

/** A refusal of a message: its error title, the words and the close code. */
interface Refusal {
  code: number;
  error: string;
  message: string;
}

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

export class VendorStreamHub implements StreamsView {
  private readonly options: Required<StreamOptions>;
  private readonly wss: WebSocketServer;
  private readonly peers = new Set<Peer>();
  /** Per token stream: token → timeframe (0 outside chart-live) → subscribed sockets. */
  private readonly tokens: Record<Exclude<WsStream, 'token-feed'>, Map<string, Map<number, Set<Peer>>>> = {
    'chart-live': new Map(),
    'holders-live': new Map(),
    'trades-live': new Map(),
  };
  /** token-feed sockets with a filter set. */
  private readonly feed = new Set<Peer>();
  private readonly counts: Record<WsStream, number> = { 'token-feed': 0, 'chart-live': 0, 'holders-live': 0, 'trades-live': 0 };
  private pending: PendingChanges = emptyPending();
  private flushScheduled = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly unsubscribeMarket: () => void;
  private closed = false;

  constructor(
    private readonly market: Market,
    private readonly apiKey: string,
    options: StreamOptions = {},
  ) {
    this.options = { ...DEFAULT_STREAM_OPTIONS };
    for (const name of Object.keys(DEFAULT_STREAM_OPTIONS) as Array<keyof StreamOptions>) {
      const value = options[name];
      if (value === undefined) continue;
      if (!Number.isSafeInteger(value) || value < 1) throw new Error(`streams.${name} must be a whole number ≥ 1 (got ${String(value)})`);
      this.options[name] = value;
    }
    this.wss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      maxPayload: this.options.maxPayloadBytes,
      perMessageDeflate: false,
    });
    this.unsubscribeMarket = market.onChange((change) => this.onChange(change));
    this.heartbeat = setInterval(() => this.beat(), this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  // ----- the public view -----

  subscriptionCount(stream?: WsStream): number {
    if (stream) return this.counts[stream];
    return WS_STREAMS.reduce((total, name) => total + this.counts[name], 0);
  }

  socketCount(): number {
    return this.peers.size;
  }

  drop(): void {
    this.dropAll();
  }

  dropAll(): number {
    const count = this.peers.size;
    for (const peer of [...this.peers]) this.cut(peer);
    return count;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.unsubscribeMarket();
    this.dropAll();
    this.wss.close();
  }

  // ----- connections -----

  /** The http server's 'upgrade' handler: 404 off the four paths, 401 without the key in x-api-key, else a WebSocket. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    if (this.closed) {
      socket.destroy();
      return;
    }
    const stream = streamOfPath(req.url);
    if (!stream) {
      const path = (req.url ?? '').split('?')[0]?.slice(0, 100) ?? '';
      refuseUpgrade(socket, '404 Not Found', { error: 'Not Found', message: `No stream at ${path}` });
      return;
    }
    if (!keyMatches(req.headers['x-api-key'], this.apiKey)) {
      refuseUpgrade(socket, '401 Unauthorized', { error: 'Unauthorized', message: VENDOR_UPGRADE_UNAUTHORIZED });
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, stream));
  }

  private accept(ws: WebSocket, stream: WsStream): void {
    if (this.closed) {
      ws.terminate();
      return;
    }
    const peer: Peer = { ws, stream, subs: new Map(), filters: null, alive: true, done: false };
    this.peers.add(peer);
    ws.on('error', () => undefined);
    ws.on('pong', () => {
      peer.alive = true;
    });
    ws.on('message', (data, isBinary) => {
      try {
        this.receive(peer, data, isBinary);
      } catch (error) {
        process.emitWarning(`stream message handling failed: ${error instanceof Error ? error.message : String(error)}`);
        this.refuse(peer, { code: 1011, error: 'Internal Server Error', message: 'Internal server error' });
      }
    });
    ws.on('close', () => {
      this.forget(peer);
      this.peers.delete(peer);
    });
    this.send(peer, frameOf({ type: 'connected', message: vendorWelcome(stream) }));
  }

  private beat(): void {
    for (const peer of [...this.peers]) {
      if (!peer.alive || peer.done) {
        this.cut(peer);
        continue;
      }
      peer.alive = false;
      try {
        peer.ws.ping();
      } catch {
        this.cut(peer);
      }
    }
  }

  private cut(peer: Peer): void {
    this.forget(peer);
    this.peers.delete(peer);
    peer.ws.terminate();
  }

  /** Ends every subscription of a socket; the socket itself may still be closing. */
  private forget(peer: Peer): void {
    peer.done = true;
    for (const target of peer.subs.values()) this.index(peer, target, -1);
    peer.subs.clear();
    if (peer.filters !== null) {
      peer.filters = null;
      this.feed.delete(peer);
      this.counts['token-feed']--;
    }
  }

  /** Sends an error message and closes with its code; the socket's subscriptions end at once. */
  private refuse(peer: Peer, refusal: Refusal): void {
    this.forget(peer);
    const ws = peer.ws;
    if (ws.readyState !== WebSocket.OPEN) return;
    ws.send(jsonText({ type: 'error', error: refusal.error, message: refusal.message }));
    ws.close(refusal.code, clipReason(`${refusal.error}: ${refusal.message}`));
  }

  // ----- client messages -----

  private receive(peer: Peer, data: RawData, isBinary: boolean): void {
    if (peer.done) return;
    const badRequest = (message: string) => this.refuse(peer, { code: CLOSE_BAD_REQUEST, error: 'Bad Request', message });
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
        this.counts['token-feed']--;
      }
      this.send(peer, frameOf({ type: 'unsubscribed', message: 'Filters removed' }));
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
      this.counts['token-feed']++;
    }
    // A new filter set replaces the one in force.
    peer.filters = filters;
    this.send(peer, frameOf({ type: 'subscriptionConfirmed', message: 'Filters applied' }));
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
      this.refuse(peer, { code: STREAM_CLOSE_UNKNOWN_TOKEN, error: 'Not Found', message: 'Token not found' });
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
    this.send(peer, frameOf({ type: 'subscriptionConfirmed', message }));
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
    this.send(peer, frameOf({ type: 'unsubscribed', message: `Unsubscribed from ${tokenAddress}` }));
  }

  private index(peer: Peer, target: TokenTarget, delta: 1 | -1): void {
    if (peer.stream === 'token-feed') return;
    this.counts[peer.stream] += delta;
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
    const pending = this.pending;
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
    if (!this.flushScheduled && !this.closed) {
      this.flushScheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    const { trades, candles, holders, launched } = this.pending;
    this.pending = emptyPending();
    if (this.closed) return;
    try {
      for (const trade of trades) {
        const peers = this.tokens['trades-live'].get(trade.makerData.tokenAddress)?.get(0);
        const event = peers ? this.market.vendorTrade(trade) : null;
        if (peers && event) this.sendAll(peers, frameOf(event));
      }
      for (const tokenAddress of candles) {
        for (const [timeframe, peers] of this.tokens['chart-live'].get(tokenAddress) ?? []) {
          const candle = this.market.vendorCandle(tokenAddress, timeframe);
          if (candle) this.sendAll(peers, frameOf({ event: 'chart', tokenAddress, quoteToken: WRAPPED_SOL_MINT, timeframe, candle }));
        }
      }
      for (const [tokenAddress, wallets] of holders) {
        const peers = this.tokens['holders-live'].get(tokenAddress)?.get(0);
        if (!peers) continue;
        for (const wallet of wallets) {
          const holder = this.market.vendorHolder(tokenAddress, wallet);
          if (holder) this.sendAll(peers, frameOf(holder));
        }
      }
      if (launched) this.pushFeed();
    } catch (error) {
      process.emitWarning(`stream push failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** token-feed: every socket gets the new tokens its filters let through, as one list; none when none does. */
  private pushFeed(): void {
    const tokens = this.market.feedTokens();
    for (const peer of this.feed) {
      const filters = peer.filters;
      if (filters === null) continue;
      const data = tokens.filter((token) => matchesFilters(token, filters));
      if (data.length > 0) this.send(peer, frameOf({ event: 'token', data }));
    }
  }

  private sendAll(peers: Set<Peer>, frame: Buffer): void {
    for (const peer of peers) this.send(peer, frame);
  }

  private send(peer: Peer, frame: Buffer): void {
    if (peer.done || peer.ws.readyState !== WebSocket.OPEN) return;
    peer.ws.send(frame, { binary: false });
    if (peer.ws.bufferedAmount > this.options.maxBufferedBytes) this.cut(peer);
  }
}

/** An HTTP answer to an upgrade that is not accepted, with a JSON body as REST's errors have. */
function refuseUpgrade(socket: Duplex, status: string, body: { error: string; message: string }): void {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
}
