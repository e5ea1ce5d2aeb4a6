/**
 * The REST client against a local server that misbehaves on purpose (support/hostileServer.ts):
 * waits that would lock an endpoint out, a body that trickles, answers as large as the caps allow,
 * amounts of millions of digits, answers whose every element is unreadable, and error texts that
 * carry control and bidi characters. Each defect has a test that fails on a client without the
 * matching defence; none measures time.
 */
import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { plainText } from '../../src/cards/card';
import { cardForError } from '../../src/cards/errorCard';
import { createLogger } from '../../src/log';
import { MarketClient, type MarketClientOptions } from '../../src/market/client';
import { isMarketError, type MarketError } from '../../src/market/errors';
import { QueryService } from '../../src/query/service';
import { json, startHostileServer, trickle, type HostileServer } from './support/hostileServer';
import { ManualClock } from './support/manualClock';

const KEY = 'hostile-test-key-7c2e91';
const CAP_MS = 30_000;
const YEAR_MS = 365 * 86_400_000;
/** A wait for the server's answer to be read: a bound on a loaded machine, not a speed asked of it. */
const ANSWERED = { timeout: 10_000, interval: 10 };

/** A well-formed base58 address per number (1–9 only: base58 has no 0). */
const address = (n: number) => `Tok${n}`.padEnd(43, 'z');
const wireToken = (addr: string, extra: Record<string, unknown> = {}) => ({
  address: addr,
  decimals: 6,
  name: 'Plain',
  symbol: 'PLN',
  totalSupply: '1000000000',
  ...extra,
});
const wireHolder = (n: number, extra: Record<string, unknown> = {}) => ({
  address: `Hold${n}`.padEnd(43, 'z'),
  currentlyHoldingAmount: '1000',
  ...extra,
});

/** Answers every endpoint as a plain, correct service would. */
function answerWell(request: { endpoint: string; query: URLSearchParams }, res: ServerResponse): void {
  const addresses = (request.query.get('addresses') ?? request.query.get('address') ?? '').split(',').filter(Boolean);
  if (request.endpoint === 'token-data')
    json(res, 200, { statusCode: 200, data: Object.fromEntries(addresses.map((a) => [a, wireToken(a)])) });
  else if (request.endpoint === 'holders-history') json(res, 200, [wireHolder(1)]);
  else if (request.endpoint === 'token-technicals') json(res, 200, { data: { overtimeTechnicals: [], initialBuyerStats: [] } });
  else json(res, 200, { tradeHistory: [] });
}

let server: HostileServer;
const clients: MarketClient[] = [];
const logLines: string[] = [];

function client(options: Partial<MarketClientOptions> = {}): MarketClient {
  const logger = createLogger(
    'debug',
    new Writable({ write: (chunk: Buffer, _encoding, done) => void (logLines.push(chunk.toString()), done()) }),
  );
  const made = new MarketClient({ baseUrl: server.url, apiKey: KEY, logger, retryBaseDelayMs: 5, retryMaxDelayMs: 20, ...options });
  clients.push(made);
  return made;
}

async function failure(call: Promise<unknown>): Promise<MarketError> {
  const error = await call.then(
    () => new Error('expected the call to fail'),
    (e: unknown) => e,
  );
  if (!isMarketError(error)) throw error;
  return error;
}

beforeEach(async () => {
  server = await startHostileServer(answerWell);
  logLines.length = 0;
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server.close();
});

