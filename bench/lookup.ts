/**
 * `npm run bench -- lookup`: what the command pipeline costs on top of the network. A /token typed
 * in a chat goes through the Dispatcher (parse, policy, run, action keys) to the query service, the
 * market client (batcher, limiter, retry, schema) and back to a card rendered as text; the
 * baseline is a bare undici GET of the same token-data URL with its JSON parsed. Both talk to the
 * built-in simulator over 127.0.0.1, interleaved, 200 times each; the figures are medians. The
 * buttons' keys go to the SQLite store on a file, as the bot's do, and in a third series, run in
 * turn with the other two, to the PostgreSQL store (a throwaway server, bench/postgres.ts).
 *
 * lookup_overhead_ratio: pipeline / bare GET, with the client's cache off.
 * lookup_fair_floor_ms: the fair floor, a bare undici client making the card's two GETs at once,
 * `token-data` and the day's 5-minute candles, both bodies parsed, as /token does.
 * lookup_overhead_vs_fair_ratio: pipeline / fair floor (goal ≤ 1.2): the median of the rounds'
 * ratios, each round's two series interleaved, with the rounds' min and max beside it.
 * lookup_overhead_ratio_pg: the same with the keys in PostgreSQL (goal ≤ 1.1 × the SQLite figure
 * of the same run; lookup_overhead_pg_vs_sqlite is that quotient).
 * lookup_cached_ms: the same /token within the cache's lifetime (goal < 1 ms).
 * lookup_card_back_to_back_us, lookup_card_after_sleep_us: the token card's build and text render
 * alone, back to back and right after the thread slept 0.4 ms (bench/wakeCost.ts): what the
 * look-up's own work costs when it follows a wait, as it always does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { movesFrom, MOVE_CANDLE_SECS } from '../src/cards/marketMoves';
import { renderCardText } from '../src/chats/console/render';
import { CONSOLE_CALLER } from '../src/chats/console/chat';
import { Dispatcher } from '../src/dispatch/dispatcher';
import { loadCommands } from '../src/dispatch/registry';
import { silentLogger } from '../src/log';
import { MarketClient } from '../src/market/client';
import { QueryService } from '../src/query/service';
import { startSimulator } from 'tmds-simulator';
import { openSqliteStore } from '../src/store/sqliteStore';
import { openPostgresStore } from '../src/store/postgres/postgresStore';
import type { ActionKeyStore } from '../src/store/actionKeys';
import { benchPostgres } from './postgres';
import { freshSolUsdRate } from '../src/query/usdRate';
import { recordResult } from './results';
import type { Row } from './section';
import { measureWakeCost } from './wakeCost';

const API_KEY = 'bench-key';
const SAMPLES = 200;
/** The samples are taken in rounds; each round gives one pipeline / fair-floor ratio. */
const ROUNDS = 8;
const WARM_UP = 100;
const CACHE_OFF = {
  'token-data': 0,
  'token-technicals': 0,
  'holders-history': 0,
  'trades-history': 0,
  'chart-history': 0,
  'wallet-tracker': 0,
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * One run's wall time. The turn after it is let pass untimed: what a run leaves for the end of its
 * turn (the SQLite store trims the action keys then) must not land in the next run's time.
 */
async function time(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  const took = performance.now() - started;
  await new Promise((resolve) => setImmediate(resolve));
  return took;
}

export async function benchLookup(): Promise<Row[]> {
  const sim = await startSimulator({ apiKey: API_KEY, port: 0, seed: 42 });
  const commands = await loadCommands();
  const address = sim.market.listing().tokens[0]?.address ?? '';
  const line = `/token ${address}`;
  const url = `${sim.baseUrl}/api/token-data?address=${encodeURIComponent(address)}`;
  const bareAgent = new Agent({ keepAliveTimeout: 30_000 });

  // The buttons' keys in the store the bot uses, SQLite on a file: issuing them is part of the answer.
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-lookup-'));
  const store = openSqliteStore(join(dir, 'bench.db'));
  const postgres = await benchPostgres();
  // synchronous_commit=off, as SQLite's synchronous=NORMAL: the card never waits for the insert either way.
  const pgStore = postgres.server === null ? null : await openPostgresStore(await postgres.server.database('off'));
  const dispatcherOver = (client: MarketClient, actionKeys: ActionKeyStore = store.actionKeys) =>
    new Dispatcher({ commands, services: { query: new QueryService(client) }, actionKeys, logger: silentLogger });
  const answer = async (dispatcher: Dispatcher) => {
    const reply = await dispatcher.runLine(line, CONSOLE_CALLER);
    if (reply === null || reply.errorId !== null) throw new Error(`/token failed in the bench: ${reply?.card.title ?? 'not a command'}`);
    return renderCardText(reply.card);
  };
  const bare = async () => {
    const response = await request(url, { headers: { 'x-api-key': API_KEY }, dispatcher: bareAgent });
    if (response.statusCode !== 200) throw new Error(`bare GET answered ${response.statusCode}`);
    return response.body.json();
  };
  const candlesUrl = () =>
    `${sim.baseUrl}/api/chart-history?base=${encodeURIComponent(address)}&from=${movesFrom(Date.now())}&intervalSecs=${MOVE_CANDLE_SECS}`;
  const bareGet = async (target: string) => {
    const response = await request(target, { headers: { 'x-api-key': API_KEY }, dispatcher: bareAgent });
    if (response.statusCode !== 200) throw new Error(`bare GET answered ${response.statusCode}`);
    return response.body.json();
  };
  // What the card cannot do without: the same two requests at once, both answers parsed.
  const fair = () => Promise.all([bareGet(url), bareGet(candlesUrl())]);

  const uncached = new MarketClient({ baseUrl: sim.baseUrl, apiKey: API_KEY, logger: silentLogger, cacheTtlMs: CACHE_OFF });
  const cached = new MarketClient({ baseUrl: sim.baseUrl, apiKey: API_KEY, logger: silentLogger });
  const uncachedDispatcher = dispatcherOver(uncached);
  const cachedDispatcher = dispatcherOver(cached);
  const pgDispatcher = pgStore === null ? null : dispatcherOver(uncached, pgStore.actionKeys);

  // Warm every path: sockets open, the SOL→USD rate known, code paths compiled.
  for (let index = 0; index < WARM_UP; index++) {
    await answer(uncachedDispatcher);
    if (pgDispatcher !== null) await answer(pgDispatcher);
    await bare();
    await fair();
  }
  const pipelineMs: number[] = [];
  const pgPipelineMs: number[] = [];
  const bareMs: number[] = [];
  const fairMs: number[] = [];
  const fairRatios: number[] = [];
  // Interleaved, so a slow stretch of the machine weighs on every side alike; in rounds, so the
  // spread of the ratio over the run shows beside its median.
  const perRound = Math.ceil(SAMPLES / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    const roundPipeline: number[] = [];
    const roundFair: number[] = [];
    for (let index = 0; index < perRound; index++) {
      // Which goes first alternates: neither side always runs right after the other's wait.
      if (index % 2 === 1) roundFair.push(await time(fair));
      roundPipeline.push(await time(() => answer(uncachedDispatcher)));
      if (index % 2 === 0) roundFair.push(await time(fair));
      if (pgDispatcher !== null) pgPipelineMs.push(await time(() => answer(pgDispatcher)));
      bareMs.push(await time(bare));
    }
    pipelineMs.push(...roundPipeline);
    fairMs.push(...roundFair);
    fairRatios.push(median(roundPipeline) / median(roundFair));
  }

  // What issuing a token card's five keys costs the card, in each store as the card sees it (the
  // keys handed back, their writing under way), and that writing to its end, which the card does
  // not wait for.
  const fiveKeys = Array.from({ length: 5 }, (_, index) => ({ command: 'token', args: [address, String(index)] }));
  const keysFor = CONSOLE_CALLER.chat;
  const issueMs = async (keys: ActionKeyStore, settle?: () => Promise<void>): Promise<number> => {
    const samples: number[] = [];
    for (let index = 0; index < SAMPLES + WARM_UP; index++) {
      const took = await time(async () => {
        await keys.issueAll(fiveKeys, keysFor, new Date(Date.now() + 60_000));
        await settle?.();
      });
      if (index >= WARM_UP) samples.push(took);
    }
    return median(samples) * 1000;
  };
  const keysSqliteUs = await issueMs(store.actionKeys);
  // SQLite's keys are written at the end of the turn too: the card's five to their end, trims included.
  const keysSqliteWrittenUs = await issueMs(store.actionKeys, async () => store.actionKeys.flush());
  const keysPgUs = pgStore === null ? null : await issueMs(pgStore.actionKeys);
  const keysPgWrittenUs = pgStore === null ? null : await issueMs(pgStore.actionKeys, () => pgStore.actionKeys.settled());
  recordResult('lookup_keys_sqlite_us', keysSqliteUs, 'µs');
  recordResult('lookup_keys_sqlite_written_us', keysSqliteWrittenUs, 'µs');
  if (keysPgUs !== null && keysPgWrittenUs !== null) {
    recordResult('lookup_keys_pg_us', keysPgUs, 'µs');
    recordResult('lookup_keys_pg_written_us', keysPgWrittenUs, 'µs');
  }

  await answer(cachedDispatcher);
  const cachedMs: number[] = [];
  for (let index = 0; index < SAMPLES; index++) cachedMs.push(await time(() => answer(cachedDispatcher)));

  const ratio = median(pipelineMs) / median(bareMs);
  recordResult('lookup_overhead_ratio', ratio, 'ratio');
  const fairRatio = median(fairRatios);
  recordResult('lookup_fair_floor_ms', median(fairMs), 'ms');
  recordResult('lookup_overhead_vs_fair_ratio', fairRatio, 'ratio');
  recordResult('lookup_overhead_vs_fair_ratio_min', Math.min(...fairRatios), 'ratio');
  recordResult('lookup_overhead_vs_fair_ratio_max', Math.max(...fairRatios), 'ratio');
  const pgRatio = pgStore === null ? null : median(pgPipelineMs) / median(bareMs);
  if (pgRatio !== null) {
    recordResult('lookup_overhead_ratio_pg', pgRatio, 'ratio');
    // The goal is relative: PostgreSQL's figure against SQLite's of the same run.
    recordResult('lookup_overhead_pg_vs_sqlite', pgRatio / ratio, 'ratio');
  }
  recordResult('lookup_cached_ms', median(cachedMs), 'ms');

  const wake = measureWakeCost(await cached.token(address), freshSolUsdRate(cached));
  recordResult('lookup_card_back_to_back_us', wake.backToBack, 'µs');
  recordResult('lookup_card_after_sleep_us', wake.afterSleep, 'µs');

  await uncached.close();
  await cached.close();
  await bareAgent.close();
  await sim.close();
  await store.close();
  await pgStore?.close();
  if (postgres.server !== null) await postgres.server.stop();
  rmSync(dir, { recursive: true, force: true });
  return [
    { what: '/token through the Dispatcher to a rendered card, no cache (median)', figure: `${median(pipelineMs).toFixed(3)} ms` },
    { what: 'bare undici GET of the same token-data URL (median)', figure: `${median(bareMs).toFixed(3)} ms` },
    { what: 'lookup_overhead_ratio, against the one GET', figure: ratio.toFixed(2) },
    { what: 'lookup_fair_floor_ms: bare undici, token-data and candles at once (median)', figure: `${median(fairMs).toFixed(3)} ms` },
    {
      what: `lookup_overhead_vs_fair_ratio (goal ≤ 1.2), median of ${ROUNDS} rounds (min–max)`,
      figure: `${fairRatio.toFixed(2)} (${Math.min(...fairRatios).toFixed(2)}–${Math.max(...fairRatios).toFixed(2)})`,
    },
    postgres.server === null
      ? { what: 'lookup_overhead_ratio_pg', figure: `not measured: ${postgres.reason}` }
      : {
          what: `lookup_overhead_ratio_pg, keys in PostgreSQL (goal ≤ 1.1 × ${ratio.toFixed(2)}); ${postgres.server.describe('off')}`,
          figure: `${(pgRatio ?? Number.NaN).toFixed(2)} (${((pgRatio ?? Number.NaN) / ratio).toFixed(2)} × SQLite's; pipeline ${median(pgPipelineMs).toFixed(3)} ms)`,
        },
    {
      what: "a token card's five action keys (median): SQLite as the card waits / to their end / PostgreSQL as the card waits / to their end",
      figure: `${keysSqliteUs.toFixed(1)} / ${keysSqliteWrittenUs.toFixed(1)} / ${keysPgUs?.toFixed(1) ?? '–'} / ${keysPgWrittenUs?.toFixed(1) ?? '–'} µs`,
    },
    { what: 'lookup_cached_ms: /token within the cache lifetime (goal < 1)', figure: `${median(cachedMs).toFixed(3)} ms` },
    {
      what: 'token card build + text render: back to back / after 0.4 ms busy / after 0.4 ms asleep',
      figure: `${wake.backToBack.toFixed(1)} / ${wake.afterBusy.toFixed(1)} / ${wake.afterSleep.toFixed(1)} µs`,
    },
  ];
}
