/**
 * The simulator's HTTP server (node:http, keep-alive): routes /api/* to the endpoints, checks the
 * API key, applies the token-technicals rate limit and injected faults, records every request,
 * and never lets a failure escape as a crash. WebSocket streams and scenario controls attach to
 * the same server and share its context (market, faults, stats).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { isRestEndpoint, type RestEndpoint, type WsStream } from './endpoints';
import { keyMatches } from './auth';
import { controlNames, createControls, serveControl, type Controls } from './controls';
import { MarketDriver } from './driver';
import { PaceSchema, tradesOnly, type Pace } from './pace';
import { FaultInjector, type FaultConfig } from './faults';
import { DEFAULT_SEED, Market } from './market';
import { ApiError } from './params';
import { FixedWindowLimiter, type RateLimitConfig } from './rateLimit';
import { ROUTES, errorBody } from './routes';
import { RequestStats, type LoggedRequest } from './stats';
import { mixSeed } from './random';
import { isSimulatorProtocol, type SimulatorProtocol } from './protocol';
import type { SocketsView } from './socketKeeper';
import { StreamHub, type StreamOptions } from './streams';
import { VendorStreamHub } from './vendorStreams';
import type { WireStyle } from './wireStyle';

export type { FaultConfig, EndpointFaults } from './faults';
export type { Controls, TokenSummary } from './controls';
export type { StreamOptions } from './streams';
export type { WireStyle } from './wireStyle';
export type { SimulatorProtocol } from './protocol';

export interface SimulatorOptions {
  /** 0 or absent: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  apiKey: string;
  /** Default 42. */
  seed?: number;
  /** Serve scenario controls (POST /_control/...). */
  control?: boolean;
  faults?: FaultConfig;
  /** Default { limit: 100, windowMs: 60_000 } per API key. */
  technicalsLimit?: { limit: number; windowMs: number };
  /** Trades the market makes by itself per second; default 0 (a still market). `pace` overrides it. */
  tradesPerSecond?: number;
  /** How the market moves by itself (pace.ts): the built-in simulator's lifelike pace, or trades only. */
  pace?: Pace;
  /** Clock in Unix milliseconds for the market and the rate limit; default Date.now. */
  now?: () => number;
  /** Heartbeat, buffer and size limits of the WebSocket streams (defaults in streams.ts). */
  streams?: StreamOptions;
  /** How tokens are written: as the spec's tables (default) or as the live service does (wireStyle.ts); vendor writes `real`. */
  style?: WireStyle;
  /**
   * Whose protocol to speak (protocol.ts): the spec's (default), or the real vendor's
   * (shared/spec/real-service.md): header auth on streams, welcome and confirmation, `event`
   * messages without snapshots, token-feed as a filtered feed of launched tokens, token-data as recorded.
   */
  protocol?: SimulatorProtocol;
}

export interface RunningSimulator {
  /** 'http://127.0.0.1:PORT', no trailing slash; REST under `${baseUrl}/api/...`. */
  baseUrl: string;
  /** 'ws://127.0.0.1:PORT' */
  wsUrl: string;
  /** The protocol it speaks. */
  protocol: SimulatorProtocol;
  market: Market;
  faults: { set(config: FaultConfig): void; clear(): void };
  stats: {
    count(endpoint?: RestEndpoint): number;
    requests(endpoint?: RestEndpoint): Array<{ endpoint: RestEndpoint; query: Record<string, string>; status: number }>;
    reset(): void;
  };
  /** The live streams at /ws/*. */
  streams: {
    /** Live subscriptions of one stream, or of all. */
    subscriptionCount(stream?: WsStream): number;
    /** WebSockets accepted and not yet closed. */
    socketCount(): number;
    /** Cuts every WebSocket abruptly, without a close frame. */
    drop(): void;
  };
  /** Scenario controls, in-process (always available; over HTTP only with `control: true`). */
  controls: Controls;
  /** The market's own movement: its clock, its speed, its surprises as they happen. */
  driver: Pick<MarketDriver, 'setSpeed' | 'advance' | 'elapsedMs' | 'onSurprise'>;
  /** Closes the server and every socket promptly. */
  close(): Promise<void>;
}

