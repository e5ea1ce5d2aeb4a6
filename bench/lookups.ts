/**
 * The market data layer and the look-ups (`npm run bench -- lookups`): the simulator's start and
 * history generation, batched and sequential client calls, the cache, and a /token card.
 */
import { performance } from 'node:perf_hooks';
import { renderCardText } from '../src/chats/console/render';
import { buildTokenCard } from '../src/cards/tokenCard';
import { silentLogger } from '../src/log';
import { MarketClient } from '../src/market/client';
import { QueryService } from '../src/query/service';
import { startSimulator, type RunningSimulator } from 'tmds-simulator';
import type { Row } from './section';

const API_KEY = 'bench-key';
const ROUNDS = 5;
/** The spec's 100 technicals a minute would measure the limit, not the client: both sides lift it here. */
const UNLIMITED = { limit: 1_000_000, windowMs: 60_000 };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function timed(rounds: number, run: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return median(times);
}

function uncachedClient(sim: RunningSimulator): MarketClient {
  const off = {
    'token-data': 0,
    'token-technicals': 0,
    'holders-history': 0,
    'trades-history': 0,
    'chart-history': 0,
    'wallet-tracker': 0,
  };
  return new MarketClient({
    baseUrl: sim.baseUrl,
    apiKey: API_KEY,
    logger: silentLogger,
    cacheTtlMs: off,
    limits: { 'token-technicals': UNLIMITED },
  });
}

export async function benchLookups(): Promise<Row[]> {
  const rows: Row[] = [];

  const startMs = await timed(ROUNDS, async () => {
    const sim = await startSimulator({ apiKey: API_KEY, port: 0, seed: 42 });
    await sim.close();
  });
  rows.push({ what: 'simulator start and stop (seed 42)', figure: `${startMs.toFixed(1)} ms` });

  const sim = await startSimulator({ apiKey: API_KEY, port: 0, seed: 42, technicalsLimit: UNLIMITED });
  const generateMs = await timed(1, async () => {
    sim.market.listing();
  });
  rows.push({ what: 'simulator: generate all 44 token histories', figure: `${generateMs.toFixed(0)} ms` });
  const addresses = sim.market.listing().tokens.map((token) => token.address);

  // 1,000 concurrent single-token look-ups: merged per tick into batched token-data calls.
  const client = uncachedClient(sim);
  sim.stats.reset();
  const lookupMs = await timed(ROUNDS, async () => {
    await Promise.all(Array.from({ length: 1000 }, (_, index) => client.token(addresses[index % addresses.length] ?? '')));
  });
  const perRound = sim.stats.count('token-data') / ROUNDS;
  rows.push({ what: '1,000 concurrent token() look-ups, no cache', figure: `${lookupMs.toFixed(0)} ms, ${perRound} token-data requests` });

  // Sequential look-ups measure one round trip through the whole client (limiter, retry, schema).
  const sequentialMs = await timed(ROUNDS, async () => {
    for (const address of addresses) await client.technicals(address);
  });
  rows.push({ what: 'technicals, sequential, no cache (per call)', figure: `${(sequentialMs / addresses.length).toFixed(2)} ms` });

  const cached = new MarketClient({
    baseUrl: sim.baseUrl,
    apiKey: API_KEY,
    logger: silentLogger,
    limits: { 'token-technicals': UNLIMITED },
  });
  await cached.technicals(addresses[0] ?? '');
  const cachedMs = await timed(ROUNDS, async () => {
    for (let index = 0; index < 10_000; index++) await cached.technicals(addresses[0] ?? '');
  });
  rows.push({ what: 'technicals from cache (per call)', figure: `${((cachedMs / 10_000) * 1000).toFixed(1)} µs` });

  // A /token answer end to end, and its card alone.
  const query = new QueryService(cached);
  const cardMs = await timed(ROUNDS, async () => {
    for (const address of addresses) await query.token(address);
  });
  rows.push({ what: '/token card, warm cache, per answer', figure: `${(cardMs / addresses.length).toFixed(2)} ms` });
  const token = await cached.token(addresses[0] ?? '');
  const buildMs = await timed(ROUNDS, async () => {
    for (let index = 0; index < 1000; index++) renderCardText(buildTokenCard({ token, solUsd: 150, now: new Date() }));
  });
  rows.push({ what: 'build and render a token card as text', figure: `${((buildMs / 1000) * 1000).toFixed(0)} µs` });

  await client.close();
  await cached.close();
  await sim.close();
  return rows;
}
