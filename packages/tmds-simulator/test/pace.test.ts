/**
 * The built-in simulator's shipped pace, on a simulated clock: 15 minutes of its market in well
 * under a second of real time, no timers. For each of the first three tokens with ordinary names
 * (those a client shows first, as TokenWatch's console banner does), whenever a person starts
 * tracking it, something an alert of `/track token ADDR all` reports (a price move of 10% from
 * where tracking began, a pool down 30% from its peak, a risk status or flag changed, a
 * wallet crossing 1% of the supply) happens within 2 minutes, less the seconds the subscription
 * takes to be served. The same seed gives the same market, and a still pace stays still.
 */
import { describe, expect, it } from 'vitest';
import { MarketDriver, type DriverEvent } from '../src/driver';
import { Market } from '../src/market';
import { LIFELIKE_PACE, STILL_PACE, tradesOnly, type Pace } from '../src/pace';
import { mixSeed } from '../src/random';
import type { WireToken } from '../src/wireTypes';

/** The first three tokens that are not among the hostile ones, in the listing's order. */
function ordinaryTokens(market: Market): string[] {
  const hostile = new Set(market.hostileTokens());
  return market
    .tokenAddresses()
    .filter((address) => !hostile.has(address))
    .slice(0, 3);
}

const RUN_SECS = 10 * 60;
/** 2 minutes, less 5 s for /track to be answered and the token's subscription served (its baseline). */
const WINDOW_SECS = 115;
const PRICE_PCT = 10;
const LIQUIDITY_DROP = 0.3;
const WHALE_PCT = 1;

interface Observation {
  price: number;
  pools: Map<string, number>;
  risk: string;
}

function observe(token: WireToken): Observation {
  const pools = new Map(Object.values(token.liquidityPools).map((pool) => [pool.poolAddress, Number(pool.suspectedQuoteTokenReserves)]));
  let deepest = 0;
  let price = 0;
  for (const pool of Object.values(token.liquidityPools)) {
    if (Number(pool.suspectedQuoteTokenReserves) > deepest) {
      deepest = Number(pool.suspectedQuoteTokenReserves);
      price = Number(pool.suspectedBaseTokenPrice);
    }
  }
  const { isMutable, mintAuthority, freezeAuthority } = token.riskAnalysis;
  return { price, pools, risk: JSON.stringify([token.riskStatus, isMutable, mintAuthority, freezeAuthority]) };
}

/** Seconds from t0 to the first alert-worthy change, or null when none comes within `window`. */
function firstAlertAfter(series: Observation[], whaleTimes: number[], t0: number, window: number): number | null {
  const start = series[t0];
  if (start === undefined) throw new Error('no observation at the start');
  const peaks = new Map(start.pools);
  for (let t = t0 + 1; t <= t0 + window && t < series.length; t++) {
    const now = series[t] as Observation;
    const before = series[t - 1] as Observation;
    if (whaleTimes.some((at) => at > t0 && at <= t)) return t - t0;
    if (now.risk !== before.risk) return t - t0;
    if (start.price > 0 && Math.abs(now.price / start.price - 1) * 100 >= PRICE_PCT) return t - t0;
    for (const [pool, peak] of peaks) {
      const reserves = now.pools.get(pool);
      if (reserves === undefined || reserves <= peak * (1 - LIQUIDITY_DROP)) return t - t0;
      peaks.set(pool, Math.max(peak, reserves));
    }
  }
  return null;
}

interface Run {
  tokens: string[];
  /** Per banner token, an observation each simulated second. */
  series: Map<string, Observation[]>;
  /** Per banner token, the seconds at which a wallet crossed 1% of the supply, in or out. */
  whales: Map<string, number[]>;
  surprises: DriverEvent[];
  trades: number;
}