/** Everything a request handler (REST now, streams and controls alongside) needs. */
export interface SimulatorContext {
  apiKey: string;
  control: boolean;
  market: Market;
  faults: FaultInjector;
  stats: RequestStats;
  technicalsLimiter: FixedWindowLimiter;
  clock: () => number;
  /** Aborted when the simulator closes, to cut injected delays short. */
  closing: AbortSignal;
  controls: Controls;
  protocol: SimulatorProtocol;
}

/** What the server needs of either protocol's streams. */
interface StreamServer {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
  readonly sockets: SocketsView;
}

export const DEFAULT_TECHNICALS_LIMIT: RateLimitConfig = { limit: 100, windowMs: 60_000 };

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

function send(res: ServerResponse, reply: Reply, bodyOverride?: string): void {
  if (res.destroyed || res.headersSent) return;
  const text = bodyOverride ?? JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...reply.headers,
  });
  res.end(text);
}

/** The real answer of an /api/ request: auth, rate limit, then the endpoint. */
function answer(context: SimulatorContext, endpoint: RestEndpoint, req: IncomingMessage, query: URLSearchParams): Reply {
  if (!keyMatches(req.headers['x-api-key'], context.apiKey)) {
    return {
      status: 401,
      body: { error: 'Unauthorized', message: 'A valid API key is required in the x-api-key header' },
    };
  }
  let headers: Record<string, string> | undefined;
  if (endpoint === 'token-technicals') {
    const decision = context.technicalsLimiter.take(context.apiKey);
    headers = FixedWindowLimiter.headers(decision, context.clock());
    if (!decision.allowed) {
      return {
        status: 429,
        headers,
        body: {
          error: 'Too Many Requests',
          message: `Rate limit of ${decision.limit} requests per window exceeded; retry after ${headers['Retry-After']} s`,
        },
      };
    }
  }
  try {
    return { status: 200, body: ROUTES[endpoint](context.market, query), ...(headers ? { headers } : {}) };
  } catch (error) {
    if (error instanceof ApiError) {
      return { status: error.status, body: errorBody(endpoint, error.title, error.message), ...(headers ? { headers } : {}) };
    }
    return {
      status: 500,
      body: errorBody(endpoint, 'Internal Server Error', 'Internal server error'),
      ...(headers ? { headers } : {}),
    };
  }
}

async function handleApi(
  context: SimulatorContext,
  endpoint: RestEndpoint,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) if (!(name in query)) query[name] = value;
  const logged: LoggedRequest = context.stats.begin(endpoint, query);
  const reply = (r: Reply, body?: string) => {
    logged.status = r.status;
    send(res, r, body);
  };
  if (req.method !== 'GET') {
    reply({ status: 405, headers: { Allow: 'GET' }, body: { error: 'Method Not Allowed', message: 'Only GET is supported' } });
    return;
  }
  const fault = context.faults.decide(endpoint);
  if (fault.latencyMs > 0) {
    try {
      await sleep(fault.latencyMs, undefined, { signal: context.closing });
    } catch {
      return;
    }
  }
  switch (fault.outcome) {
    case 'reset':
      logged.status = 0;
      req.socket.destroy();
      return;
    case '500':
      reply({ status: 500, body: errorBody(endpoint, 'Internal Server Error', 'Internal server error (injected fault)') });
      return;
    case '429':
      reply({
        status: 429,
        headers: { 'Retry-After': String(fault.retryAfterSecs) },
        body: { error: 'Too Many Requests', message: `Rate limited (injected fault); retry after ${fault.retryAfterSecs} s` },
      });
      return;
    case 'malformed': {
      const real = answer(context, endpoint, req, url.searchParams);
      const text = JSON.stringify(real.body);
      reply({ ...real, status: 200 }, text.slice(0, Math.max(1, Math.floor(text.length / 2))));
      return;
    }
    case 'ok':
      reply(answer(context, endpoint, req, url.searchParams));
      return;
  }
}

