/**
 * A small local server speaking the stream protocol of docs/streams.md, with the knobs the
 * simulator does not offer: send any frame (malformed, binary, bare), stop answering pings,
 * refuse the upgrade with HTTP 401, refuse a token (4004) or call it malformed (4000), close every
 * socket before serving it, take one subscription a socket in each way a strict service may show it,
 * and see exactly what each socket received and when each attempt came.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { wireCandle, wireHolder, wireToken, wireTrade } from './samples';

type Path = 'token-feed' | 'chart-live' | 'holders-live' | 'trades-live';

export interface FixtureOptions {
  apiKey: string;
  /** false: the server never answers pings (a link that is half dead). */
  autoPong?: boolean;
  /** Refuse every upgrade with this HTTP status. */
  refuseUpgrade?: 401 | 403;
  /** Tokens the server does not know: error message, then close 4004. */
  unknownTokens?: readonly string[];
  /** Tokens whose subscription the server calls malformed: error message, then close 4000. */
  malformedTokens?: readonly string[];
  /** Close every socket with this code on its first subscription message, before acknowledging it. */
  closeOnSubscribe?: number;
  /** Send the current state after each subscription (default true). */
  snapshots?: boolean;
  /**
   * One subscription a socket, and what a second one on a socket meets: an error message and close
   * 4000, an error message alone (the socket stays, the subscription is not taken), or silence.
   */
  onePerSocket?: 'close' | 'error' | 'ignore';
  /** Hold every upgrade until the test releases it (`releaseUpgrades`): the handshakes a client has in flight. */
  holdUpgrades?: boolean;
}

export interface FixtureSubscription {
  tokenAddress: string | null;
  wallets: string[] | null;
}

export interface FixtureSocket {
  path: Path;
  ws: WebSocket;
  subscriptions: FixtureSubscription[];
  /** Every text message the client sent, parsed. */
  received: Array<Record<string, unknown>>;
}

export class StreamFixture {
  /** Upgrade requests seen, per path, accepted or not. */
  readonly attempts: Record<Path, number> = { 'token-feed': 0, 'chart-live': 0, 'holders-live': 0, 'trades-live': 0 };
  /** Date.now() of each upgrade request, over all paths, accepted or not. */
  readonly attemptTimes: number[] = [];
  /** Every text message any socket received, parsed, in order (sockets since closed included). */
  readonly messages: Array<Record<string, unknown>> = [];
  readonly sockets = new Set<FixtureSocket>();
  apiKey: string;
  /** Tokens refused with 4004; tests may change it while the fixture runs. */
  readonly unknownTokens: Set<string>;
  /** While true, every upgrade is refused with 503: the service is down, so no socket can come back. */
  unavailable = false;
  /** Upgrades held (holdUpgrades), oldest first, and the most held at once so far. */
  private readonly held: Array<() => void> = [];
  mostHeld = 0;
  private serial = 0;

