/**
 * Targets and price directions, pure: a target is crossed when the USD price or market cap goes
 * from one side of its value to it or past it; each target crossed is one event with its own key,
 * told to its own follow alone; a target is told of nothing else; a follow of rises alone is not
 * told of a fall.
 */
import { describe, expect, it } from 'vitest';
import { detectTokenChanges } from '../../src/alerts/detect';
import { detectTargets } from '../../src/alerts/kinds/target';
import { deliveriesFor, followWants } from '../../src/alerts/fanout';
import { snapshotOfToken } from '../../src/alerts/snapshot';
import { targetEventKey, type Follow, type FollowOptions } from '../../src/model/follow';
import type { TokenSnapshot } from '../../src/model/snapshot';
import type { PriceEvent } from '../../src/model/events';
import { T1, makeToken } from '../watch/support/fixtures';

const T0 = 1_800_000_000_000;
const RATE = 200; // USD per SOL
const BASE: FollowOptions = { events: [], minUsd: 0, thresholdPct: 10, side: 'both' };

/** A follow of T1 in chat `chatId`. */
function follow(id: number, chatId: string, options: Partial<FollowOptions> = {}): Follow {
  return {
    id,
    chat: { platform: 'telegram', chatId, threadId: null, scopeId: null },
    kind: 'token',
    address: T1,
    label: null,
    options: { ...BASE, ...options },
    mutedUntil: null,
    addedBy: 'u',
    addedAt: new Date(T0),
  };
}

/** T1 at `priceSol` SOL a token (1,000,000,000 tokens), read at `at` with the rate known or not. */
function at(priceSol: number, previous: TokenSnapshot | null, time: number, rate: number | null = RATE): TokenSnapshot {
  return snapshotOfToken(makeToken({ price: priceSol }), previous, time, rate);
}

describe('targets', () => {
  // $0.20 a token ($200M market cap), then $0.30 ($300M).
  const last = at(0.001, null, T0);
  const next = at(0.0015, last, T0 + 60_000);
  const above = follow(1, 'a', { target: { metric: 'price', side: 'above', value: 0.25 } });
  const aboveMcap = follow(2, 'b', { target: { metric: 'mcap', side: 'above', value: 250_000_000 } });
  const farAbove = follow(3, 'c', { target: { metric: 'price', side: 'above', value: 0.5 } });
  const below = follow(4, 'd', { target: { metric: 'price', side: 'below', value: 0.25 } });
  const tracking = follow(5, 'e');

  it('finds each target crossed, once each, keyed by its follow, and nothing for targets not crossed', () => {
    const events = detectTargets(last, next, [above, aboveMcap, farAbove, below, tracking]);
    expect(events.map((event) => [event.followId, event.key])).toEqual([
      [1, targetEventKey(T1, 1)],
      [2, targetEventKey(T1, 2)],
    ]);
    expect(events[0]).toMatchObject({ kind: 'target', target: { metric: 'price', side: 'above', value: 0.25 } });
    expect(events[0]?.from).toBeCloseTo(0.2, 12);
    expect(events[0]?.to).toBeCloseTo(0.3, 12);
    expect(events[1]?.from).toBeCloseTo(200_000_000, 3);
    expect(events[1]?.to).toBeCloseTo(300_000_000, 3);
    // Through the one entry the watcher calls, with the token's follows.
    expect(detectTokenChanges(last, next, [above, tracking]).filter((event) => event.kind === 'target')).toHaveLength(1);
    expect(detectTokenChanges(last, next).filter((event) => event.kind === 'target')).toEqual([]);
  });

  it('crosses down for a target below, and at the value itself', () => {
    const down = at(0.00125, next, T0 + 120_000);
    expect(detectTargets(next, down, [below]).map((event) => event.followId)).toEqual([4]);
    expect(detectTargets(next, down, [above])).toEqual([]);
  });

  it('reads the last state’s SOL price at the rate now when it had no USD, and decides nothing without a USD price now', () => {
    const unpriced = at(0.001, null, T0, null);
    expect(detectTargets(unpriced, at(0.0015, unpriced, T0 + 60_000), [above]).map((event) => event.followId)).toEqual([1]);
    expect(detectTargets(last, at(0.0015, last, T0 + 60_000, null), [above])).toEqual([]);
  });

  it('tells the target’s own follow alone, and a target nothing but its crossing', () => {
    const [event] = detectTargets(last, next, [above]);
    if (event === undefined) throw new Error('no event');
    const other = follow(9, 'z', { target: { metric: 'price', side: 'above', value: 0.25 } });
    expect(deliveriesFor(event, [above, other, tracking], T0).map((delivery) => delivery.chat.chatId)).toEqual(['a']);
    for (const kind of ['risk-status', 'risk-flag', 'liquidity', 'price', 'whale']) expect(followWants(above, kind)).toBe(false);
    expect(followWants(tracking, 'price')).toBe(true);
  });
});

describe('price directions', () => {
  const move = (changePct: number): PriceEvent => ({
    kind: 'price',
    key: `k${changePct}`,
    at: T0,
    token: { address: T1, symbol: 'FIX', name: 'Fixture' },
    from: 1,
    to: 1 + changePct / 100,
    changePct,
    previousChangePct: 0,
    windowSecs: 600,
    priceUsd: null,
  });

  it('tells a follow of rises of a rise alone, a follow of falls of a fall alone, and a follow of both of either', () => {
    const up = follow(1, 'up', { direction: 'up' });
    const down = follow(2, 'down', { direction: 'down' });
    const both = follow(3, 'both');
    expect(deliveriesFor(move(25), [up, down, both], T0).map((delivery) => delivery.chat.chatId)).toEqual(['up', 'both']);
    expect(deliveriesFor(move(-25), [up, down, both], T0).map((delivery) => delivery.chat.chatId)).toEqual(['down', 'both']);
  });
});
