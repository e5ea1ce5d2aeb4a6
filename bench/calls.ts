/**
 * Calls: the peak job's upstream requests per hour at 1,000 active calls (ages spread evenly over
 * the 30 days it reads them), against the share of the service it may take, and its latency from a
 * candle high to the milestone written for delivery. Simulated time: the simulator and the job
 * share one clock that the bench moves a tick at a time, so an hour takes seconds; the requests are
 * real HTTP requests to the simulator on 127.0.0.1 and the store a real SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CallPeaks, DEFAULT_PEAK_REQUESTS_PER_MINUTE, PEAK_TICK_MS } from '../src/jobs/callPeaks';
import { silentLogger } from '../src/log';
import { MarketClient } from '../src/market/client';
import type { ChatRef } from '../src/model/chat';
import { callMarket } from '../src/query/callBook';
import { startSimulator } from 'tmds-simulator';
import { openSqliteStore } from '../src/store/sqliteStore';
import { benchCallRankings } from './callRankings';
import { recordResult } from './results';
import type { Row } from './section';

const KEY = 'bench-calls-key';
const CALLS = 1_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export async function benchCalls(): Promise<Row[]> {
  let clockMs = Date.UTC(2027, 5, 1, 12);
  const sim = await startSimulator({ apiKey: KEY, port: 0, seed: 7, control: true, tradesPerSecond: 0, now: () => clockMs });
  const client = new MarketClient({
    baseUrl: sim.baseUrl,
    apiKey: KEY,
    logger: silentLogger,
    maxRetries: 0,
    cacheTtlMs: { 'chart-history': 0 },
  });
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-bench-calls-'));
  const store = openSqliteStore(join(dir, 'calls.db'));
  try {
    const hostile = new Set(sim.market.hostileTokens());
    const tokens = sim.market.tokenAddresses().filter((address) => !hostile.has(address));
    const markets = new Map<string, NonNullable<ReturnType<typeof callMarket>>>();
    for (const address of tokens) {
      const market = callMarket({ token: await client.token(address), solUsd: 150 });
      if (market !== null) markets.set(address, market);
    }
    const priced = [...markets.keys()];
    // Each token called in as many chats as it takes to make 1,000 calls, at ages spread over 30 days.
    for (let index = 0; index < CALLS; index++) {
      const address = priced[index % priced.length] ?? '';
      const chat: ChatRef = { platform: 'telegram', chatId: `-100${Math.floor(index / priced.length)}`, threadId: null, scopeId: null };
      if (index < priced.length || index % priced.length === 0) await store.calls.setEnabled(chat, true, new Date(clockMs));
      const market = markets.get(address);
      if (market === undefined) continue;
      const calledAt = new Date(clockMs - (((index * 7919) % CALLS) / CALLS) * 30 * DAY_MS);
      await store.calls.record({
        chat,
        address,
        symbol: 'B',
        name: 'Bench',
        userId: `u${index % 40}`,
        userName: `caller ${index % 40}`,
        messageId: String(index),
        calledAt,
        solUsd: 150,
        ...market,
      });
    }
    const job = new CallPeaks({ calls: store.calls, market: client, now: () => new Date(clockMs), logger: silentLogger });
    const tick = async (): Promise<void> => {
      clockMs += PEAK_TICK_MS;
      await job.runOnce();
    };
    // Two hours to reach the schedule's steady state (every call starts due), then one measured.
    for (let elapsed = 0; elapsed < 2 * HOUR_MS; elapsed += PEAK_TICK_MS) await tick();
    const active = await store.calls.activeCount();
    const before = sim.stats.count('chart-history');
    for (let elapsed = 0; elapsed < HOUR_MS; elapsed += PEAK_TICK_MS) await tick();
    const perHour = sim.stats.count('chart-history') - before;
    recordResult('calls_peak_requests_per_hour', perHour, 'requests/h');

    // Latency: a young call's token pumped at a point of its 5-minute slot, then ticks until its milestone is in the outbox.
    const latencies: number[] = [];
    for (let trial = 0; trial < 5; trial++) {
      const address = priced[trial] ?? '';
      const chat: ChatRef = { platform: 'telegram', chatId: `-200${trial}`, threadId: null, scopeId: null };
      await store.calls.setEnabled(chat, true, new Date(clockMs));
      const market = callMarket({ token: await client.token(address), solUsd: 150 });
      if (market === null) continue;
      await store.calls.record({
        chat,
        address,
        symbol: 'B',
        name: 'Bench',
        userId: 'lat',
        userName: 'lat',
        messageId: 'm',
        calledAt: new Date(clockMs),
        solUsd: 150,
        ...market,
      });
      await tick();
      clockMs += trial * 53_000;
      const pumpedAt = clockMs;
      sim.controls.price({ tokenAddress: address, changePct: 400 });
      const outboxBefore = (await store.outbox.pending()).count;
      while ((await store.outbox.pending()).count === outboxBefore && clockMs - pumpedAt < HOUR_MS) await tick();
      latencies.push((clockMs - pumpedAt) / 1000);
    }
    latencies.sort((a, b) => a - b);
    const median = latencies[Math.floor(latencies.length / 2)] ?? Number.NaN;
    recordResult('calls_milestone_latency_s', median, 's');
    const rankings = await benchCallRankings();
    return [
      ...rankings,
      {
        what: `calls: peak job chart-history requests per hour at ${active} active calls (share allowed: ${DEFAULT_PEAK_REQUESTS_PER_MINUTE * 60}/h)`,
        figure: `${perHour}`,
      },
      {
        what: `calls: candle high to milestone written, median of ${latencies.length} (simulated seconds; ${latencies.join(', ')})`,
        figure: `${median} s`,
      },
    ];
  } finally {
    await store.close();
    client.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
