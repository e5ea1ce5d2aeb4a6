/**
 * The server's machinery over real HTTP: the token-technicals rate limit and its headers, fault
 * injection (scripts, rates, latency, '*'), many concurrent requests on keep-alive, a prompt
 * close, and the market moving by itself at its rate.
 */
import { describe, expect, it, vi } from 'vitest';
import { MarketDriver } from '../src/driver';
import { FaultInjector, parseFaultConfig } from '../src/faults';
import { Market } from '../src/market';
import { KEY, get, start } from './helpers';
import { until } from './wsProbe';

describe('token-technicals rate limit', () => {
  it('headers on every answer, 429 with Retry-After past the limit, a new window after reset', async () => {
    let now = Date.UTC(2026, 0, 1, 0, 0, 0);
    const sim = await start({ technicalsLimit: { limit: 3, windowMs: 10_000 }, now: () => now });
    try {
      const address = sim.market.tokenAddresses()[0] ?? '';
      const reset = String(Math.ceil((now + 10_000) / 1000));
      for (const remaining of ['2', '1', '0']) {
        const answer = await get(sim, `/api/token-technicals?address=${address}`);
        expect(answer.status).toBe(200);
        expect(answer.headers.get('x-ratelimit-limit')).toBe('3');
        expect(answer.headers.get('x-ratelimit-remaining')).toBe(remaining);
        expect(answer.headers.get('x-ratelimit-reset')).toBe(reset);
      }
      now += 2_500;
      const limited = await get(sim, `/api/token-technicals?address=${address}`);
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ error: 'Too Many Requests', message: expect.any(String) });
      expect(limited.headers.get('retry-after')).toBe('8');
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(limited.headers.get('x-ratelimit-reset')).toBe(reset);
      // Other endpoints are not limited and carry no rate-limit headers.
      const other = await get(sim, `/api/token-data?address=${address}`);
      expect(other.status).toBe(200);
      expect(other.headers.get('x-ratelimit-limit')).toBeNull();
      // A wrong key neither consumes nor sees the window.
      expect((await get(sim, `/api/token-technicals?address=${address}`, 'other')).status).toBe(401);
      now += 7_600;
      const fresh = await get(sim, `/api/token-technicals?address=${address}`);
      expect(fresh.status).toBe(200);
      expect(fresh.headers.get('x-ratelimit-remaining')).toBe('2');
      expect(sim.stats.requests('token-technicals').map((r) => r.status)).toEqual([200, 200, 200, 429, 401, 200]);
    } finally {
      await sim.close();
    }
  });

  it('Retry-After is at least 1 second even at the end of a window', async () => {
    let now = 1_000_000;
    const sim = await start({ technicalsLimit: { limit: 1, windowMs: 60_000 }, now: () => now });
    try {
      const address = sim.market.tokenAddresses()[0] ?? '';
      await get(sim, `/api/token-technicals?address=${address}`);
      now += 59_999;
      const limited = await get(sim, `/api/token-technicals?address=${address}`);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('1');
    } finally {
      await sim.close();
    }
  });

  it('defaults to 100 per window', async () => {
    const sim = await start();
    try {
      const address = sim.market.tokenAddresses()[0] ?? '';
      const answer = await get(sim, `/api/token-technicals?address=${address}`);
      expect(answer.headers.get('x-ratelimit-limit')).toBe('100');
      expect(answer.headers.get('x-ratelimit-remaining')).toBe('99');
    } finally {
      await sim.close();
    }
  });
});

