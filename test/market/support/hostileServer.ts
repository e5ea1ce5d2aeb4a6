/**
 * A small HTTP server on 127.0.0.1 that misbehaves on purpose, for the client's tests against a
 * broken or hostile service: each request goes to the handler the test set, which may answer
 * anything, trickle a body, or never finish. Every request is recorded. Not the simulator: the
 * simulator plays a correct service, this plays whatever a test needs.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type HostileHandler = (
  request: { path: string; endpoint: string; query: URLSearchParams },
  res: ServerResponse,
  req: IncomingMessage,
) => void;

export interface HostileServer {
  readonly url: string;
  /** Paths requested, in order. */
  readonly seen: string[];
  handle: HostileHandler;
  /** Requests seen for one endpoint. */
  count(endpoint: string): number;
  close(): Promise<void>;
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** Sends the status line and headers at once, then one byte of a JSON body every `everyMs`, never ending. */
export function trickle(res: ServerResponse, everyMs: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[');
  const timer = setInterval(() => {
    if (res.destroyed) clearInterval(timer);
    else res.write(' ');
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}

export async function startHostileServer(
  handle: HostileHandler = (_request, res) => json(res, 404, { error: 'Not Found' }),
): Promise<HostileServer> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const state = { handle };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    seen.push(url.pathname + url.search);
    state.handle({ path: url.pathname, endpoint: url.pathname.replace(/^\/api\//, ''), query: url.searchParams }, res, req);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    get handle() {
      return state.handle;
    },
    set handle(next: HostileHandler) {
      state.handle = next;
    },
    count: (endpoint) => seen.filter((path) => path.startsWith(`/api/${endpoint}`)).length,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
