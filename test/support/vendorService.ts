/**
 * A local replay of the market data service AS ITS VENDOR DOCUMENTS IT (/work/shared/spec/real-service.md
 * and the four recorded token-data answers beside it), for end-to-end tests of the bot: the "other
 * side" the bot is tested against. It is written from those pages alone and imports nothing of src/
 * or packages/tmds-simulator: a fake that shared the bot's code would prove little.
 *
 * One HTTP server on 127.0.0.1 carries both sides: REST under /api/ (vendor/rest.ts) and the four
 * streams under /ws/ (vendor/streams.ts); each file says what the vendor shows and what we chose.
 * What the test pushes reaches the bot only the way the vendor sends it: a risk change is seen on
 * REST token-data alone (no stream says it), a wallet's trades on REST wallet-tracker alone (no wallet
 * stream exists), and trades-live carries no maker.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  type CandleInput,
  type HolderInput,
  type SpecHolder,
  type SpecTrade,
  type TradeInput,
  candleMessage,
  holderMessage,
  tradeMessage,
} from './vendor/records';
import { type Failure, handleRest, type RestState, type SeenRequest } from './vendor/rest';
import { DEFAULT_TIMEFRAME, type SeenMessage, type SeenUpgrade, type StreamPath, VendorStreams } from './vendor/streams';
import type { VendorToken } from './vendor/tokens';
import { addressFor, type JsonObject, toJsonText } from './vendor/wire';

export type {
  CandleInput,
  HolderActivityInput,
  HolderInput,
  HolderRecordInput,
  SpecHolder,
  SpecMakerData,
  SpecTrade,
  TradeInput,
  WalletTradeInput,
} from './vendor/records';
export { makeHolderRecord, makeWalletTrade } from './vendor/records';
export type { Failure, SeenRequest } from './vendor/rest';
export type { SeenMessage, SeenUpgrade, StreamPath } from './vendor/streams';
export { STREAM_PATHS } from './vendor/streams';
export type { FeedTokenInput, PoolInput, RecordingName, TokenInput, VendorPool, VendorToken } from './vendor/tokens';
export { RECORDING_NAMES, loadRecording, loadRecordingEnvelope, makeFeedToken, makeToken } from './vendor/tokens';
export type { JsonObject, JsonValue } from './vendor/wire';
export { SOL_MINT, USDC_MINT, addressFor, signatureFor } from './vendor/wire';

export interface VendorServiceOptions {
  apiKey: string;
  /** Default 0: a free port. */
  port?: number;
  /** Default true. false: subscriptions are recorded, never confirmed, never taken. */
  confirm?: boolean;
}

