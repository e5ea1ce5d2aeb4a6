import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { registerSecret } from '../../src/log';
import {
  HttpTransport,
  errorForResponse,
  parseRetryAfter,
  readRateLimit,
  resetTimeMs,
  transportError,
  type HttpResponse,
} from '../../src/market/http';
import { waitFor } from './stream/support/wait';

const KEY = 'http-test-key-40b2e8f1';
registerSecret(KEY);

function response(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers, body: typeof body === 'string' ? body : JSON.stringify(body), elapsedMs: 3 };
}

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads delay-seconds, fractions included', () => {
    expect(parseRetryAfter('12', now)).toBe(12_000);
    expect(parseRetryAfter(' 0.5 ', now)).toBe(500);
    expect(parseRetryAfter('0', now)).toBe(0);
  });
  it('reads an HTTP date', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });
});

describe('rate-limit headers', () => {
  const now = 1_700_000_000_000;
  it('tells Unix seconds, Unix milliseconds and seconds-from-now apart', () => {
    expect(resetTimeMs('1700000030', now)).toBe(1_700_000_030_000);
    expect(resetTimeMs('1700000030000', now)).toBe(1_700_000_030_000);
    expect(resetTimeMs('30', now)).toBe(now + 30_000);
    expect(resetTimeMs('x', now)).toBeNull();
  });
  it('reads both header families', () => {
    expect(readRateLimit({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000030' }, now)).toEqual({
      remaining: 0,
      resetAtMs: 1_700_000_030_000,
    });
    expect(readRateLimit({ 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '1700000030' }, now)).toEqual({
      remaining: 3,
      resetAtMs: 1_700_000_030_000,
    });
    expect(readRateLimit({ 'ratelimit-remaining': '0', 'ratelimit-reset': '7' }, now)).toEqual({ remaining: 0, resetAtMs: now + 7_000 });
  });
  it('ignores incomplete or unreadable headers', () => {
    expect(readRateLimit({ 'x-ratelimit-remaining': '0' }, now)).toBeNull();
    expect(readRateLimit({ 'x-ratelimit-remaining': 'lots', 'x-ratelimit-reset': '5' }, now)).toBeNull();
    expect(readRateLimit({}, now)).toBeNull();
  });
});

describe('errorForResponse', () => {
  it.each([
    [400, { error: 'Invalid token address', message: 'The address is not a valid base58 address' }, 'invalid-address'],
    [400, { error: 'Token address is required' }, 'missing-parameter'],
    [400, { error: 'Missing parameter', message: 'Supply address or addresses' }, 'missing-parameter'],
    [400, { error: 'Invalid interval', message: 'intervalSecs must be a positive integer' }, 'invalid-parameter'],
    [400, { error: 'Too many addresses', message: 'At most 50 wallets per request (got 51)' }, 'invalid-parameter'],
    [400, { error: 'Invalid parameter', message: 'Invalid sortBy: use one of balance, holderSince' }, 'invalid-parameter'],
    [400, { error: 'No wallet addresses provided: wallets (comma-separated wallet addresses) is required' }, 'missing-parameter'],
    [400, 'plain text', 'invalid-parameter'],
    [401, { error: 'Unauthorized', message: 'Invalid API key' }, 'unauthorized'],
    [403, {}, 'unauthorized'],
    [404, { error: 'Not found' }, 'not-found'],
    [408, '', 'timeout'],
    [429, { error: 'Too many requests' }, 'rate-limited'],
    [500, { error: 'Internal server error' }, 'upstream'],
    [503, '<html>down</html>', 'upstream'],
    [302, '', 'upstream'],
    [418, '', 'upstream'],
  ] as const)('maps %i %j to %s', (status, body, kind) => {
    const error = errorForResponse('token-technicals', response(status, body));
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.endpoint).toBe('token-technicals');
  });

  it('reads the wait of a 429 from Retry-After, else from the reset header', () => {
    expect(errorForResponse('token-technicals', response(429, {}, { 'retry-after': '12' })).retryAfterMs).toBe(12_000);
    const fromReset = errorForResponse(
      'token-technicals',
      response(429, {}, { 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 20) }),
    );
    expect(fromReset.retryAfterMs).toBeGreaterThan(18_000);
    expect(fromReset.retryAfterMs).toBeLessThanOrEqual(20_000);
    expect(fromReset.userMessage).toMatch(/try again in (19|20) s\.$/);
  });

  it('reads the wait of a 5xx from Retry-After, and only from there', () => {
    const unavailable = errorForResponse('token-data', response(503, { error: 'Service Unavailable' }, { 'retry-after': '12' }));
    expect(unavailable).toMatchObject({ kind: 'upstream', status: 503, retryAfterMs: 12_000 });
    expect(unavailable.userMessage).toBe('The market data service failed to answer; try again in 12 s.');
    expect(
      errorForResponse('token-data', response(500, {}, { 'retry-after': 'Wed, 01 Jan 2099 00:00:00 GMT' })).retryAfterMs,
    ).toBeGreaterThan(0);
    expect(errorForResponse('token-data', response(502, {})).retryAfterMs).toBeNull();
    // The rate-limit reset says when a 429 window turns, not when a failing service is back.
    expect(errorForResponse('token-data', response(503, {}, { 'x-ratelimit-reset': '30' })).retryAfterMs).toBeNull();
    expect(errorForResponse('token-data', response(418, {}, { 'retry-after': '5' })).retryAfterMs).toBeNull();
  });

  it('keeps an excerpt of the body without the key', () => {
    const error = errorForResponse('token-data', response(500, { error: 'boom', echo: { 'x-api-key': KEY } }));
    expect(JSON.stringify(error.details)).not.toContain(KEY);
    expect(error.message).not.toContain(KEY);
    expect(String(error.details.body)).toContain('[redacted]');
  });

  it('keeps an excerpt without a key that JSON escaping disguised', () => {
    const quoted = 'http-"quoted\\key-9c3e';
    registerSecret(quoted);
    const body = JSON.stringify({ error: 'bad key', echo: quoted });
    expect(body).not.toContain(quoted);
    const error = errorForResponse('token-data', response(500, body));
    expect(String(error.details.body)).toContain('[redacted]');
    expect(JSON.stringify(error.details)).not.toContain(JSON.stringify(quoted).slice(1, -1));
  });
});