describe('1. a wait the service asks for cannot lock the client out', () => {
  const farDate = () => new Date(Date.now() + YEAR_MS).toUTCString();
  const farUnixSeconds = () => String(Math.floor((Date.now() + YEAR_MS) / 1000));
  it.each([
    ['429 with Retry-After: 999999', 429, () => ({ 'retry-after': '999999' })],
    ['503 with Retry-After: 999999', 503, () => ({ 'retry-after': '999999' })],
    ['429 with a Retry-After date a year ahead', 429, () => ({ 'retry-after': farDate() })],
    [
      '429 with X-RateLimit-Remaining: 0 and a reset a year ahead',
      429,
      () => ({ 'x-ratelimit-remaining': '0', 'x-ratelimit-limit': '100', 'x-ratelimit-reset': farUnixSeconds() }),
    ],
    [
      '502 with RateLimit-Remaining: 0 and a reset of a million seconds',
      502,
      () => ({ 'ratelimit-remaining': '0', 'ratelimit-reset': '1000000' }),
    ],
  ] as const)('%s: that call fails at once, saying to come back after the cap; the next one is sent', async (_what, status, headers) => {
    const c = client();
    let first = true;
    server.handle = (request, res) => {
      if (!first) return answerWell(request, res);
      first = false;
      json(res, status, { error: 'Slow down' }, headers());
    };
    const error = await failure(c.token(address(1)));
    expect(error.retryAfterMs).not.toBeNull();
    expect(error.retryAfterMs).toBeLessThanOrEqual(CAP_MS);
    expect(error.userMessage).toMatch(/try again in 30 s/);
    expect(server.count('token-data')).toBe(1);
    // Another token, the same endpoint: asked of the service, not refused on the client.
    expect((await c.token(address(2))).address).toBe(address(2));
    expect(server.count('token-data')).toBe(2);
  });

  it('a good answer saying the window is spent until a year ahead does not hold later calls', async () => {
    const c = client();
    server.handle = (request, res) => {
      if (request.endpoint !== 'holders-history') return answerWell(request, res);
      json(res, 200, [wireHolder(1)], { 'x-ratelimit-remaining': '0', 'x-ratelimit-limit': '100', 'x-ratelimit-reset': farUnixSeconds() });
    };
    await c.holders(address(1));
    await c.holders(address(2));
    expect(server.count('holders-history')).toBe(2);
  });

  it('a wait within the cap holds only the endpoint that asked', async () => {
    const clock = new ManualClock(Date.now(), [0]);
    const c = client({ clock, maxRetries: 1 });
    let refused = false;
    server.handle = (request, res) => {
      if (request.endpoint === 'holders-history' && !refused) {
        refused = true;
        return json(res, 429, { error: 'Too Many Requests' }, { 'retry-after': '5' });
      }
      answerWell(request, res);
    };
    const held = c.holders(address(1));
    // The retry waits the service's 5 s plus the client's 100 ms margin, armed on the clock.
    await vi.waitFor(() => expect(clock.pending()).toContain(5_100), ANSWERED);
    // Another endpoint is not held.
    await c.technicals(address(1));
    expect(server.count('token-technicals')).toBe(1);
    // The same endpoint is, for another token too, until the clock passes the wait.
    const queued = c.holders(address(2));
    await vi.waitFor(() => expect(clock.pending().length).toBeGreaterThanOrEqual(2), ANSWERED);
    expect(server.count('holders-history')).toBe(1);
    clock.advance(5_200);
    await Promise.all([held, queued]);
    expect(server.count('holders-history')).toBe(3);
  });
});

describe('2. a body that trickles', () => {
  it('fails as too slow once the attempt deadline passes, however steadily the bytes come', async () => {
    server.handle = (_request, res) => trickle(res, 20);
    const error = await failure(client({ attemptTimeoutMs: 300, maxRetries: 0 }).holders(address(1)));
    expect(error.kind).toBe('timeout');
    expect(cardForError(error).title).toBe('Service too slow');
  }, 10_000);

  it('retries only within the call deadline', async () => {
    server.handle = (_request, res) => trickle(res, 20);
    const error = await failure(client({ attemptTimeoutMs: 200, callDeadlineMs: 700, maxRetries: 10 }).holders(address(1)));
    expect(error).toMatchObject({ kind: 'timeout', details: { deadline: 'call' } });
    expect(server.count('holders-history')).toBeLessThan(11);
  }, 10_000);
});

describe('3. memory bounded by design', () => {
  const holders = (count: number) => Array.from({ length: count }, (_, n) => wireHolder(n, { tags: ['whale', 'sniper'] }));

  it.each([
    ['with a Content-Length', true],
    ['chunked, without one', false],
  ] as const)("an answer over its endpoint's cap is refused as unreadable (%s)", async (_what, withLength) => {
    const body = JSON.stringify(holders(2_000));
    expect(body.length).toBeGreaterThan(64 * 1024);
    server.handle = (_request, res) => {
      res.writeHead(
        200,
        withLength ? { 'content-type': 'application/json', 'content-length': String(body.length) } : { 'content-type': 'application/json' },
      );
      res.end(body);
    };
    const c = client({ maxBodyBytes: { 'holders-history': 64 * 1024 } });
    const error = await failure(c.holders(address(1)));
    expect(error).toMatchObject({ kind: 'unreadable', details: { maxBytes: 64 * 1024 } });
    expect(error.message).toMatch(/larger than 65536 bytes/);
  });

  it('the cache holds at most its bytes, whatever the answers', async () => {
    server.handle = (request, res) => (request.endpoint === 'holders-history' ? json(res, 200, holders(300)) : answerWell(request, res));
    const perEndpoint = 256 * 1024;
    const c = client({ cacheMaxBytes: 6 * perEndpoint });
    for (let n = 1; n <= 9; n++) await c.holders(address(n));
    const { cachedBytes } = c.stats()['holders-history'];
    expect(cachedBytes).toBeGreaterThan(0);
    expect(cachedBytes).toBeLessThanOrEqual(perEndpoint);
  });

  it('drops expired entries on its own', async () => {
    // Long enough that a loaded machine still reads the entry before it expires.
    const c = client({ cacheTtlMs: { 'holders-history': 500 } });
    await c.holders(address(1));
    expect(c.stats()['holders-history'].cachedBytes).toBeGreaterThan(0);
    await vi.waitFor(() => expect(c.stats()['holders-history'].cachedBytes).toBe(0), { timeout: 10_000, interval: 50 });
  });

  it('keeps no field the cards never show as raw JSON', async () => {
    const blob = { nested: Array.from({ length: 1_000 }, (_, n) => ({ n, note: 'third-party statistics '.repeat(2) })) };
    server.handle = (request, res) =>
      request.endpoint === 'token-data'
        ? json(res, 200, { data: { [address(1)]: wireToken(address(1), { partnerStats: blob }) } })
        : answerWell(request, res);
    const token = await client().token(address(1));
    expect(token).not.toHaveProperty('partnerStats');
  });
});

