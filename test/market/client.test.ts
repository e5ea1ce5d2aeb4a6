/**
 * The client against the in-process simulator over real HTTP on 127.0.0.1: every endpoint's
 * answer agrees with the raw JSON, every error path ends in the right kind, and the API key
 * never shows in an error or a log line. Where the simulator cannot misbehave in the needed way,
 * a relay in front of it answers on its own, spoils the simulator's answer, or loses a parameter.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/log';
import { MarketClient, type MarketClientOptions } from '../../src/market/client';
import { MarketError, isMarketError } from '../../src/market/errors';
import { startSimulator } from 'tmds-simulator';
import { fakeAddress } from '../support/addresses';

const KEY = 'client-test-key-5e3a9b7c1d';
const WRONG_KEY = 'wrong-client-key-0f9e8d7c6b';

type Simulator = Awaited<ReturnType<typeof startSimulator>>;
let sim: Simulator;
let tokens: string[];
let wallets: string[];
const clients: MarketClient[] = [];
const errors: unknown[] = [];
const logLines: string[] = [];

/** A well-formed base58 address that no simulated token has. */
const unknownAddress = (n: number): string => fakeAddress('Unknown', n);

function client(options: Partial<MarketClientOptions> = {}): MarketClient {
  const logger = createLogger(
    'debug',
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    }),
  );
  const made = new MarketClient({ baseUrl: sim.baseUrl, apiKey: KEY, logger, retryBaseDelayMs: 5, retryMaxDelayMs: 20, ...options });
  clients.push(made);
  return made;
}

/** The error a call ends with, kept for the secret checks at the end. */
async function failure(call: Promise<unknown>): Promise<MarketError> {
  const error = await call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  errors.push(error);
  if (!isMarketError(error)) throw error;
  return error;
}

async function raw(path: string, key = KEY): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${sim.baseUrl}${path}`, { headers: { 'x-api-key': key } });
  return { status: response.status, body: await response.json() };
}

function object(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`not an object: ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

function list(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new Error(`not an array: ${JSON.stringify(value)?.slice(0, 200)}`);
  return value;
}

/** One answer of the relay. */
interface RelayAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/** Decides the relay's answer to a request; `forward` passes a (possibly changed) URL on to the simulator. */
type RelayHandler = (url: URL, forward: (url: URL) => Promise<RelayAnswer>) => Promise<RelayAnswer>;

const passThrough: RelayHandler = (url, forward) => forward(url);

/** An HTTP peer in front of the simulator; the key the client sends is passed on, so auth stays end to end. */
const relay = {
  url: '',
  handle: passThrough,
  /** Every request the relay answered, with its status and arrival time. */
  seen: [] as Array<{ path: string; status: number; at: number }>,
  server: null as Server | null,
};

async function startRelay(): Promise<void> {
  relay.server = createServer((request, response) => {
    const at = performance.now();
    const url = new URL(request.url ?? '/', 'http://relay.invalid');
    const forward = async (target: URL): Promise<RelayAnswer> => {
      const answer = await fetch(`${sim.baseUrl}${target.pathname}${target.search}`, {
        headers: { 'x-api-key': String(request.headers['x-api-key']) },
      });
      return { status: answer.status, body: await answer.text() };
    };
    relay
      .handle(url, forward)
      .then((answer) => {
        relay.seen.push({ path: url.pathname, status: answer.status, at });
        response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        response.end(answer.body);
      })
      .catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => relay.server?.listen(0, '127.0.0.1', resolve));
  relay.url = `http://127.0.0.1:${(relay.server.address() as AddressInfo).port}`;
}

/** A relay handler that passes the simulator's answer on after `spoil` changed its JSON. */
function spoiling(spoil: (body: Record<string, unknown> & unknown[]) => void): RelayHandler {
  return async (url, forward) => {
    const answer = await forward(url);
    const body = JSON.parse(answer.body) as Record<string, unknown> & unknown[];
    spoil(body);
    return { ...answer, body: JSON.stringify(body) };
  };
}

/** The log lines that reported left-out elements, parsed. */
function droppedLogLines(endpoint: string): Array<Record<string, unknown>> {
  return logLines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.endpoint === endpoint && typeof line.dropped === 'number');
}

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, seed: 42, port: 0 });
  const listing = sim.market.listing();
  tokens = listing.tokens.map((token) => token.address);
  wallets = listing.wallets;
  await startRelay();
});

