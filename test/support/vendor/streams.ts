/**
 * The replay's WebSocket side, as the vendor's stream pages show it (real-service.md):
 *
 * 1. The key in the `x-api-key` header of the upgrade. Missing or wrong: HTTP 401 on the upgrade.
 *    The vendor shows no answer to a wrong key; the 401 is our choice.
 * 2. A welcome as soon as the socket opens: `{"type":"connected","message":"Connected to TradesLive WebSocket. ..."}`.
 * 3. `{"tokenAddress":"<token>"}` (other fields, the spec's `apiKey` among them, ignored; chart-live reads
 *    `timeframe`, seconds, default 60) answered `{"type":"subscriptionConfirmed","message":"Subscribed to <token>"}`.
 *    token-feed takes `{"type":"setFilters","filters":{...}}` instead and answers `Filters applied`.
 * 4. Data messages carry `event`; no snapshot follows a confirmation.
 *
 * Our choices where the vendor shows nothing:
 * - A token the service does not hold is confirmed all the same (the vendor shows no refusal).
 * - One socket may hold several subscriptions; subscribing again to a token confirms again.
 * - There is no unsubscribe: a message with an `action` (or a `type`, on the three token paths) is
 *   recorded and otherwise ignored, so an "unsubscribe" neither ends nor renews the subscription and
 *   the token's events keep coming. A message the replay cannot read gets no answer either.
 * - token-feed ignores `{"tokenAddress"}` (the spec's form): it is market-wide, not per token.
 * - With `confirm` off, subscriptions are recorded but neither confirmed nor taken (no data follows).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { isJsonObject, type JsonObject } from './wire';

export const STREAM_PATHS = ['/ws/trades-live', '/ws/chart-live', '/ws/holders-live', '/ws/token-feed'] as const;
export type StreamPath = (typeof STREAM_PATHS)[number];

const WELCOME: Record<StreamPath, string> = {
  '/ws/trades-live': 'Connected to TradesLive WebSocket. Send a JSON object with "tokenAddress".',
  '/ws/chart-live': 'Connected to ChartLive WebSocket. Send a JSON object with "tokenAddress".',
  '/ws/holders-live': 'Connected to HoldersLive WebSocket. Send a JSON object with "tokenAddress".',
  // The page's hint for token-feed is not quoted anywhere: ours names its subscription.
  '/ws/token-feed': 'Connected to TokenFeed WebSocket. Send a JSON object with "type": "setFilters".',
};

export const DEFAULT_TIMEFRAME = 60;

export interface SeenUpgrade {
  path: string;
  query: Record<string, string>;
  /** The `x-api-key` header as sent, or null when absent. */
  apiKeyHeader: string | null;
}

export interface SeenMessage {
  path: StreamPath;
  text: string;
}

interface SocketState {
  path: StreamPath;
  /** Token → the timeframe it was confirmed with (chart-live; 0 elsewhere). */
  tokens: Map<string, number>;
  /** token-feed: the filters applied, once confirmed. */
  filters: JsonObject | null;
}

export function isStreamPath(path: string): path is StreamPath {
  return (STREAM_PATHS as readonly string[]).includes(path);
}

export class VendorStreams {
  readonly upgrades: SeenUpgrade[] = [];
  readonly messages: SeenMessage[] = [];
  confirm: boolean;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sockets = new Map<WebSocket, SocketState>();