describe('4. amounts of absurd length', () => {
  it('a token whose supply has two million digits is unreadable, before any arithmetic', async () => {
    const supply = '9'.repeat(2_000_000);
    server.handle = (request, res) =>
      request.endpoint === 'token-data'
        ? json(res, 200, { data: { [address(1)]: wireToken(address(1), { totalSupply: supply }) } })
        : answerWell(request, res);
    const error = await failure(client().token(address(1)));
    expect(error.kind).toBe('unreadable');
    expect(cardForError(error).title).toBe('Unreadable answer');
  });

  it('80 digits are read; 81 digits, as text or as a JSON number, are not', async () => {
    const digits = (n: number) => '1'.repeat(n);
    server.handle = (request, res) => {
      if (request.endpoint !== 'holders-history') return answerWell(request, res);
      const body = `[${JSON.stringify(wireHolder(1, { currentlyHoldingAmount: digits(80) }))},${JSON.stringify(wireHolder(2, { currentlyHoldingAmount: digits(81) }))},${JSON.stringify(wireHolder(3, { totalSoldAmount: digits(5_000) }))},{"address":"${'Hold4'.padEnd(43, 'z')}","currentlyHoldingAmount":1${'0'.repeat(90)}}]`;
      json(res, 200, body);
    };
    const read = await client().readHolders(address(1));
    expect(read.value.map((holder) => holder.currentlyHoldingAmount)).toEqual([BigInt(digits(80))]);
    expect(read.unreadable).toBe(3);
  });
});

describe('6. cards say what they could not read', () => {
  it('a holders answer whose every holder is unreadable is not "none recorded"', async () => {
    server.handle = (request, res) =>
      request.endpoint === 'holders-history'
        ? json(
            res,
            200,
            Array.from({ length: 12 }, (_, n) => wireHolder(n + 1, { currentlyHoldingAmount: 'lots' })),
          )
        : answerWell(request, res);
    const card = await new QueryService(client(), () => new Date('2026-01-01T00:00:00Z')).holders(address(1));
    const text = [card.description, ...card.fields.map((field) => field.value), card.footer ?? '']
      .map((part) => (typeof part === 'string' ? part : plainText(part ?? [])))
      .join('\n');
    expect(text).toContain('12 holders could not be read');
    expect(text).not.toContain('none recorded');
  });

  it('a holders answer with some unreadable holders shows the rest and says how many are missing', async () => {
    server.handle = (request, res) =>
      request.endpoint === 'holders-history'
        ? json(res, 200, [wireHolder(1), wireHolder(2, { currentlyHoldingAmount: null }), 7])
        : answerWell(request, res);
    const card = await new QueryService(client()).holders(address(1));
    expect(card.fields).toHaveLength(1);
    expect(card.footer).toContain('2 holders could not be read');
  });
});

describe("7. the service's texts are cleaned like card text", () => {
  it('an error message with bidi, line-separator and control characters reaches neither the error nor the log raw', async () => {
    const hostile = 'bad\u202Egateway\u2028second line\u0085third\u001b[31m red\u0007';
    server.handle = (_request, res) => json(res, 500, { error: hostile, message: `more ${hostile}` });
    const error = await failure(client({ maxRetries: 0 }).holders(address(1)));
    const raw = /[\u202E\u2028\u0085\u001b\u0007]/;
    expect(error.message).not.toMatch(raw);
    expect(error.message).toContain('gateway');
    expect(JSON.stringify(error.details)).not.toMatch(/\\u202e|\\u2028|\\u0085|\u202E|\u2028|\u0085/i);
    const lines = logLines.join('');
    expect(lines).toContain('gateway');
    expect(lines).not.toMatch(raw);
  });
});