afterEach(() => {
  sim.faults.clear();
  sim.stats.reset();
  relay.handle = passThrough;
  relay.seen = [];
});

afterAll(async () => {
  await Promise.all(clients.map((made) => made.close()));
  await new Promise((resolve) => relay.server?.close(resolve));
  await sim?.close();
});

describe('every endpoint agrees with the raw JSON', () => {
  it('token-data: tokens() and token()', async () => {
    const c = client();
    const some = tokens.slice(0, 5);
    const { status, body } = await raw(`/api/token-data?addresses=${some.join(',')}`);
    expect(status).toBe(200);
    const data = object(object(body).data);
    const found = await c.tokens([...some, unknownAddress(1)]);
    expect([...found.keys()]).toEqual(some);
    for (const address of some) {
      const token = found.get(address);
      const wire = object(data[address]);
      expect(token?.address).toBe(wire.address);
      expect(token?.symbol).toBe(wire.symbol ?? '');
      expect(token?.decimals).toBe(Number(wire.decimals));
      expect(token?.totalSupply).toBe(BigInt(String(wire.totalSupply)));
      expect(token?.holdersCount).toBe(Number(wire.holdersCount));
      expect(token?.riskStatus).toBe(wire.riskStatus);
      expect(token?.liquidityPools.length).toBe(Object.keys(object(wire.liquidityPools)).length);
    }
    const single = await c.token(some[0] ?? '');
    expect(single.address).toBe(some[0]);
  });

  it('token-technicals', async () => {
    const address = tokens[1] ?? '';
    const { body } = await raw(`/api/token-technicals?address=${address}`);
    const data = object(object(body).data);
    const technicals = await client().technicals(address);
    expect(technicals.overtimeTechnicals.length).toBe(list(data.overtimeTechnicals).length);
    const newest = object(list(data.overtimeTechnicals)[0]);
    expect(technicals.overtimeTechnicals[0]?.holdersCount).toBe(Number(newest.holdersCount));
    const stats = object(Array.isArray(data.tokenStats) ? data.tokenStats[0] : data.tokenStats);
    expect(technicals.tokenStats?.priceNative).toBeCloseTo(Number(stats.priceNative));
    expect(technicals.initialBuyerStats.length).toBe(list(data.initialBuyerStats).length);
  });

  it('holders-history, default and sorted', async () => {
    const address = tokens[2] ?? '';
    const c = client();
    const { body } = await raw(`/api/holders-history?address=${address}`);
    const wire = list(body).map(object);
    const holders = await c.holders(address);
    expect(holders.map((h) => h.address)).toEqual(wire.map((h) => h.address));
    expect(holders.map((h) => h.currentlyHoldingAmount)).toEqual(wire.map((h) => BigInt(String(h.currentlyHoldingAmount))));
    const bySince = await c.holders(address, { sortBy: 'holderSince' });
    const wireBySince = list((await raw(`/api/holders-history?address=${address}&sortBy=holderSince`)).body).map(object);
    expect(bySince.map((h) => h.address)).toEqual(wireBySince.map((h) => h.address));
  });

  it('trades-history', async () => {
    const address = tokens[0] ?? '';
    const some = wallets.slice(0, 6);
    const { body } = await raw(`/api/trades-history?baseToken=${address}&wallets=${[...some].sort().join(',')}`);
    const wire = list(object(body).tradeHistory).map(object);
    const history = await client().trades(address, some);
    expect(history.tradeHistory.length).toBe(wire.length);
    expect(new Set(history.tradeHistory.map((t) => t.transactionHash))).toEqual(new Set(wire.map((t) => t.transactionHash)));
    const times = history.tradeHistory.map((t) => t.timestamp);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('chart-history with every option', async () => {
    const address = tokens[3] ?? '';
    const to = Math.floor(Date.now() / 1000);
    const from = to - 3 * 86_400;
    const path = `/api/chart-history?base=${address}&from=${from}&to=${to}&intervalSecs=3600&countBack=24`;
    const wire = list(object((await raw(path)).body).candles).map(object);
    const candles = await client().chart(address, { from, to, intervalSecs: 3600, countBack: 24 });
    expect(candles.length).toBe(wire.length);
    expect(candles.map((c) => c.timestamp)).toEqual(wire.map((c) => Number(c.timestamp)).sort((a, b) => a - b));
    const byTime = new Map(wire.map((c) => [Number(c.timestamp), c]));
    for (const candle of candles) expect(candle.close).toBeCloseTo(Number(byTime.get(candle.timestamp)?.close));
    expect((await client().chart(address)).length).toBeGreaterThan(0);
  });

  it('wallet-tracker', async () => {
    const some = wallets.slice(0, 3);
    const { body } = await raw(`/api/wallet-tracker?wallets=${[...some].sort().join(',')}`);
    const wire = list(object(body).tradeHistory ?? []).map(object);
    const history = await client().walletTrades(some);
    expect(history.tradeHistory.length).toBe(wire.length);
    expect(new Set(history.tradeHistory.map((t) => t.transactionHash))).toEqual(new Set(wire.map((t) => t.transactionHash)));
  });

  it('answers a repeated call from the cache', async () => {
    const c = client();
    const address = tokens[4] ?? '';
    await c.technicals(address);
    await c.technicals(address);
    expect(sim.stats.count('token-technicals')).toBe(1);
    expect(c.stats()['token-technicals']).toMatchObject({ requests: 1, cacheHits: 1 });
  });
});

describe('every error path', () => {
  it('invalid-address, without a request', async () => {
    const c = client();
    const calls: Array<() => Promise<unknown>> = [
      () => c.token('not-an-address'),
      () => c.tokens([tokens[0] ?? '', '0x123']),
      () => c.technicals('So1111111111111111111111111111111O'),
      () => c.holders('<b>'),
      () => c.trades('abc', wallets.slice(0, 1)),
      () => c.trades(tokens[0] ?? '', ['nope']),
      () => c.chart('x'.repeat(50)),
      () => c.walletTrades([wallets[0] ?? '', 'l0l']),
    ];
    for (const call of calls) {
      const error = await failure(call());
      expect(error.kind).toBe('invalid-address');
      expect(error.userMessage).toMatch(/^That is not a (token|wallet) address\.$/);
    }
    for (const endpoint of [
      'token-data',
      'token-technicals',
      'holders-history',
      'trades-history',
      'chart-history',
      'wallet-tracker',
    ] as const) {
      expect(sim.stats.count(endpoint)).toBe(0);
    }
  });

  it('missing-parameter, without a request', async () => {
    const c = client();
    expect((await failure(c.walletTrades([]))).kind).toBe('missing-parameter');
    expect((await failure(c.walletTrades(['  ']))).userMessage).toBe('Give at least one wallet address.');
    expect((await failure(c.trades(tokens[0] ?? '', []))).kind).toBe('missing-parameter');
    expect((await failure(c.technicals(''))).kind).toBe('missing-parameter');
    expect(sim.stats.count('wallet-tracker') + sim.stats.count('trades-history') + sim.stats.count('token-technicals')).toBe(0);
  });

  it('missing-parameter as the service says it, end to end', async () => {
    // The client checks its input, so the relay loses the required parameter on the way and the
    // simulator's own 400 comes back.
    const c = client({ baseUrl: relay.url });
    relay.handle = (url, forward) => {
      url.searchParams.delete('base');
      url.searchParams.delete('wallets');
      return forward(url);
    };
    for (const call of [() => c.chart(tokens[0] ?? ''), () => c.trades(tokens[0] ?? '', wallets.slice(0, 2))]) {
      const error = await failure(call());
      expect(error).toMatchObject({
        kind: 'missing-parameter',
        status: 400,
        userMessage: 'Something required is missing from that request.',
      });
      expect(error.message).toMatch(/HTTP 400 Missing parameter/);
    }
    expect(sim.stats.requests('chart-history').map((r) => [r.status, r.query.base])).toEqual([[400, undefined]]);
    expect(sim.stats.requests('trades-history').map((r) => [r.status, r.query.wallets])).toEqual([[400, undefined]]);
  });

  it('invalid-parameter: a chart option, before the request', async () => {
    const c = client();
    const address = tokens[0] ?? '';
    for (const options of [{ intervalSecs: 0 }, { countBack: 1.5 }, { from: -3 }, { to: Number.NaN }, { from: 200, to: 100 }]) {
      const error = await failure(c.chart(address, options));
      expect(error.kind).toBe('invalid-parameter');
    }
    expect(sim.stats.count('chart-history')).toBe(0);
  });

  it('invalid-parameter: an option the service refuses', async () => {
    const error = await failure(client().holders(tokens[0] ?? '', { sortBy: 'shoeSize' }));
    expect(error).toMatchObject({ kind: 'invalid-parameter', status: 400 });
    expect(sim.stats.count('holders-history')).toBe(1);
  });

  it('not-found', async () => {
    const c = client();
    const unknown = unknownAddress(7);
    expect(await failure(c.token(unknown))).toMatchObject({ kind: 'not-found', userMessage: 'No token was found at that address.' });
    expect(await failure(c.technicals(unknown))).toMatchObject({ kind: 'not-found', status: 404 });
    expect(await failure(c.holders(unknown))).toMatchObject({ kind: 'not-found', status: 404 });
    expect(await failure(c.chart(unknown))).toMatchObject({ kind: 'not-found', status: 404 });
    expect(await failure(c.trades(unknown, wallets.slice(0, 1)))).toMatchObject({ kind: 'not-found', status: 404 });
    expect((await c.tokens([unknown])).size).toBe(0);
  });

  it('unauthorized with a wrong key, not retried', async () => {
    const error = await failure(client({ apiKey: WRONG_KEY }).technicals(tokens[0] ?? ''));
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401 });
    expect(sim.stats.count('token-technicals')).toBe(1);
    expect(error.message).not.toContain(WRONG_KEY);
    expect(JSON.stringify(error.details)).not.toContain(WRONG_KEY);
  });

  it('rate-limited: a Retry-After beyond the cap fails at once, telling to come back after the cap', async () => {
    sim.faults.set({ 'token-technicals': { error429Rate: 1, retryAfterSecs: 90 } });
    const error = await failure(client().technicals(tokens[0] ?? ''));
    expect(error).toMatchObject({ kind: 'rate-limited', status: 429, retryAfterMs: 30_000, details: { askedWaitMs: 90_000 } });
    expect(error.userMessage).toBe('The market data service is busy; try again in 30 s.');
    expect(sim.stats.count('token-technicals')).toBe(1);
  });

  it('rate-limited: 429 after the retries are spent', async () => {
    sim.faults.set({ 'token-technicals': { script: ['429', '429', '429'], retryAfterSecs: 0 } });
    const error = await failure(client({ maxRetries: 2 }).technicals(tokens[0] ?? ''));
    expect(error).toMatchObject({ kind: 'rate-limited', status: 429, details: { attempts: 3 } });
    expect(sim.stats.count('token-technicals')).toBe(3);
  });

  it("upstream: a 503 with Retry-After is retried only after that wait, and pauses the endpoint's other calls", async () => {
    const c = client({ baseUrl: relay.url });
    let unavailable = true;
    relay.handle = async (url, forward) => {
      if (!unavailable) return forward(url);
      unavailable = false;
      return { status: 503, headers: { 'retry-after': '1' }, body: JSON.stringify({ error: 'Service Unavailable' }) };
    };
    const retried = c.holders(tokens[1] ?? '');
    // Once the 503 has been read, a call for another token waits for the same pause.
    await vi.waitFor(() => expect(c.stats()['holders-history'].retries).toBe(1), { timeout: 10_000, interval: 10 });
    const other = c.holders(tokens[2] ?? '');
    const [holders] = await Promise.all([retried, other]);
    expect(holders.length).toBe(list((await raw(`/api/holders-history?address=${tokens[1] ?? ''}`)).body).length);
    expect(relay.seen.map((r) => r.status)).toEqual([503, 200, 200]);
    const [first, ...later] = relay.seen;
    for (const request of later) expect(request.at - (first?.at ?? 0)).toBeGreaterThanOrEqual(1_000);
    expect(c.stats()['holders-history']).toMatchObject({ requests: 3, retries: 1, failures: 0 });
  });

  it('upstream: a 503 whose Retry-After exceeds the cap fails at once, telling to come back after the cap', async () => {
    const c = client({ baseUrl: relay.url });
    relay.handle = async () => ({ status: 503, headers: { 'retry-after': '90' }, body: JSON.stringify({ error: 'Service Unavailable' }) });
    const error = await failure(c.chart(tokens[2] ?? ''));
    expect(error).toMatchObject({ kind: 'upstream', status: 503, retryAfterMs: 30_000, details: { askedWaitMs: 90_000 } });
    expect(error.userMessage).toBe('The market data service failed to answer; try again in 30 s.');
    expect(relay.seen).toHaveLength(1);
  });

  it('upstream: 500 after the retries are spent', async () => {
    sim.faults.set({ 'holders-history': { error500Rate: 1 } });
    const c = client();
    const error = await failure(c.holders(tokens[0] ?? ''));
    expect(error).toMatchObject({ kind: 'upstream', status: 500, details: { attempts: 4 } });
    expect(sim.stats.count('holders-history')).toBe(4);
    expect(c.stats()['holders-history']).toMatchObject({ requests: 4, retries: 3, failures: 1 });
  });

  it('timeout: an answer slower than the timeouts', async () => {
    // undici checks its header and body timeouts on a clock of about half a second: the fault's
    // latency is well beyond that.
    sim.faults.set({ 'chart-history': { latencyMs: 2_500 } });
    const error = await failure(client({ headersTimeoutMs: 100, bodyTimeoutMs: 100, maxRetries: 1 }).chart(tokens[0] ?? ''));
    expect(error).toMatchObject({ kind: 'timeout', status: null, details: { attempts: 2 } });
    expect(sim.stats.count('chart-history')).toBe(2);
  });

  it('unreadable: malformed JSON, not retried', async () => {
    sim.faults.set({ 'token-technicals': { script: ['malformed'] } });
    const error = await failure(client().technicals(tokens[0] ?? ''));
    expect(error).toMatchObject({ kind: 'unreadable', status: 200 });
    expect(sim.stats.count('token-technicals')).toBe(1);
  });

  it('unreachable: a closed port, after the retries', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createNetServer();
      server.listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as AddressInfo;
        server.close(() => resolve(free));
      });
    });
    const c = client({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 2 });
    const error = await failure(c.walletTrades(wallets.slice(0, 1)));
    expect(error).toMatchObject({ kind: 'unreachable', details: { attempts: 3, code: 'ECONNREFUSED' } });
    expect(c.stats()['wallet-tracker']).toMatchObject({ requests: 3, retries: 2, failures: 1 });
  });

  it('unreachable: connection resets, after the retries', async () => {
    sim.faults.set({ 'wallet-tracker': { resetRate: 1 } });
    const error = await failure(client({ maxRetries: 2 }).walletTrades(wallets.slice(0, 1)));
    expect(error).toMatchObject({ kind: 'unreachable', details: { attempts: 3 } });
    expect(sim.stats.count('wallet-tracker')).toBe(3);
  });

  it('a reset is retried and then succeeds', async () => {
    sim.faults.set({ 'wallet-tracker': { script: ['reset', 'ok'] } });
    const asked = wallets.slice(0, 2);
    const history = await client().walletTrades(asked);
    expect(sim.stats.count('wallet-tracker')).toBe(2);
    // The full answer arrived: the asked wallets' trades, each made by one of them, newest first.
    const wire = list(object((await raw(`/api/wallet-tracker?wallets=${[...asked].sort().join(',')}`)).body).tradeHistory).map(object);
    expect(history.tradeHistory.length).toBeGreaterThan(0);
    expect(new Set(history.tradeHistory.map((t) => t.transactionHash))).toEqual(new Set(wire.map((t) => t.transactionHash)));
    for (const trade of history.tradeHistory) expect(asked).toContain(trade.makerData?.address);
    const times = history.tradeHistory.map((t) => t.timestamp);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('a closed client refuses further calls', async () => {
    const c = client();
    await c.close();
    expect(await failure(c.technicals(tokens[0] ?? ''))).toMatchObject({ kind: 'unreachable' });
  });
});

