/**
 * The operators' HTTP server over a real socket: the three paths, 503 with the report when not
 * ready, 404 for any other path and 405 for another method, HEAD without a body, and a port already
 * taken stopping start-up with one line.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log';
import { OpsServerError, startOpsServer, type OpsServer } from '../../src/ops/httpServer';
import type { ReadinessReport } from '../../src/ops/readiness';

const servers: OpsServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const READY: ReadinessReport = {
  ready: true,
  notReady: [],
  checks: { store: { ok: true }, chats: { ok: true, connected: ['console'] }, streams: { ok: true, sockets: 1, open: 1 } },
};

async function start(report: () => ReadinessReport, counts = { metrics: 0, readiness: 0 }): Promise<string> {
  const server = await startOpsServer({
    host: '127.0.0.1',
    port: 0,
    readiness: async () => {
      counts.readiness += 1;
      return report();
    },
    metrics: async () => {
      counts.metrics += 1;
      return {
        text: '# HELP tokenwatch_x x\n# TYPE tokenwatch_x gauge\ntokenwatch_x 1\n',
        contentType: 'text/plain; version=0.0.4; charset=utf-8',
      };
    },
    logger: silentLogger,
  });
  servers.push(server);
  return server.address;
}

describe('the operators’ HTTP server', () => {
  it('answers /healthz, /readyz and /metrics, a query string ignored', async () => {
    const address = await start(() => READY);
    const health = await fetch(`${address}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, 'ok\n']);
    const ready = await fetch(`${address}/readyz?verbose=1`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual(READY);
    const metrics = await fetch(`${address}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    expect(await metrics.text()).toContain('tokenwatch_x 1');
  });

  it('answers 503 with the report naming what is not ready, and 200 once it is', async () => {
    let report: ReadinessReport = {
      ...READY,
      ready: false,
      notReady: ['streams'],
      checks: { ...READY.checks, streams: { ok: false, reason: '1 of 1 stream sockets failed', sockets: 1, open: 0 } },
    };
    const address = await start(() => report);
    const answer = await fetch(`${address}/readyz`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({
      ready: false,
      notReady: ['streams'],
      checks: { streams: { reason: '1 of 1 stream sockets failed' } },
    });
    report = READY;
    expect((await fetch(`${address}/readyz`)).status).toBe(200);
  });

  it('answers 404 for any other path and 405 for another method, without asking the bot anything', async () => {
    const counts = { metrics: 0, readiness: 0 };
    const address = await start(() => READY, counts);
    for (const path of ['/', '/healthz/', '/metrics/x', '/readyz.json', '/metrics%00', '/HEALTHZ'])
      expect((await fetch(`${address}${path}`)).status, path).toBe(404);
    const post = await fetch(`${address}/metrics`, { method: 'POST', body: 'x'.repeat(100_000) });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(counts).toEqual({ metrics: 0, readiness: 0 });
    const head = await fetch(`${address}/healthz`, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it('stops start-up with one line when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const failure = await startOpsServer({
        host: '127.0.0.1',
        port,
        readiness: async () => READY,
        metrics: async () => ({ text: '', contentType: 'text/plain' }),
        logger: silentLogger,
      }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(OpsServerError);
      expect((failure as Error).message).toBe(
        `HTTP_PORT ${port} on HTTP_HOST 127.0.0.1 is in use: the operators' HTTP server cannot start`,
      );
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });
});
