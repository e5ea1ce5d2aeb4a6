/** Spec §2.8 and §4.5: GET /api/chart-history. */
import { describe, expect, it } from 'vitest';
import {
  expectClientError,
  expectErrorMessageBody,
  expectStatus,
  MALFORMED_ADDRESS,
  orderBreaks,
  Problems,
  show,
  unknownAddress,
} from './support/checks';
import { CANDLE_FIELDS } from './support/fields';
import { conformanceTarget, titleFor, useConformance, type Conformance, type Params, type Reply } from './support/server';

const PATH = '/api/chart-history';
const target = conformanceTarget();
const HOUR = 3600;
const DAY = 24 * HOUR;
const TOKENS_SEARCHED = 5;

interface Candle {
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);
const alignDown = (seconds: number, interval: number): number => Math.floor(seconds / interval) * interval;

/** The §2.8 fields of every candle, `time` equal to `timestamp` (ms), and low ≤ open, close ≤ high. */
function candlesOf(reply: Reply): Candle[] {
  expectStatus(reply, 200);
  const problems = new Problems(reply.request);
  const body = problems.fields(reply.body, { candles: 'array' }, 'body');
  problems.assertNone();
  const candles = (body as { candles: unknown[] }).candles;
  candles.forEach((candle, i) => {
    const where = `candles[${i}]`;
    const record = problems.fields(candle, CANDLE_FIELDS, where);
    if (!record) return;
    const { time, timestamp, open, high, low, close, volume } = record;
    if (typeof timestamp === 'number') {
      problems.check(timestamp > 1e12, `${where}.timestamp: expected Unix milliseconds (> 1e12), got ${timestamp}`);
      if (typeof time === 'string') {
        problems.check(
          Date.parse(time) === timestamp,
          `${where}.time ${show(time)} is ${Date.parse(time)} ms; expected it to equal timestamp ${timestamp}`,
        );
      }
    }
    if (typeof open === 'number' && typeof high === 'number' && typeof low === 'number' && typeof close === 'number') {
      problems.check(
        low <= Math.min(open, close) && Math.max(open, close) <= high,
        `${where}: expected low ≤ open, close ≤ high, got o=${open} h=${high} l=${low} c=${close}`,
      );
      problems.check(low >= 0, `${where}.low: a price cannot be negative, got ${low}`);
    }
    if (typeof volume === 'number') problems.check(volume >= 0, `${where}.volume: expected ≥ 0, got ${volume}`);
  });
  problems.assertNone();
  return candles as Candle[];
}

/** Sorted timestamps (seconds); the order of candles is the server's choice (§4.5 "not shown"). */
function secondsOf(candles: readonly Candle[]): number[] {
  return candles.map((candle) => candle.timestamp / 1000).sort((a, b) => a - b);
}

function expectWithin(reply: Reply, candles: readonly Candle[], from: number, to: number): void {
  const outside = secondsOf(candles).filter((seconds) => seconds < from || seconds > to);
  expect(outside, `${reply.request}: candle timestamps (s) outside [from=${from}, to=${to}]`).toEqual([]);
}

function expectSpacing(reply: Reply, candles: readonly Candle[], interval: number): void {
  const seconds = secondsOf(candles);
  const close = orderBreaks(seconds, (a, b) => b - a >= interval);
  expect(
    close.map((i) => `${seconds[i]} → ${seconds[i + 1]}`),
    `${reply.request}: candles closer than intervalSecs=${interval} s apart`,
  ).toEqual([]);
}