describe('transportError', () => {
  const context = { path: '/api/token-data', elapsedMs: 1, closed: false };
  it.each([
    ['UND_ERR_CONNECT_TIMEOUT', 'timeout'],
    ['UND_ERR_HEADERS_TIMEOUT', 'timeout'],
    ['UND_ERR_BODY_TIMEOUT', 'timeout'],
    ['ECONNREFUSED', 'unreachable'],
    ['ECONNRESET', 'unreachable'],
    ['UND_ERR_SOCKET', 'unreachable'],
    ['UND_ERR_RES_EXCEEDED_MAX_SIZE', 'unreadable'],
    ['ESOMETHINGELSE', 'unreachable'],
  ])('maps %s to %s', (code, kind) => {
    const error = Object.assign(new Error(`failed ${code}`), { code });
    const mapped = transportError('token-data', error, context);
    expect(mapped.kind).toBe(kind);
    expect(mapped.details.code).toBe(code);
    expect(mapped.status).toBeNull();
  });

  it('reports a closed client as such', () => {
    const mapped = transportError('token-data', new Error('aborted'), { ...context, closed: true });
    expect(mapped.kind).toBe('unreachable');
    expect(mapped.details.closed).toBe(true);
  });
});

describe('HttpTransport aborts', () => {
  /** A server that takes requests and never answers; it counts the requests it took. */
  async function silentServer(): Promise<{ url: string; requests: () => number; close: () => void }> {
    let requests = 0;
    const server = createServer(() => {
      requests += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      requests: () => requests,
      close: () => {
        server.closeAllConnections();
        server.close();
      },
    };
  }
  const options = { apiKey: KEY, connectTimeoutMs: 1_000, headersTimeoutMs: 5_000, bodyTimeoutMs: 5_000, connections: 2 };

  it('ends a request at its deadline as a timeout', async () => {
    const server = await silentServer();
    const transport = new HttpTransport({ ...options, baseUrl: server.url });
    try {
      const failure = await transport
        .get('token-data', { address: 'x' }, { timeoutMs: 50, maxBytes: 1_000 })
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ kind: 'timeout', details: { phase: 'attempt', timeoutMs: 50, closed: false } });
    } finally {
      await transport.close();
      server.close();
    }
  });

  it('reads a body that comes in pieces, and reports one cut off half way as unreachable', async () => {
    const [head, rest] = ['{"data":', '{"a":"bcdefghijkl"}}'];
    let cut = false;
    const server = createServer((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(head.length + rest.length) });
      res.write(head);
      if (cut) {
        setTimeout(() => res.destroy(), 20);
        return;
      }
      setTimeout(() => res.end(rest), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const transport = new HttpTransport({ ...options, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    try {
      const whole = await transport.get('token-data', { address: 'x' }, { timeoutMs: 5_000, maxBytes: 1_000 });
      expect(whole).toMatchObject({ status: 200, body: head + rest });
      cut = true;
      const failure = await transport
        .get('token-data', { address: 'x' }, { timeoutMs: 5_000, maxBytes: 1_000 })
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ kind: 'unreachable', details: { closed: false } });
    } finally {
      await transport.close();
      server.closeAllConnections();
      server.close();
    }
  });

  it('aborts a request on its way when it closes, and refuses later ones, as closed', async () => {
    const server = await silentServer();
    const transport = new HttpTransport({ ...options, baseUrl: server.url });
    try {
      // A deadline far past the test's own: only the close can end this request.
      const pending = transport
        .get('token-data', { address: 'x' }, { timeoutMs: 600_000, maxBytes: 1_000 })
        .catch((error: unknown) => error);
      await waitFor(() => server.requests() === 1, 'the request at the server');
      await transport.close();
      expect(await pending).toMatchObject({
        kind: 'unreachable',
        message: expect.stringContaining('the client was closed'),
        details: { closed: true },
      });
      const later = await transport
        .get('token-data', { address: 'x' }, { timeoutMs: 5_000, maxBytes: 1_000 })
        .catch((error: unknown) => error);
      expect(later).toMatchObject({ kind: 'unreachable', details: { closed: true } });
    } finally {
      server.close();
    }
  });
});