export interface VendorService {
  /** http://127.0.0.1:P */
  readonly baseUrl: string;
  /** ws://127.0.0.1:P (the streams are at wsUrl + /ws/<name>). */
  readonly wsUrl: string;
  /** Every WebSocket upgrade seen, refused ones included. */
  readonly upgrades: readonly SeenUpgrade[];
  /** Every message a client sent on a socket. */
  readonly messages: readonly SeenMessage[];
  /** Every REST request, answered or refused. */
  readonly requests: readonly SeenRequest[];
  /** Whether subscriptions are confirmed (and taken) from now on. */
  confirm: boolean;
  /** Holds a token (a copy): token-data answers it from now on. */
  addToken(token: VendorToken): void;
  /** Changes the token's `riskStatus` as token-data answers it. REST only: no stream says it. */
  setRisk(address: string, riskStatus: string): void;
  /** One `{"event":"trade"}` to every trades-live socket confirmed for the token; returns how many sockets. */
  pushTrade(address: string, trade: TradeInput): number;
  /** One `{"event":"chart"}` to every chart-live socket confirmed for the token with the candle's timeframe (default 60). */
  pushCandle(address: string, candle: CandleInput): number;
  /** One `{"event":"holder"}` to every holders-live socket confirmed for the token. */
  pushHolder(address: string, holder: HolderInput): number;
  /** One `{"event":"token","data":[...]}` to every token-feed socket whose filters were applied. */
  pushTokenFeed(tokens: readonly JsonObject[]): number;
  /** A text frame as it is, to every open socket of the path (subscribed or not). */
  sendRaw(path: StreamPath, text: string): number;
  /** A §2.7 trade of `wallet` (its makerData must name it), answered by wallet-tracker from now on. */
  addWalletTrade(wallet: string, trade: SpecTrade): void;
  /** What holders-history answers for the token (sorted by balance unless another sortBy is asked). */
  setHolders(token: string, holders: readonly SpecHolder[]): void;
  /** The next `count` REST requests (to `failure.path`, or any) answer this failure instead. */
  failNext(count: number, failure: Failure): void;
  /** Open sockets of `path` confirmed for `token` (without a token: with any confirmed subscription). */
  subscribers(path: StreamPath, token?: string): number;
  /** Open sockets, of one path or all. */
  openSockets(path?: StreamPath): number;
  /** Closes the sockets of one path, or all, from the server's side (code default 1001). */
  disconnect(path?: StreamPath, code?: number): void;
  /**
   * Resolves once `predicate()` holds. It is checked at once, after every upgrade, socket message,
   * socket close and REST request, and every 20 ms for conditions outside the replay.
   */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startVendorService(options: VendorServiceOptions): Promise<VendorService> {
  const waiters = new Set<() => void>();
  const changed = (): void => {
    for (const check of [...waiters]) check();
  };
  const rest: RestState = {
    apiKey: options.apiKey,
    tokens: new Map(),
    walletTrades: new Map(),
    holders: new Map(),
    failures: [],
    requests: [],
  };
  const streams = new VendorStreams(options.apiKey, options.confirm ?? true, changed);
  const connections = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    handleRest(rest, request, response);
    changed();
  });
  server.on('connection', (socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
  });
  server.on('upgrade', (request, socket, head) => streams.upgrade(request, socket, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const tokenOf = (address: string): VendorToken => {
    const token = rest.tokens.get(address);
    if (!token) throw new Error(`The vendor replay holds no token ${address}: addToken first`);
    return token;
  };
  const poolOf = (address: string): { address: string; protocol: string } => {
    const pool = Object.values(rest.tokens.get(address)?.liquidityPools ?? {})[0];
    return pool
      ? { address: pool.poolAddress, protocol: pool.protocol }
      : { address: addressFor(`${address}:pool:0`), protocol: 'PUMP_AMM' };
  };

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    upgrades: streams.upgrades,
    messages: streams.messages,
    requests: rest.requests,
    get confirm() {
      return streams.confirm;
    },
    set confirm(value: boolean) {
      streams.confirm = value;
    },
    addToken(token) {
      rest.tokens.set(token.address, structuredClone(token));
    },
    setRisk(address, riskStatus) {
      tokenOf(address).riskStatus = riskStatus;
    },
    pushTrade(address, trade) {
      return streams.toSubscribers('/ws/trades-live', address, tradeMessage(address, trade, poolOf(address)));
    },
    pushCandle(address, candle) {
      return streams.toSubscribers('/ws/chart-live', address, candleMessage(address, candle), candle.timeframe ?? DEFAULT_TIMEFRAME);
    },
    pushHolder(address, holder) {
      return streams.toSubscribers('/ws/holders-live', address, holderMessage(address, holder));
    },
    pushTokenFeed(tokens) {
      return streams.toFeed(toJsonText({ event: 'token', data: tokens }));
    },
    sendRaw(path, text) {
      return streams.raw(path, text);
    },
    addWalletTrade(wallet, trade) {
      if (trade.makerData.address !== wallet) throw new Error(`The trade's makerData names ${trade.makerData.address}, not ${wallet}`);
      rest.walletTrades.set(wallet, [structuredClone(trade), ...(rest.walletTrades.get(wallet) ?? [])]);
    },
    setHolders(token, holders) {
      rest.holders.set(token, structuredClone([...holders]));
    },
    failNext(count, failure) {
      if (count > 0) rest.failures.push({ ...failure, remaining: count });
    },
    subscribers(path, token) {
      return streams.subscribers(path, token);
    },
    openSockets(path) {
      return streams.openSockets(path);
    },
    disconnect(path, code) {
      streams.disconnect(path, code);
    },
    waitFor(predicate, timeoutMs = 5_000) {
      return new Promise<void>((resolve, reject) => {
        const done = (): void => {
          clearTimeout(timer);
          clearInterval(poll);
          waiters.delete(check);
        };
        const check = (): void => {
          try {
            if (!predicate()) return;
            done();
            resolve();
          } catch (error) {
            done();
            reject(error);
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`vendor replay: condition not met within ${timeoutMs} ms`));
        }, timeoutMs);
        const poll = setInterval(check, 20);
        waiters.add(check);
        check();
      });
    },
    async close() {
      await streams.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of connections) socket.destroy();
      });
    },
  };
}