describe.skipIf(target.mode === 'skip')(titleFor('conformance: chart-history (§2.8, §4.5)', target), () => {
  const ctx = useConformance(target);

  let active: Promise<{ base: string; last: number }> | undefined;
  /** A listed token with candles in the last week, and its newest candle (Unix seconds). */
  const activeToken = (c: Conformance): Promise<{ base: string; last: number }> =>
    (active ??= (async () => {
      const to = nowSeconds();
      const from = alignDown(to - 7 * DAY, HOUR);
      for (const { address } of c.tokens.slice(0, TOKENS_SEARCHED)) {
        const candles = candlesOf(await c.get(PATH, { base: address, from, to, intervalSecs: HOUR }));
        if (candles.length >= 3) return { base: address, last: Math.max(...secondsOf(candles)) };
      }
      throw new Error(`none of the first ${TOKENS_SEARCHED} tokens has 3 hourly candles in the last 7 days; the range checks need one`);
    })());

  const get = (params: Params): Promise<Reply> => ctx().get(PATH, params);

  it('answers {candles} with complete §2.8 candles for the default request', async () => {
    const { base } = await activeToken(ctx());
    const candles = candlesOf(await get({ base }));
    expect(candles.length, `${PATH}?base=${base}: no candle in the last 24 h of an active token`).toBeGreaterThan(0);
  });

  it.each([60, 300, HOUR, DAY])('keeps candles within [from, to] and at least intervalSecs=%i apart', async (interval) => {
    const { base, last } = await activeToken(ctx());
    // Ends after the newest hourly candle's hour and reaches back past its start, so it holds trades.
    const to = alignDown(last + HOUR - 1, interval) + interval;
    const from = to - Math.max(Math.min(200 * interval, 14 * DAY), 2 * HOUR);
    const reply = await get({ base, from, to, intervalSecs: interval });
    const candles = candlesOf(reply);
    expect(candles.length, `${reply.request}: the range ends at the token's newest candle, yet none came back`).toBeGreaterThan(0);
    expectWithin(reply, candles, from, to);
    expectSpacing(reply, candles, interval);
  });

  it('accepts intervalSecs=1, the smallest interval', async () => {
    const { base, last } = await activeToken(ctx());
    const from = last;
    const to = last + 900;
    const reply = await get({ base, from, to, intervalSecs: 1 });
    const candles = candlesOf(reply);
    expectWithin(reply, candles, from, to);
    expectSpacing(reply, candles, 1);
  });

  it('orders candles oldest first (design)', async ({ skip }) => {
    if (!ctx().simulator) skip('design decision, enforced on the simulator only');
    const { base, last } = await activeToken(ctx());
    const reply = await get({ base, from: alignDown(last - 2 * DAY, HOUR), to: alignDown(last, HOUR) + HOUR, intervalSecs: HOUR });
    const candles = candlesOf(reply);
    const breaks = orderBreaks(candles, (a, b) => a.timestamp < b.timestamp);
    expect(breaks, `${reply.request}: timestamps should increase`).toEqual([]);
  });

  it('caps the answer with countBack', async () => {
    const { base, last } = await activeToken(ctx());
    const range = { base, from: alignDown(last - 3 * DAY, HOUR), to: alignDown(last, HOUR) + HOUR, intervalSecs: HOUR };
    const full = candlesOf(await get(range));
    expect(full.length, `${PATH}: the 3-day hourly range of an active token should have more than 3 candles`).toBeGreaterThan(3);
    for (const countBack of [1, 3]) {
      const reply = await get({ ...range, countBack });
      const capped = candlesOf(reply);
      expect(capped.length, `${reply.request}: countBack=${countBack} of ${full.length} candles`).toBe(Math.min(countBack, full.length));
      if (ctx().simulator) {
        // Design guide: countBack keeps the newest N up to `to`.
        expect(secondsOf(capped), `${reply.request}: the newest ${countBack} of the uncapped answer`).toEqual(
          secondsOf(full).slice(-countBack),
        );
      }
    }
    const reply = await get({ ...range, countBack: full.length + 50 });
    expect(candlesOf(reply).length, `${reply.request}: a countBack above the count changes nothing`).toBe(full.length);
  });

  it('covers the last 24 hours at 60-second candles by default', async () => {
    const { base } = await activeToken(ctx());
    const now = nowSeconds();
    const reply = await get({ base });
    const byDefault = candlesOf(reply);
    // Bounds loosened by one interval for bucket alignment and the clock moving between requests.
    expectWithin(reply, byDefault, now - DAY - 60, nowSeconds() + 60);
    expectSpacing(reply, byDefault, 60);
    // Well inside the window, the default answer must hold exactly the explicit 60-second candles.
    const inner = { from: alignDown(now - DAY + HOUR, 60), to: alignDown(now - HOUR, 60) };
    const explicit = candlesOf(await get({ base, ...inner, intervalSecs: 60 }));
    const pick = (candles: Candle[]) => secondsOf(candles).filter((s) => s >= inner.from + 60 && s < inner.to - 60);
    expect(pick(byDefault), `${reply.request}: candles between ${inner.from} and ${inner.to} vs from/to/intervalSecs=60 given`).toEqual(
      pick(explicit),
    );
  });

  it('refuses a missing base: 400 {error, message} naming the parameter', async () => {
    const reply = await get({});
    expectClientError(ctx(), reply, 400);
    expectErrorMessageBody(reply, /base/);
  });

  it.each([
    ['from', 'abc'],
    ['to', 'abc'],
    ['from', '12x'],
    ['intervalSecs', '0'],
    ['intervalSecs', '-5'],
    ['intervalSecs', 'abc'],
    ['countBack', '0'],
    ['countBack', '-1'],
    ['countBack', 'abc'],
  ])('refuses %s=%s: 400 {error, message}', async (param, value) => {
    const base = ctx().tokens[0]!.address;
    const reply = await get({ base, [param]: value });
    expectClientError(ctx(), reply, 400);
    expectErrorMessageBody(reply);
  });

  it('refuses a malformed base: 400 {error, message} (design)', async () => {
    const reply = await get({ base: MALFORMED_ADDRESS });
    expectClientError(ctx(), reply, 400);
    expectErrorMessageBody(reply);
  });

  it('answers an unknown well-formed base with 404 {error, message} (design)', async ({ skip }) => {
    if (!ctx().simulator) skip('design decision, enforced on the simulator only');
    const reply = await get({ base: unknownAddress(ctx().tokens) });
    expectStatus(reply, 404);
    expectErrorMessageBody(reply);
  });
});