  constructor(
    private readonly apiKey: string,
    confirm: boolean,
    private readonly changed: () => void,
  ) {
    this.confirm = confirm;
  }

  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const header = request.headers['x-api-key'];
    const apiKeyHeader = typeof header === 'string' ? header : null;
    this.upgrades.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), apiKeyHeader });
    this.changed();
    const path = url.pathname;
    if (!isStreamPath(path)) return refuse(socket, 404, 'Not Found');
    if (apiKeyHeader !== this.apiKey) return refuse(socket, 401, 'Unauthorized');
    this.wss.handleUpgrade(request, socket, head, (ws) => this.open(ws, path));
  }

  private open(ws: WebSocket, path: StreamPath): void {
    const state: SocketState = { path, tokens: new Map(), filters: null };
    this.sockets.set(ws, state);
    ws.on('error', () => undefined);
    ws.on('close', () => {
      this.sockets.delete(ws);
      this.changed();
    });
    ws.on('message', (data, isBinary) => {
      const text = textOf(data);
      this.messages.push({ path, text });
      if (!isBinary) this.receive(ws, state, text);
      this.changed();
    });
    ws.send(JSON.stringify({ type: 'connected', message: WELCOME[path] }));
    this.changed();
  }

  private receive(ws: WebSocket, state: SocketState, text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (!isJsonObject(message) || 'action' in message) return;
    if (state.path === '/ws/token-feed') {
      if (message.type !== 'setFilters' || !isJsonObject(message.filters) || !this.confirm) return;
      state.filters = message.filters;
      return confirmed(ws, 'Filters applied');
    }
    const token = message.tokenAddress;
    if ('type' in message || typeof token !== 'string' || token.trim() === '' || !this.confirm) return;
    if (state.path !== '/ws/chart-live') {
      state.tokens.set(token, 0);
      return confirmed(ws, `Subscribed to ${token}`);
    }
    const timeframe = readTimeframe(message.timeframe);
    state.tokens.set(token, timeframe);
    confirmed(ws, `Subscribed to ${token} with ${timeframe}s timeframe`);
  }

  /** Sends `text` to every socket of `path` confirmed for `token` (and `timeframe`, on chart-live); returns how many. */
  toSubscribers(path: StreamPath, token: string, text: string, timeframe?: number): number {
    return this.sendWhere(
      path,
      text,
      (state) => state.tokens.has(token) && (timeframe === undefined || state.tokens.get(token) === timeframe),
    );
  }

  /** Sends `text` to every token-feed socket whose filters were applied. */
  toFeed(text: string): number {
    return this.sendWhere('/ws/token-feed', text, (state) => state.filters !== null);
  }

  /** Sends `text` as it is to every open socket of `path`, subscribed or not. */
  raw(path: StreamPath, text: string): number {
    return this.sendWhere(path, text, () => true);
  }

  /** Open sockets confirmed for `token` on `path`; without a token, those with any confirmed subscription. */
  subscribers(path: StreamPath, token?: string): number {
    let count = 0;
    for (const state of this.sockets.values()) {
      if (state.path !== path) continue;
      const subscribed = token === undefined ? state.tokens.size > 0 || state.filters !== null : state.tokens.has(token);
      if (subscribed) count += 1;
    }
    return count;
  }

  openSockets(path?: StreamPath): number {
    return [...this.sockets.values()].filter((state) => path === undefined || state.path === path).length;
  }

  /** Closes the sockets of `path` (all paths without one) with `code`; the close frame is the server's. */
  disconnect(path?: StreamPath, code = 1001): void {
    for (const [ws, state] of this.sockets) if (path === undefined || state.path === path) ws.close(code);
  }

  async close(): Promise<void> {
    for (const ws of this.sockets.keys()) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private sendWhere(path: StreamPath, text: string, wanted: (state: SocketState) => boolean): number {
    let count = 0;
    for (const [ws, state] of this.sockets) {
      if (state.path !== path || ws.readyState !== WebSocket.OPEN || !wanted(state)) continue;
      ws.send(text);
      count += 1;
    }
    return count;
  }
}

function confirmed(ws: WebSocket, message: string): void {
  ws.send(JSON.stringify({ type: 'subscriptionConfirmed', message }));
}

function readTimeframe(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : DEFAULT_TIMEFRAME;
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

function refuse(socket: Duplex, status: 401 | 404, reason: string): void {
  const body = JSON.stringify({ error: reason });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
