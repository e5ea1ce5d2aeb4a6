/**
 * Why the look-up's own work costs more inside `npm run bench -- lookup` than in a tight loop: a
 * look-up's card is built and rendered right after the thread has slept through the request, and
 * on this kind of machine the first work after a sleep runs slower (caches and predictors were
 * given to other work meanwhile). Times the token card's build and text render for one token,
 * back to back, after 0.4 ms of busy waiting and after 0.4 ms asleep (`Atomics.wait`, the way a
 * thread waits on its socket), interleaved so that a slow stretch of the machine weighs on all
 * three alike. No network and no simulator in the timed part.
 */
import { performance } from 'node:perf_hooks';
import { buildTokenCard } from '../src/cards/tokenCard';
import { renderCardText } from '../src/chats/console/render';
import type { Token } from '../src/market/schemas';

const ROUNDS = 3_000;
const WARM_UP = 300;
const PAUSE_MS = 0.4;

export interface WakeCost {
  /** Median µs of one build and render, per way of waiting before it. */
  backToBack: number;
  afterBusy: number;
  afterSleep: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export function measureWakeCost(token: Token, solUsd: number | null): WakeCost {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const waits: Array<() => void> = [
    () => {},
    () => {
      const until = performance.now() + PAUSE_MS;
      while (performance.now() < until);
    },
    () => {
      Atomics.wait(cell, 0, 0, PAUSE_MS);
    },
  ];
  const times: number[][] = waits.map(() => []);
  for (let round = 0; round < ROUNDS + WARM_UP; round++) {
    const way = round % waits.length;
    waits[way]?.();
    const started = performance.now();
    renderCardText(buildTokenCard({ token, solUsd, now: new Date() }));
    const took = performance.now() - started;
    if (round >= WARM_UP) times[way]?.push(took * 1000);
  }
  return { backToBack: median(times[0] ?? []), afterBusy: median(times[1] ?? []), afterSleep: median(times[2] ?? []) };
}