describe('an unreadable element is left out, the rest of the answer kept', () => {
  it('holders-history: a holder without an address', async () => {
    const address = tokens[2] ?? '';
    const wire = list((await raw(`/api/holders-history?address=${address}`)).body).map(object);
    relay.handle = spoiling((body) => {
      delete object(body[1]).address;
    });
    const c = client({ baseUrl: relay.url });
    const holders = await c.holders(address);
    expect(holders.map((h) => h.address)).toEqual(wire.filter((_, index) => index !== 1).map((h) => h.address));
    expect(c.stats()['holders-history']).toMatchObject({ dropped: 1, failures: 0 });
    const [line] = droppedLogLines('holders-history');
    expect(line).toMatchObject({ level: 40, dropped: 1, msg: 'left out 1 unreadable element of the answer' });
    expect(line?.elements).toEqual([{ path: 'holders.1', reason: expect.stringMatching(/^address: /) }]);
  });

  it('trades-history and wallet-tracker: a trade with an unreadable time or maker', async () => {
    const address = tokens[0] ?? '';
    const some = wallets.slice(0, 6);
    const wire = list(
      object((await raw(`/api/trades-history?baseToken=${address}&wallets=${[...some].sort().join(',')}`)).body).tradeHistory,
    ).map(object);
    const spoilt = String(wire[0]?.transactionHash);
    relay.handle = spoiling((body) => {
      object(list(body.tradeHistory)[0]).timestamp = 'soon';
    });
    const c = client({ baseUrl: relay.url });
    const history = await c.trades(address, some);
    expect(history.tradeHistory.map((t) => t.transactionHash).sort()).toEqual(
      wire
        .map((t) => String(t.transactionHash))
        .filter((hash) => hash !== spoilt)
        .sort(),
    );

    relay.handle = spoiling((body) => {
      object(list(body.tradeHistory)[2]).makerData = { tags: [] };
    });
    const walletTrades = await c.walletTrades(wallets.slice(0, 2));
    const wireWallet = list(
      object((await raw(`/api/wallet-tracker?wallets=${[...wallets.slice(0, 2)].sort().join(',')}`)).body).tradeHistory,
    );
    expect(walletTrades.tradeHistory).toHaveLength(wireWallet.length - 1);
    expect(c.stats()['trades-history'].dropped + c.stats()['wallet-tracker'].dropped).toBe(2);
    expect(droppedLogLines('wallet-tracker')[0]?.elements).toEqual([
      { path: 'tradeHistory.2', reason: expect.stringMatching(/^makerData\.address: /) },
    ]);
  });

  it('chart-history: a candle without a close', async () => {
    const address = tokens[3] ?? '';
    const wire = list(object((await raw(`/api/chart-history?base=${address}`)).body).candles).map(object);
    relay.handle = spoiling((body) => {
      object(list(body.candles)[2]).close = 'n/a';
    });
    const c = client({ baseUrl: relay.url });
    const candles = await c.chart(address);
    expect(candles.map((candle) => candle.timestamp)).toEqual(
      wire
        .filter((_, index) => index !== 2)
        .map((candle) => Number(candle.timestamp))
        .sort((a, b) => a - b),
    );
    expect(c.stats()['chart-history'].dropped).toBe(1);
  });

  it('token-technicals: an initial buyer without a wallet and a point that is not an object', async () => {
    const address = tokens[1] ?? '';
    const data = object(object((await raw(`/api/token-technicals?address=${address}`)).body).data);
    relay.handle = spoiling((body) => {
      const spoilt = object(body.data);
      delete object(list(spoilt.initialBuyerStats)[0]).walletAddress;
      list(spoilt.overtimeTechnicals)[1] = 'garbage';
    });
    const c = client({ baseUrl: relay.url });
    const technicals = await c.technicals(address);
    expect(technicals.initialBuyerStats.map((buyer) => buyer.walletAddress)).toEqual(
      list(data.initialBuyerStats)
        .slice(1)
        .map((buyer) => object(buyer).walletAddress),
    );
    expect(technicals.overtimeTechnicals).toHaveLength(list(data.overtimeTechnicals).length - 1);
    expect(technicals.tokenStats).not.toBeNull();
    expect(c.stats()['token-technicals'].dropped).toBe(2);
  });

  it('an answer whose own shape is wrong is still unreadable', async () => {
    const c = client({ baseUrl: relay.url, maxRetries: 0 });
    relay.handle = async () => ({ status: 200, body: JSON.stringify({ holders: [] }) });
    expect(await failure(c.holders(tokens[0] ?? ''))).toMatchObject({ kind: 'unreadable', status: 200 });
    relay.handle = async () => ({ status: 200, body: JSON.stringify({ tradeHistory: 'none' }) });
    expect(await failure(c.walletTrades(wallets.slice(0, 1)))).toMatchObject({ kind: 'unreadable', status: 200 });
    relay.handle = async () => ({ status: 200, body: JSON.stringify({ candles: { open: 1 } }) });
    expect(await failure(c.chart(tokens[0] ?? ''))).toMatchObject({ kind: 'unreadable', status: 200 });
    relay.handle = async () => ({ status: 200, body: JSON.stringify({ data: { initialBuyerStats: 'HOLD' } }) });
    expect(await failure(c.technicals(tokens[0] ?? ''))).toMatchObject({ kind: 'unreadable', status: 200 });
  });
});

