/**
 * Economy and resilience of the client against the in-process simulator over real HTTP:
 * retries after injected faults, the limiter keeping a burst free of 429, and coalescing proven
 * by counting the simulator's requests.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MarketClient, type MarketClientOptions } from '../../src/market/client';
import { isMarketError } from '../../src/market/errors';
import { startSimulator } from 'tmds-simulator';
import { fakeAddress } from '../support/addresses';

const KEY = 'load-test-key-2c4e6a8b0d';
const WINDOW = { limit: 100, windowMs: 2_000 };

type Simulator = Awaited<ReturnType<typeof startSimulator>>;
let sim: Simulator;
let tokens: string[];
const clients: MarketClient[] = [];

/** A well-formed base58 address that no simulated token has. */
const unknownAddress = (n: number): string => fakeAddress('Unknown', n);

function client(options: Partial<MarketClientOptions> = {}): MarketClient {
  const made = new MarketClient({ baseUrl: sim.baseUrl, apiKey: KEY, retryBaseDelayMs: 5, retryMaxDelayMs: 50, ...options });
  clients.push(made);
  return made;
}

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, seed: 42, port: 0, technicalsLimit: WINDOW });
  tokens = sim.market.listing().tokens.map((token) => token.address);
});

afterEach(() => {
  sim.faults.clear();
  sim.stats.reset();
});

afterAll(async () => {
  await Promise.all(clients.map((made) => made.close()));
  await sim?.close();
});

describe('retries', () => {
  it('succeeds after two injected 500s, with three upstream requests', async () => {
    sim.faults.set({ 'token-technicals': { script: ['500', '500', 'ok'] } });
    const c = client();
    const technicals = await c.technicals(tokens[0] ?? '');
    expect(technicals.overtimeTechnicals.length).toBeGreaterThan(0);
    expect(sim.stats.count('token-technicals')).toBe(3);
    expect(sim.stats.requests('token-technicals').map((r) => r.status)).toEqual([500, 500, 200]);
    expect(c.stats()['token-technicals']).toMatchObject({ requests: 3, retries: 2, failures: 0 });
  });

  it('succeeds after an injected 429, waiting at least its Retry-After', async () => {
    sim.faults.set({ 'holders-history': { script: ['429', 'ok'], retryAfterSecs: 1 } });
    const c = client();
    const started = Date.now();
    const holders = await c.holders(tokens[1] ?? '');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(holders.length).toBeGreaterThan(0);
    expect(sim.stats.requests('holders-history').map((r) => r.status)).toEqual([429, 200]);
    expect(c.stats()['holders-history']).toMatchObject({ requests: 2, retries: 1, rateLimited: 1 });
  });

  it('retries token-data batches too', async () => {
    sim.faults.set({ 'token-data': { script: ['reset', '500', 'ok'] } });
    const c = client();
    const found = await c.tokens(tokens.slice(0, 3));
    expect(found.size).toBe(3);
    expect(sim.stats.count('token-data')).toBe(3);
  });
});