function handle(context: SimulatorContext, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://simulator.invalid');
  const control = /^\/_control\/([^/]*)$/.exec(url.pathname);
  if (control && context.control) {
    serveControl(context.controls, context.apiKey, control[1] ?? '', req, res, controlNames(context.protocol)).catch(() => {
      send(res, { status: 500, body: { error: 'Internal Server Error', message: 'Internal server error' } });
    });
    return;
  }
  const match = /^\/api\/([^/]+)$/.exec(url.pathname);
  const name = match?.[1];
  if (!name || !isRestEndpoint(name)) {
    send(res, { status: 404, body: { error: 'Not Found', message: `No endpoint at ${url.pathname.slice(0, 100)}` } });
    return;
  }
  handleApi(context, name, req, res, url).catch(() => {
    send(res, { status: 500, body: errorBody(name, 'Internal Server Error', 'Internal server error') });
  });
}

export async function startSimulator(options: SimulatorOptions): Promise<RunningSimulator> {
  if (typeof options.apiKey !== 'string' || options.apiKey.length === 0) throw new Error('startSimulator: apiKey is required');
  const protocol = options.protocol ?? 'spec';
  if (!isSimulatorProtocol(protocol)) throw new Error(`startSimulator: protocol must be spec or vendor (got ${String(protocol)})`);
  if (protocol === 'vendor' && options.style === 'spec') {
    throw new Error(
      'startSimulator: the vendor protocol writes tokens as the live service does (style real); style spec is the spec protocol’s',
    );
  }
  const seed = options.seed ?? DEFAULT_SEED;
  const clock = options.now ?? Date.now;
  const market = new Market({ seed, now: clock, style: options.style ?? (protocol === 'vendor' ? 'real' : 'spec'), protocol });
  const faults = new FaultInjector(mixSeed(seed, 7));
  if (options.faults) faults.set(options.faults);
  const closing = new AbortController();
  const streams: StreamServer =
    protocol === 'vendor'
      ? new VendorStreamHub(market, options.apiKey, options.streams)
      : new StreamHub(market, options.apiKey, options.streams);
  const controls = createControls({ market, faults, dropSockets: () => streams.sockets.dropAll() });
  const context: SimulatorContext = {
    apiKey: options.apiKey,
    control: options.control ?? false,
    market,
    faults,
    stats: new RequestStats(),
    technicalsLimiter: new FixedWindowLimiter(options.technicalsLimit ?? DEFAULT_TECHNICALS_LIMIT, clock),
    clock,
    closing: closing.signal,
    controls,
    protocol,
  };

  const sockets = new Set<Socket>();
  const server = createServer({ keepAlive: true }, (req, res) => {
    try {
      handle(context, req, res);
    } catch {
      send(res, { status: 500, body: { error: 'Internal Server Error', message: 'Internal server error' } });
    }
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      streams.handleUpgrade(req, socket, head);
    } catch {
      socket.destroy();
    }
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port ?? 0, host, backlog: 4096 }, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    streams.close();
    throw error;
  });
  const { port } = server.address() as AddressInfo;
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;

  const pace = PaceSchema.parse(options.pace ?? tradesOnly(options.tradesPerSecond ?? 0));
  const driver = new MarketDriver(market, pace, mixSeed(seed, 8));
  driver.start();

  let closed: Promise<void> | null = null;
  return {
    baseUrl: `http://${authority}`,
    wsUrl: `ws://${authority}`,
    protocol,
    market,
    faults: { set: (config) => faults.set(config), clear: () => faults.clear() },
    stats: {
      count: (endpoint) => context.stats.count(endpoint),
      requests: (endpoint) => context.stats.requests(endpoint),
      reset: () => context.stats.reset(),
    },
    streams: {
      subscriptionCount: (stream) => streams.sockets.subscriptionCount(stream),
      socketCount: () => streams.sockets.socketCount(),
      drop: () => streams.sockets.drop(),
    },
    controls,
    driver,
    close() {
      closed ??= new Promise<void>((resolve) => {
        driver.stop();
        streams.close();
        closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}