function run(seed: number, pace: Pace, secs = RUN_SECS): Run {
  let nowMs = 1_750_000_000_000;
  const market = new Market({ seed, now: () => nowMs });
  const tokens = ordinaryTokens(market);
  const driver = new MarketDriver(market, pace, mixSeed(seed, 8));
  const surprises: DriverEvent[] = [];
  driver.onSurprise((event) => surprises.push(event));
  const series = new Map(tokens.map((address) => [address, [] as Observation[]]));
  const whales = new Map(tokens.map((address) => [address, [] as number[]]));
  const shares = new Map<string, number>();
  const supply = new Map<string, number>();
  for (const address of tokens) {
    supply.set(address, Number(market.token(address)?.totalSupply ?? 0));
    for (const holder of market.holders(address) ?? []) shares.set(`${address}|${holder.address}`, Number(holder.currentlyHoldingAmount));
  }
  let second = 0;
  let trades = 0;
  market.onChange((change) => {
    if (change.kind === 'trade') trades++;
    if (change.kind !== 'holder' || !series.has(change.tokenAddress)) return;
    const key = `${change.tokenAddress}|${change.wallet}`;
    const total = supply.get(change.tokenAddress) ?? 0;
    const before = ((shares.get(key) ?? 0) / total) * 100;
    const held = Number(market.holder(change.tokenAddress, change.wallet)?.currentlyHoldingAmount ?? 0);
    shares.set(key, held);
    if (before >= WHALE_PCT !== (held / total) * 100 >= WHALE_PCT) whales.get(change.tokenAddress)?.push(second + 1);
  });
  const record = () => {
    for (const address of tokens) {
      const token = market.token(address);
      if (token === null) throw new Error('a banner token is gone');
      series.get(address)?.push(observe(token));
    }
  };
  record();
  for (second = 0; second < secs; second++) {
    nowMs += 1000;
    driver.advance(1000);
    record();
  }
  return { tokens, series, whales, surprises, trades };
}

/** For every start second (every 5 s), the seconds to the first alert-worthy change: the worst and the median. */
function timesToFirstAlert(result: Run): { worst: number; median: number; missed: string[] } {
  const times: number[] = [];
  const missed: string[] = [];
  for (const address of result.tokens) {
    const series = result.series.get(address) ?? [];
    for (let t0 = 0; t0 + WINDOW_SECS < series.length; t0 += 5) {
      const after = firstAlertAfter(series, result.whales.get(address) ?? [], t0, WINDOW_SECS);
      if (after === null) missed.push(`${address} tracked at ${t0} s`);
      else times.push(after);
    }
  }
  times.sort((a, b) => a - b);
  return { worst: times.at(-1) ?? Infinity, median: times[Math.floor(times.length / 2)] ?? Infinity, missed };
}

describe('the built-in simulator’s pace', () => {
  it('gives every banner token something to alert within 2 minutes of tracking it, whenever that is', () => {
    const result = run(42, LIFELIKE_PACE);
    const { worst, median, missed } = timesToFirstAlert(result);
    // The figure the README gives: `npx vitest run packages/tmds-simulator/test/pace.test.ts` prints it.
    console.info(
      `shipped pace, seed 42, banner tokens: first alert-worthy change after ${median} s (median), ${worst} s at worst, ` +
        `over ${RUN_SECS / 60} simulated minutes`,
    );
    expect(missed).toEqual([]);
    expect(worst).toBeLessThanOrEqual(WINDOW_SECS);
  });

  it('holds for other seeds too', () => {
    for (const seed of [7, 2024]) {
      const { missed } = timesToFirstAlert(run(seed, LIFELIKE_PACE, 6 * 60));
      expect(missed, `seed ${seed}`).toEqual([]);
    }
  });

  it('makes every kind of surprise, and trades at its rate', () => {
    const result = run(42, LIFELIKE_PACE, 5 * 60);
    expect(new Set(result.surprises.map((event) => event.kind))).toEqual(new Set(['jump', 'whale', 'liquidity', 'risk']));
    // Four ordinary trades a second, plus the surprises that are trades.
    expect(result.trades).toBeGreaterThanOrEqual(4 * 5 * 60);
    // Nothing at all in the first 20 s: a look-up typed at start-up reads the market the banner describes.
    expect(result.surprises.every((event) => event.atMs >= 20_000)).toBe(true);
  });

  it('is the same for a seed, and differs for another', () => {
    const kinds = (seed: number) =>
      run(seed, LIFELIKE_PACE, 2 * 60).surprises.map((event) => `${event.atMs}|${event.tokenAddress}|${event.kind}`);
    expect(kinds(42)).toEqual(kinds(42));
    expect(kinds(42)).not.toEqual(kinds(43));
  });

  it('a still pace moves nothing, and a pace of trades only makes no surprise', () => {
    const still = run(42, STILL_PACE, 3 * 60);
    expect(still.trades).toBe(0);
    expect(still.surprises).toEqual([]);
    const first = still.series.values().next().value ?? [];
    expect(new Set(first.map((observation) => JSON.stringify([observation.price, [...observation.pools], observation.risk]))).size).toBe(1);
    const tradesOnlyRun = run(42, tradesOnly(2), 60);
    expect(tradesOnlyRun.surprises).toEqual([]);
    expect(tradesOnlyRun.trades).toBe(120);
  });
});
