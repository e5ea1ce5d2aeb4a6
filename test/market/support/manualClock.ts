/**
 * A clock for the market layer (src/market/clock.ts) that moves only when a test says so: every
 * timer armed on it is recorded with its delay, and `advance` fires the due ones in order. Random
 * draws come from a list the test gives (then repeat its last value), so jitter is exact too.
 */
import type { Clock, Timer } from '../../../src/market/clock';

interface Pending {
  id: number;
  at: number;
  delay: number;
  callback: () => void;
}

export class ManualClock implements Clock {
  private time: number;
  private nextId = 0;
  private readonly timers = new Map<object, Pending>();
  private draws: number[];
  /** Every delay armed, in order, cleared or not. */
  readonly armed: number[] = [];

  constructor(startMs = Date.parse('2026-01-01T00:00:00Z'), draws: number[] = [0.5]) {
    this.time = startMs;
    this.draws = [...draws];
  }

  // Arrow properties, so that a method handed on alone (`clock.random`) keeps its clock.
  readonly now = (): number => this.time;

  readonly random = (): number => {
    const next = this.draws.length > 1 ? this.draws.shift() : this.draws[0];
    return next ?? 0.5;
  };

  setDraws(draws: number[]): void {
    this.draws = [...draws];
  }

  setTimeout(callback: () => void, ms: number): Timer {
    const handle = {};
    const delay = Math.max(0, ms);
    this.armed.push(delay);
    this.timers.set(handle, { id: ++this.nextId, at: this.time + delay, delay, callback });
    return handle;
  }

  clearTimeout(timer: Timer): void {
    this.timers.delete(timer);
  }

  /** Delays of the timers still pending, in the order they were armed. */
  pending(): number[] {
    return [...this.timers.values()].sort((a, b) => a.id - b.id).map((timer) => timer.delay);
  }

  /** Moves time forward by `ms`, firing every timer that falls due, earliest first. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, timer]) => timer.at <= end).sort(([, a], [, b]) => a.at - b.at || a.id - b.id)[0];
      if (due === undefined) break;
      const [handle, timer] = due;
      this.timers.delete(handle);
      this.time = Math.max(this.time, timer.at);
      timer.callback();
    }
    this.time = end;
  }
}
