/**
 * Calls: what `/leaderboard` and `/caller` cost on a big chat, through the commands' own path
 * (the store's list of the chat's calls, then the ranking or the record), on a real SQLite file:
 * `leaderboard_ms_50k_calls` (50,000 calls of 40 callers), `caller_ms_150k_calls` (150,000 calls of
 * one caller, `/caller me`), each a median of five, with the heap grown by the last run (after a
 * full collection before it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { callerRecord, rankCallers } from '../src/cards/callStats';
import type { ChatRef } from '../src/model/chat';
import { openSqliteStore, type SqliteStore } from '../src/store/sqliteStore';
import { recordResult } from './results';
import type { Row } from './section';

const T0 = Date.UTC(2027, 0, 1);

async function fill(store: SqliteStore, chat: ChatRef, calls: number, callers: number): Promise<void> {
  await store.calls.setEnabled(chat, true, new Date(T0));
  for (let index = 0; index < calls; index++) {
    await store.calls.record({
      chat,
      address: `Token${index}`,
      symbol: 'B',
      name: 'Bench',
      userId: `u${index % callers}`,
      userName: `caller ${index % callers}`,
      messageId: null,
      calledAt: new Date(T0 + index * 1000),
      priceSol: 0.001,
      priceUsd: 0.15,
      solUsd: 150,
      mcapSol: 1000,
      mcapUsd: 150_000,
    });
  }
}

/** Median ms of five runs of `work`, and the heap the last one left grown (MB). */
async function measure(work: () => Promise<unknown>): Promise<{ ms: number; heapMb: number }> {
  const times: number[] = [];
  let heapMb = 0;
  for (let run = 0; run < 5; run++) {
    globalThis.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const kept = await work();
    times.push(performance.now() - started);
    heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    if (kept === undefined) throw new Error('nothing measured');
  }
  times.sort((a, b) => a - b);
  return { ms: times[2] ?? Number.NaN, heapMb };
}

export async function benchCallRankings(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-bench-rankings-'));
  const store = openSqliteStore(join(dir, 'rankings.db'));
  try {
    const board: ChatRef = { platform: 'telegram', chatId: '-300', threadId: null, scopeId: null };
    const one: ChatRef = { platform: 'telegram', chatId: '-301', threadId: null, scopeId: null };
    await fill(store, board, 50_000, 40);
    await fill(store, one, 150_000, 1);
    const leaderboard = await measure(async () => rankCallers(await store.calls.list(board, null)));
    const caller = await measure(async () => callerRecord((await store.calls.list(one, null)).filter((call) => call.userId === 'u0')));
    recordResult('leaderboard_ms_50k_calls', leaderboard.ms, 'ms');
    recordResult('caller_ms_150k_calls', caller.ms, 'ms');
    recordResult('leaderboard_heap_mb_50k_calls', leaderboard.heapMb, 'MB');
    recordResult('caller_heap_mb_150k_calls', caller.heapMb, 'MB');
    return [
      {
        what: 'calls: /leaderboard over 50,000 calls of 40 callers (list + rank, median of 5)',
        figure: `${leaderboard.ms.toFixed(0)} ms, heap +${leaderboard.heapMb.toFixed(1)} MB`,
      },
      {
        what: 'calls: /caller me over 150,000 calls of one caller (list + record, median of 5)',
        figure: `${caller.ms.toFixed(0)} ms, heap +${caller.heapMb.toFixed(1)} MB`,
      },
    ];
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