describe('fault injection', () => {
  it('a script decides requests one by one, then the endpoint answers normally', async () => {
    const sim = await start({ faults: { 'token-data': { script: ['500', '429', 'malformed', 'reset', 'ok'], retryAfterSecs: 7 } } });
    try {
      const path = `/api/token-data?address=${sim.market.tokenAddresses()[0] ?? ''}`;
      const e500 = await get(sim, path);
      expect(e500.status).toBe(500);
      expect(e500.body).toEqual({ error: expect.any(String), message: expect.any(String) });
      const e429 = await get(sim, path);
      expect(e429.status).toBe(429);
      expect(e429.headers.get('retry-after')).toBe('7');
      const malformed = await get(sim, path);
      expect(malformed.status).toBe(200);
      expect(malformed.body).toBeUndefined();
      expect(malformed.text.startsWith('{"statusCode":200')).toBe(true);
      await expect(fetch(`${sim.baseUrl}${path}`, { headers: { 'x-api-key': KEY } })).rejects.toThrow();
      expect((await get(sim, path)).status).toBe(200);
      expect((await get(sim, path)).status).toBe(200);
      expect(sim.stats.requests('token-data').map((r) => r.status)).toEqual([500, 429, 200, 0, 200, 200]);
    } finally {
      await sim.close();
    }
  });

  it("'*' covers endpoints without their own entry; holders-history keeps its {error} body", async () => {
    const sim = await start();
    try {
      const address = sim.market.tokenAddresses()[0] ?? '';
      sim.faults.set({ '*': { error500Rate: 1 }, 'token-data': {} });
      const holders = await get(sim, `/api/holders-history?address=${address}`);
      expect(holders.status).toBe(500);
      expect(holders.body).toEqual({ error: expect.any(String) });
      expect((await get(sim, `/api/chart-history?base=${address}`)).status).toBe(500);
      expect((await get(sim, `/api/token-data?address=${address}`)).status).toBe(200);
      sim.faults.clear();
      expect((await get(sim, `/api/chart-history?base=${address}`)).status).toBe(200);
    } finally {
      await sim.close();
    }
  });

  it('rates are probabilities drawn from the seed; latency delays the answer', async () => {
    const sim = await start();
    try {
      const address = sim.market.tokenAddresses()[0] ?? '';
      sim.faults.set({ 'chart-history': { error500Rate: 0.3, error429Rate: 0.2 } });
      const statuses: number[] = [];
      for (let i = 0; i < 200; i++) statuses.push((await get(sim, `/api/chart-history?base=${address}&countBack=1`)).status);
      const count = (status: number) => statuses.filter((s) => s === status).length;
      expect(count(500)).toBeGreaterThan(35);
      expect(count(500)).toBeLessThan(85);
      expect(count(429)).toBeGreaterThan(20);
      expect(count(429)).toBeLessThan(60);
      expect(count(200) + count(500) + count(429)).toBe(200);

      sim.faults.set({ 'token-data': { latencyMs: 150 } });
      const started = performance.now();
      expect((await get(sim, `/api/token-data?address=${address}`)).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      await sim.close();
    }
  });

  it('the same seed draws the same faults', () => {
    const a = new FaultInjector(9);
    const b = new FaultInjector(9);
    const config = { '*': { error500Rate: 0.5, malformedRate: 0.2, resetRate: 0.1 } };
    a.set(config);
    b.set(config);
    const draws = (f: FaultInjector) => Array.from({ length: 50 }, () => f.decide('token-data').outcome);
    expect(draws(a)).toEqual(draws(b));
  });

  it('rejects invalid configurations with a readable error', () => {
    expect(() => parseFaultConfig({ 'token-data': { error500Rate: 2 } })).toThrow(/fault configuration/);
    expect(() => parseFaultConfig({ nope: {} })).toThrow(/fault configuration/);
    expect(() => parseFaultConfig({ '*': { script: ['boom'] } })).toThrow(/fault configuration/);
    expect(parseFaultConfig({ '*': { script: ['reset', 'ok'], latencyMs: 5 } })).toEqual({
      '*': { script: ['reset', 'ok'], latencyMs: 5 },
    });
  });
});

describe('load and lifecycle', () => {
  // About a second on idle cores, over 20 s with none free: the deadline only bounds the run.
  it('answers 1,000 concurrent requests', async () => {
    const sim = await start();
    try {
      const tokens = sim.market.tokenAddresses().slice(0, 4);
      const statuses = await Promise.all(
        Array.from({ length: 1000 }, async (_, i) => (await get(sim, `/api/token-data?address=${tokens[i % tokens.length] ?? ''}`)).status),
      );
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect(sim.stats.count('token-data')).toBe(1000);
    } finally {
      await sim.close();
    }
  }, 120_000);

  it('keeps connections alive', async () => {
    const sim = await start();
    try {
      const answer = await fetch(`${sim.baseUrl}/api/token-data?address=${sim.market.tokenAddresses()[0] ?? ''}`, {
        headers: { 'x-api-key': KEY },
      });
      await answer.arrayBuffer();
      expect(answer.headers.get('connection')).toBe('keep-alive');
    } finally {
      await sim.close();
    }
  });

  it('closes promptly, even with requests held by injected latency', async () => {
    // Held for ten minutes, far past the test's own deadline: only a prompt close lets the test end.
    const sim = await start({ faults: { '*': { latencyMs: 600_000 } } });
    const pending = fetch(`${sim.baseUrl}/api/token-data?address=x`, { headers: { 'x-api-key': KEY } }).catch((error: unknown) => error);
    await until(() => sim.stats.count('token-data') === 1, 'the request held at the server');
    await sim.close();
    expect(await pending).toBeInstanceOf(Error);
    await expect(fetch(`${sim.baseUrl}/api/token-data`)).rejects.toThrow();
  });

  it('listens on the requested host and reports its URLs without a trailing slash', async () => {
    const sim = await start();
    try {
      expect(sim.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sim.wsUrl).toBe(sim.baseUrl.replace('http://', 'ws://'));
    } finally {
      await sim.close();
    }
  });

  it('the market moves by itself', async () => {
    const sim = await start({ tradesPerSecond: 200 });
    try {
      let trades = 0;
      sim.market.onChange((change) => {
        if (change.kind === 'trade') trades++;
      });
      await until(() => trades > 10, 'trades the market made by itself');
    } finally {
      await sim.close();
    }
  });

  it('the market trades at tradesPerSecond', () => {
    // The driver's ticks on fake timers: a second of them, however long the machine takes.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const market = new Market({ seed: 42 });
    const driver = new MarketDriver(market, 200, 8);
    try {
      let trades = 0;
      market.onChange((change) => {
        if (change.kind === 'trade') trades++;
      });
      driver.start();
      vi.advanceTimersByTime(1_000);
      expect(trades).toBe(200);
    } finally {
      driver.stop();
      vi.useRealTimers();
    }
  });
});
