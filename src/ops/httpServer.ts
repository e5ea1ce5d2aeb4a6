/**
 * The operators' HTTP server (HTTP_PORT, HTTP_HOST), separate from Telegram's webhook server:
 *
 *   GET /healthz  200 while the event loop turns (liveness: nothing else is asked, so a service
 *                 that is down never makes a supervisor restart the bot in a loop)
 *   GET /readyz   200 when the store, a chat and the streams are up, else 503 naming what is not
 *                 (src/ops/readiness.ts); JSON either way
 *   GET /metrics  Prometheus text (src/ops/metrics.ts)
 *
 * Anything else is 404 (405 for another method on these paths), answered here without touching the
 * bot's work. The server reads no request body, and a request that takes long to send its headers
 * is dropped, so a caller cannot hold it open.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorText, type Logger } from '../log';
import type { Readiness } from './readiness';

export interface OpsServerOptions {
  host: string;
  port: number;
  readiness: Readiness;
  /** The exposition text and its content type. */
  metrics: () => Promise<{ text: string; contentType: string }>;
  logger: Logger;
}

export interface OpsServer {
  /** http://host:port, the port the server got (the one asked for, or a free one for 0). */
  readonly address: string;
  close(): Promise<void>;
}

/** The server could not listen (the port taken, an address not on this machine): start-up stops with this line. */
export class OpsServerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpsServerError';
  }
}

const PATHS = new Set(['/healthz', '/readyz', '/metrics']);

function answer(res: ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function json(res: ServerResponse, status: number, value: unknown): void {
  answer(res, status, 'application/json; charset=utf-8', `${JSON.stringify(value)}\n`);
}

/** The path of a request target, without its query; null for one that is no path. */
function pathOf(target: string | undefined): string | null {
  if (target === undefined || !target.startsWith('/')) return null;
  const end = target.search(/[?#]/);
  return end < 0 ? target : target.slice(0, end);
}

export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const { logger } = options;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = pathOf(req.url);
    if (path === null || !PATHS.has(path)) return json(res, 404, { error: 'not found', paths: [...PATHS] });
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return answer(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n', { allow: 'GET, HEAD' });
    if (path === '/healthz') return answer(res, 200, 'text/plain; charset=utf-8', 'ok\n');
    if (path === '/readyz') {
      const report = await options.readiness();
      return json(res, report.ready ? 200 : 503, report);
    }
    const { text, contentType } = await options.metrics();
    return answer(res, 200, contentType, text);
  };

  const server = createServer((req, res) => {
    // The body, if any, is never read: drained so the connection can be reused.
    req.resume();
    handle(req, res).catch((error: unknown) => {
      logger.error({ path: pathOf(req.url)?.slice(0, 40) ?? null, error: errorText(error) }, 'operators’ HTTP request failed');
      if (!res.headersSent) json(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });
  server.headersTimeout = 5_000;
  server.requestTimeout = 10_000;
  // Kept short: a scraper reconnects cheaply, and a stop need not wait for idle sockets.
  server.keepAliveTimeout = 5_000;

  server.listen(options.port, options.host);
  try {
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error as Error))]);
  } catch (error) {
    server.close();
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    const why =
      code === 'EADDRINUSE'
        ? 'is in use'
        : code === 'EADDRNOTAVAIL'
          ? 'is no address of this machine'
          : code === 'EACCES'
            ? 'needs privileges the bot does not have'
            : `cannot be listened on (${code || errorText(error)})`;
    throw new OpsServerError(`HTTP_PORT ${options.port} on HTTP_HOST ${options.host} ${why}: the operators' HTTP server cannot start`);
  }
  server.on('error', (error) => logger.error({ error: errorText(error) }, 'operators’ HTTP server failed'));
  const { address, port } = server.address() as AddressInfo;
  const shown = address.includes(':') ? `[${address}]` : address;
  logger.info({ address: `http://${shown}:${port}`, paths: [...PATHS] }, 'operators’ HTTP server listening');

  return {
    address: `http://${shown}:${port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
