/**
 * The ranking of callers (docs/calls.md): each caller's calls in the window, ranked by the median of
 * their peak multiples, so that one lucky call does not carry a record and a token that died counts
 * as the call it was. Only callers with at least MIN_CALLS calls are ranked. Ties: hit rate (the
 * share of calls that reached ×2), then the number of calls, then the earlier first call.
 */
import type { Call } from '../store/calls';
import { peakMultiple } from './callText';

export const MIN_CALLS = 3;
/** A hit: a call whose peak reached ×2. */
export const HIT_MULTIPLE = 2;

export interface CallerRecord {
  userId: string;
  /** The name of their latest call (untrusted text). */
  userName: string;
  /** Newest first. */
  calls: Call[];
  medianMultiple: number;
  /** 0–1. */
  hitRate: number;
  best: Call;
  /** Epoch ms of their first call: the last tie-breaker. */
  firstAt: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** One caller's record from their calls (any order); null without calls. */
export function callerRecord(calls: readonly Call[]): CallerRecord | null {
  const newest = [...calls].sort((a, b) => b.calledAt.getTime() - a.calledAt.getTime() || b.id - a.id);
  const [latest] = newest;
  const oldest = newest[newest.length - 1];
  if (latest === undefined || oldest === undefined) return null;
  const multiples = newest.map(peakMultiple);
  let best = latest;
  let bestMultiple = peakMultiple(latest);
  let hits = 0;
  for (const [index, call] of newest.entries()) {
    const multiple = multiples[index] ?? 0;
    if (multiple >= HIT_MULTIPLE) hits += 1;
    if (multiple > bestMultiple) {
      best = call;
      bestMultiple = multiple;
    }
  }
  return {
    userId: latest.userId,
    userName: latest.userName,
    calls: newest,
    medianMultiple: median(multiples),
    hitRate: hits / multiples.length,
    best,
    firstAt: oldest.calledAt.getTime(),
  };
}

/** Callers with at least `minCalls` calls among `calls`, best first. */
export function rankCallers(calls: readonly Call[], minCalls = MIN_CALLS): CallerRecord[] {
  // Each caller's list grows in place: a copy per call made the ranking quadratic in one caller's calls.
  const byUser = new Map<string, Call[]>();
  for (const call of calls) {
    const own = byUser.get(call.userId);
    if (own === undefined) byUser.set(call.userId, [call]);
    else own.push(call);
  }
  const records: CallerRecord[] = [];
  for (const own of byUser.values()) {
    const record = own.length >= minCalls ? callerRecord(own) : null;
    if (record !== null) records.push(record);
  }
  return records.sort(
    (a, b) =>
      b.medianMultiple - a.medianMultiple ||
      b.hitRate - a.hitRate ||
      b.calls.length - a.calls.length ||
      a.firstAt - b.firstAt ||
      a.userId.localeCompare(b.userId),
  );
}