describe('limiter', () => {
  // The service's window is per key and this one must start empty: a simulator of its own.
  let fresh: Simulator;
  beforeAll(async () => {
    fresh = await startSimulator({ apiKey: KEY, seed: 42, port: 0, technicalsLimit: WINDOW });
  });
  afterAll(async () => {
    await fresh?.close();
  });

  it('keeps 150 technicals calls free of 429', async () => {
    const c = client({ baseUrl: fresh.baseUrl, limits: { 'token-technicals': WINDOW }, cacheTtlMs: { 'token-technicals': 0 } });
    // Waves of distinct addresses: every call really goes upstream (no cache, nothing to coalesce).
    const results: unknown[] = [];
    let sent = 0;
    while (sent < 150) {
      const wave = tokens.slice(0, Math.min(tokens.length, 150 - sent));
      sent += wave.length;
      results.push(...(await Promise.all(wave.map((address) => c.technicals(address)))));
    }
    expect(results).toHaveLength(150);
    const statuses = fresh.stats.requests('token-technicals').map((r) => r.status);
    expect(statuses).toHaveLength(150);
    expect(statuses.filter((status) => status === 429)).toHaveLength(0);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(c.stats()['token-technicals']).toMatchObject({ requests: 150, rateLimited: 0, failures: 0 });
  });

  it("at the spec's own limit (100 per 60 s on both sides), 150 concurrent calls: 100 reach the service, 50 are refused at once", async () => {
    const spec = await startSimulator({ apiKey: KEY, seed: 42, port: 0 });
    try {
      // The client's defaults: 100 per 60 s on token-technicals, and a longest wait of 30 s.
      const c = client({ baseUrl: spec.baseUrl });
      const addresses = [...tokens];
      for (let n = 0; addresses.length < 150; n += 1) addresses.push(unknownAddress(n));
      expect(new Set(addresses).size).toBe(150);
      const settled = await Promise.allSettled(addresses.map((address) => c.technicals(address)));

      const refused = settled.flatMap((outcome, index) =>
        outcome.status === 'rejected' && isMarketError(outcome.reason) && outcome.reason.kind === 'rate-limited'
          ? [{ address: addresses[index], error: outcome.reason }]
          : [],
      );
      expect(refused).toHaveLength(50);
      for (const { error } of refused) {
        // A wait of a whole window: the next slot frees a minute after the first answers arrived.
        expect(error.status).toBeNull();
        expect(error.details.source).toBe('client-limiter');
        expect(error.retryAfterMs).toBeGreaterThan(30_000);
        expect(error.userMessage).toMatch(/^The market data service is busy; try again in \d+ s\.$/);
      }
      // The other 100 reached the service and were answered (found, or 404 for an unknown address).
      for (const outcome of settled) {
        if (outcome.status === 'rejected' && !(isMarketError(outcome.reason) && outcome.reason.kind === 'rate-limited')) {
          expect(isMarketError(outcome.reason) && outcome.reason.kind).toBe('not-found');
        }
      }
      const seen = spec.stats.requests('token-technicals');
      expect(seen).toHaveLength(100);
      expect(seen.filter((request) => request.status === 429)).toHaveLength(0);
      const reached = new Set(seen.map((request) => request.query.address));
      for (const { address } of refused) expect(reached.has(address)).toBe(false);
      expect(c.stats()['token-technicals']).toMatchObject({ requests: 100, rateLimited: 0, retries: 0 });
    } finally {
      await spec.close();
    }
  });

  it("leaves to other users of the key what they already spent, reading the service's headers", async () => {
    const shared = await startSimulator({ apiKey: KEY, seed: 42, port: 0, technicalsLimit: WINDOW });
    try {
      // Someone else with the same key has already spent 30 calls of the window.
      for (let i = 0; i < 30; i += 1) {
        const response = await fetch(`${shared.baseUrl}/api/token-technicals?address=${tokens[i % tokens.length] ?? ''}`, {
          headers: { 'x-api-key': KEY },
        });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
      shared.stats.reset();
      const c = client({ baseUrl: shared.baseUrl, limits: { 'token-technicals': WINDOW }, cacheTtlMs: { 'token-technicals': 0 } });
      let sent = 0;
      while (sent < 100) {
        const wave = tokens.slice(0, Math.min(tokens.length, 100 - sent));
        sent += wave.length;
        await Promise.all(wave.map((address) => c.technicals(address)));
      }
      const statuses = shared.stats.requests('token-technicals').map((r) => r.status);
      expect(statuses).toHaveLength(100);
      expect(statuses.filter((status) => status === 429)).toHaveLength(0);
    } finally {
      await shared.close();
    }
  });
});

describe('coalescing', () => {
  it('merges 100 concurrent single-token look-ups into at most ceil(100/30) requests', async () => {
    const c = client();
    const addresses = [...tokens];
    for (let n = 0; addresses.length < 100; n += 1) addresses.push(unknownAddress(n));
    expect(new Set(addresses).size).toBe(100);
    const settled = await Promise.allSettled(addresses.map((address) => c.token(address)));
    expect(sim.stats.count('token-data')).toBeLessThanOrEqual(Math.ceil(100 / 30));
    for (const [index, outcome] of settled.entries()) {
      if (index < tokens.length) {
        expect(outcome).toMatchObject({ status: 'fulfilled', value: { address: addresses[index] } });
      } else {
        expect(outcome.status).toBe('rejected');
        if (outcome.status === 'rejected') expect(isMarketError(outcome.reason) && outcome.reason.kind).toBe('not-found');
      }
    }
    for (const request of sim.stats.requests('token-data')) {
      expect((request.query.addresses ?? '').split(',').length).toBeLessThanOrEqual(30);
    }
  });

  it('honours a smaller batch size', async () => {
    const c = client({ tokenBatchSize: 10 });
    await Promise.all(tokens.slice(0, 25).map((address) => c.token(address)));
    expect(sim.stats.count('token-data')).toBe(3);
  });

  it('makes one request for 50 concurrent identical technicals calls', async () => {
    const c = client();
    const results = await Promise.all(Array.from({ length: 50 }, () => c.technicals(tokens[5] ?? '')));
    expect(new Set(results).size).toBe(1);
    expect(sim.stats.count('token-technicals')).toBe(1);
    expect(c.stats()['token-technicals']).toMatchObject({ requests: 1, coalesced: 49 });
  });

  it('does not cache errors: the next call asks again', async () => {
    sim.faults.set({ 'chart-history': { script: ['malformed', 'ok'] } });
    const c = client();
    await expect(c.chart(tokens[0] ?? '')).rejects.toMatchObject({ kind: 'unreadable' });
    expect((await c.chart(tokens[0] ?? '')).length).toBeGreaterThan(0);
    expect(sim.stats.count('chart-history')).toBe(2);
  });

  it('serves token() and tokens() from one cache', async () => {
    const c = client();
    await c.tokens(tokens.slice(0, 4));
    await c.token(tokens[2] ?? '');
    const again = await c.tokens(tokens.slice(0, 4));
    expect(again.size).toBe(4);
    expect(sim.stats.count('token-data')).toBe(1);
    expect(c.stats()['token-data'].cacheHits).toBe(5);
  });
});
