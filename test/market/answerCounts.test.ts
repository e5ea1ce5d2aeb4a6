/**
 * What the REST client counts of the service's answers for the operators' metrics: each HTTP
 * attempt by status (one the spec names on its own, any other by its class, `error` when no answer
 * came), and its time handed to the hook.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MarketClient } from '../../src/market/client';
import type { EndpointName } from '../../src/market/endpoints';

const TOKEN = '646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25';
let server: Server | null = null;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())));
  server = null;
});

describe('the REST client’s answer counts', () => {
  it('counts each attempt by status, named, by class, or error, and times each one', async () => {
    const statuses = [404, 418, 429, 0];
    server = createServer((req, res) => {
      const status = statuses.shift() ?? 404;
      // 0: the connection is cut with no answer at all.
      if (status === 0) return req.socket.destroy();
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'no' }));
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const timed: EndpointName[] = [];
    const client = new MarketClient({
      baseUrl,
      apiKey: 'k',
      maxRetries: 0,
      cacheTtlMs: { 'token-data': 0 },
      onAttempt: (endpoint) => timed.push(endpoint),
    });
    try {
      for (let call = 0; call < 4; call++) await client.token(TOKEN).catch(() => undefined);
      expect(client.stats()['token-data'].answers).toEqual({ '404': 1, '4xx': 1, '429': 1, error: 1 });
      expect(client.stats()['token-data'].rateLimited).toBe(1);
      expect(timed).toEqual(['token-data', 'token-data', 'token-data', 'token-data']);
    } finally {
      await client.close();
    }
  });
});