describe('the API key never leaks', () => {
  let echo: Server;
  let echoUrl: string;

  beforeAll(async () => {
    // A peer that echoes the request's headers in its error bodies, as a careless service might.
    echo = createServer((request, response) => {
      const status = request.url?.includes('wallet-tracker') ? 400 : request.url?.includes('holders') ? 401 : 500;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: `bad key ${String(request.headers['x-api-key'])}`,
          message: `headers: ${JSON.stringify(request.headers)}`,
        }),
      );
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => echo.close(resolve));
  });

  it('is scrubbed from bodies that echo it', async () => {
    const c = client({ baseUrl: echoUrl, maxRetries: 1 });
    const upstream = await failure(c.technicals(tokens[0] ?? ''));
    expect(upstream.kind).toBe('upstream');
    expect(String(upstream.details.body)).toContain('[redacted]');
    expect((await failure(c.holders(tokens[0] ?? ''))).kind).toBe('unauthorized');
    expect((await failure(c.walletTrades(wallets.slice(0, 1)))).kind).toBe('invalid-parameter');
  });

  it('appears in no error of any kind and in no log line', () => {
    const kinds = new Set(errors.filter(isMarketError).map((error) => error.kind));
    expect([...kinds].sort()).toEqual(
      [
        'invalid-address',
        'invalid-parameter',
        'missing-parameter',
        'not-found',
        'rate-limited',
        'timeout',
        'unauthorized',
        'unreachable',
        'unreadable',
        'upstream',
      ].sort(),
    );
    // Transport failures keep undici's error as the cause: the check below must have some to look at.
    expect(errors.filter((error) => isMarketError(error) && error.cause instanceof Error).length).toBeGreaterThan(2);
    for (const error of errors) {
      if (!isMarketError(error)) continue;
      const cause =
        error.cause instanceof Error
          ? [error.cause.message, String(error.cause.stack), inspect(error.cause, { depth: 5 })]
          : [String(error.cause)];
      // inspect shows every own property, the stack and the chain of causes.
      for (const text of [
        error.message,
        error.userMessage,
        JSON.stringify(error.details),
        String(error.stack),
        ...cause,
        inspect(error, { depth: 8 }),
      ]) {
        expect(text).not.toContain(KEY);
        expect(text).not.toContain(WRONG_KEY);
      }
    }
    expect(logLines.length).toBeGreaterThan(10);
    for (const line of logLines) {
      expect(line).not.toContain(KEY);
      expect(line).not.toContain(WRONG_KEY);
    }
  });
});