  private constructor(
    private readonly server: WebSocketServer,
    readonly wsUrl: string,
    private readonly options: FixtureOptions,
  ) {
    this.apiKey = options.apiKey;
    this.unknownTokens = new Set(options.unknownTokens);
    server.on('connection', (ws, request) => this.accept(ws, (request.url ?? '').replace(/^\/ws\//, '') as Path));
  }

  static async start(options: FixtureOptions): Promise<StreamFixture> {
    let fixture: StreamFixture | null = null;
    const server = new WebSocketServer({
      port: 0,
      host: '127.0.0.1',
      autoPong: options.autoPong ?? true,
      verifyClient: (info, done) => {
        const path = (info.req.url ?? '').replace(/^\/ws\//, '') as Path;
        if (fixture && path in fixture.attempts) fixture.attempts[path] += 1;
        fixture?.attemptTimes.push(Date.now());
        if (options.refuseUpgrade) done(false, options.refuseUpgrade, 'Unauthorized');
        else if (fixture?.unavailable) done(false, 503, 'Service Unavailable');
        else if (options.holdUpgrades && fixture) fixture.hold(() => done(true));
        else done(true);
      },
    });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const { port } = server.address() as AddressInfo;
    fixture = new StreamFixture(server, `ws://127.0.0.1:${port}`, options);
    return fixture;
  }

  private hold(accept: () => void): void {
    this.held.push(accept);
    this.mostHeld = Math.max(this.mostHeld, this.held.length);
  }

  /** Upgrades waiting for the test. */
  get heldUpgrades(): number {
    return this.held.length;
  }

  /** Accepts the `count` oldest held upgrades. */
  releaseUpgrades(count: number): void {
    for (const accept of this.held.splice(0, count)) accept();
  }

  totalAttempts(): number {
    return Object.values(this.attempts).reduce((sum, count) => sum + count, 0);
  }

  /** Live subscriptions over all open sockets. */
  liveSubscriptions(path?: Path): FixtureSubscription[] {
    return [...this.sockets].filter((socket) => !path || socket.path === path).flatMap((socket) => socket.subscriptions);
  }

  openSockets(path?: Path): FixtureSocket[] {
    return [...this.sockets].filter((socket) => !path || socket.path === path);
  }

  /** Sends a change for a token (or wallet, on trades-live) to every socket subscribed to it, as the simulator's envelope. */
  change(path: Path, tokenAddress: string, options: { wallet?: string; close?: number; riskStatus?: string } = {}): number {
    const hash = `tx${++this.serial}`;
    const maker = options.wallet ?? 'W1111111111111111111111111111111111111111zz';
    const data =
      path === 'token-feed'
        ? wireToken(tokenAddress, { riskStatus: options.riskStatus ?? 'WARNING' })
        : path === 'chart-live'
          ? wireCandle(1_700_000_000_000 + this.serial * 60_000, options.close ?? 2)
          : path === 'holders-live'
            ? wireHolder(tokenAddress, maker, String(this.serial))
            : wireTrade(tokenAddress, maker, hash);
    const type = { 'token-feed': 'token', 'chart-live': 'candle', 'holders-live': 'holder', 'trades-live': 'trade' }[path];
    const frame = JSON.stringify({ type, tokenAddress, ...(path === 'trades-live' ? { wallet: maker } : {}), data });
    let sent = 0;
    for (const socket of this.sockets) {
      if (socket.path !== path) continue;
      const follows = socket.subscriptions.some(
        (subscription) => subscription.tokenAddress === tokenAddress || (subscription.wallets ?? []).includes(maker),
      );
      if (follows) {
        socket.ws.send(frame);
        sent += 1;
      }
    }
    return sent;
  }

  /** Sends a raw frame to every socket on a path. */
  sendRaw(path: Path, frame: string | Buffer, binary = false): void {
    for (const socket of this.openSockets(path)) socket.ws.send(frame, { binary });
  }

  /** Cuts every socket without a close frame, as a network loss or a crashed server would. */
  dropAll(): void {
    for (const socket of this.sockets) socket.ws.terminate();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.ws.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(ws: WebSocket, path: Path): void {
    const socket: FixtureSocket = { path, ws, subscriptions: [], received: [] };
    this.sockets.add(socket);
    ws.on('close', () => this.sockets.delete(socket));
    ws.on('message', (data) => this.onMessage(socket, data.toString()));
  }

  private onMessage(socket: FixtureSocket, text: string): void {
    // Like a server that stops reading once it has decided to close.
    if (socket.ws.readyState !== socket.ws.OPEN) return;
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return this.refuse(socket, 4000, 'malformed subscription');
    }
    socket.received.push(message);
    this.messages.push(message);
    const tokenAddress = typeof message.tokenAddress === 'string' ? message.tokenAddress : null;
    const wallets = Array.isArray(message.wallets) ? message.wallets.filter((item): item is string => typeof item === 'string') : null;
    if (message.action === 'unsubscribe') {
      socket.subscriptions = socket.subscriptions.filter((subscription) =>
        tokenAddress !== null
          ? subscription.tokenAddress !== tokenAddress
          : JSON.stringify(subscription.wallets) !== JSON.stringify(wallets),
      );
      return;
    }
    if (message.apiKey !== this.apiKey) {
      socket.ws.close(4001, 'invalid api key');
      return;
    }
    if (tokenAddress === null && (wallets === null || wallets.length === 0)) return this.refuse(socket, 4000, 'malformed subscription');
    if (this.options.closeOnSubscribe !== undefined) {
      socket.ws.close(this.options.closeOnSubscribe, 'going away');
      return;
    }
    if (tokenAddress !== null && this.unknownTokens.has(tokenAddress)) return this.refuse(socket, 4004, 'unknown token');
    if (tokenAddress !== null && this.options.malformedTokens?.includes(tokenAddress))
      return this.refuse(socket, 4000, 'malformed subscription');
    if (this.options.onePerSocket !== undefined && socket.subscriptions.length >= 1) {
      if (this.options.onePerSocket === 'close') return this.refuse(socket, 4000, 'one subscription per connection');
      if (this.options.onePerSocket === 'error')
        socket.ws.send(JSON.stringify({ type: 'error', error: 'Bad Request', message: 'one subscription per connection' }));
      return;
    }
    socket.subscriptions.push({ tokenAddress, wallets });
    socket.ws.send(
      JSON.stringify({ type: 'subscribed', stream: socket.path, ...(tokenAddress !== null ? { tokenAddress } : { wallets }) }),
    );
    if (this.options.snapshots === false || tokenAddress === null) return;
    socket.ws.send(JSON.stringify(this.snapshot(socket.path, tokenAddress)));
  }

  private snapshot(path: Path, tokenAddress: string): Record<string, unknown> {
    switch (path) {
      case 'token-feed':
        return { type: 'token', tokenAddress, snapshot: true, data: wireToken(tokenAddress) };
      case 'chart-live':
        return { type: 'candle', tokenAddress, snapshot: true, data: wireCandle(1_700_000_000_000) };
      case 'holders-live':
        return {
          type: 'holder',
          tokenAddress,
          snapshot: true,
          data: wireHolder(tokenAddress, 'W1111111111111111111111111111111111111111zz'),
        };
      case 'trades-live':
        return {
          type: 'trade',
          tokenAddress,
          snapshot: true,
          data: wireTrade(tokenAddress, 'W1111111111111111111111111111111111111111zz', 'snap'),
        };
    }
  }

  private refuse(socket: FixtureSocket, code: number, error: string): void {
    socket.ws.send(JSON.stringify({ type: 'error', error, message: `${error} (fixture)` }));
    socket.ws.close(code, error);
  }
}
