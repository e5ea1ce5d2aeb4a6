/**
 * The watcher tells a stream frame from a reconciliation's answer: the live service's token-feed
 * frames leave the pools out, and the REST re-check brings them back. Frames and answers
 * alternating, as they do every minute for every followed token, must raise no liquidity alert;
 * an answer without the pool is a pull, told once.
 *
 * Driven through a fake of the stream client's subscribe, with the real SQLite store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EventHandler } from '../../src/market/stream';
import { TokenSchema } from '../../src/market/schemas';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { createWatcher, type Watcher } from '../../src/watch/watcher';
import { chat, newFollow, tempDir } from '../store/helpers';
import { RECORDED_TOKEN, recordedTokenAnswer, recordedTokenFrame } from '../support/recordedStyle';

const FAR = new Date(Date.UTC(2100, 0, 1));
let store: SqliteStore | null = null;
let watcher: Watcher | null = null;
let cleanup: () => void = () => undefined;

afterEach(async () => {
  await watcher?.close();
  await store?.close();
  watcher = null;
  store = null;
  cleanup();
});

const at = (second: number) => new Date(Date.UTC(2025, 0, 29, 3, 0, second)).toISOString();

/** A watcher over a fresh store where chat 1 follows the recorded token's liquidity, with its token-feed handler. */
async function started() {
  const dir = tempDir();
  cleanup = dir.cleanup;
  store = openSqliteStore(dir.path);
  await store.follows.upsert({
    ...newFollow(chat('1'), RECORDED_TOKEN),
    options: { events: ['liquidity'], minUsd: 0, thresholdPct: 10, side: 'both' },
  });
  let handler: EventHandler | null = null;
  const streams = {
    subscribe: (stream: string, _target: unknown, onEvent: EventHandler) => {
      if (stream === 'token-feed') handler = onEvent;
      return () => undefined;
    },
  };
  const running = createWatcher({ store, streams });
  watcher = running;
  await running.start();
  const push = (second: number, snapshot = false) => {
    if (handler === null) throw new Error('no token-feed subscription');
    void handler({
      stream: 'token-feed',
      kind: 'token',
      tokenAddress: RECORDED_TOKEN,
      snapshot,
      token: TokenSchema.parse(recordedTokenFrame({ syncedAt: at(second) })),
    });
  };
  const answer = (second: number, withPool = true, readSince?: number) =>
    running.applyTokens(
      [TokenSchema.parse(withPool ? recordedTokenAnswer({ syncedAt: at(second) }) : recordedTokenFrame({ syncedAt: at(second) }))],
      readSince,
    );
  return { running, push, answer };
}

async function liquidityAlerts(): Promise<string[]> {
  const rows = (await store?.outbox.due('telegram', FAR, 100)) ?? [];
  return rows.flatMap((row) =>
    row.event.kind === 'liquidity' ? row.event.pools.map((pool) => `${pool.from} → ${pool.gone ? 'gone' : pool.to}`) : [],
  );
}

describe('pools a stream frame leaves out', () => {
  it('frames without pools between REST re-checks that show them raise no alert', async () => {
    const { running, push, answer } = await started();
    push(0, true);
    await running.idle();
    for (let second = 1; second <= 14; second += 2) {
      await answer(second);
      push(second + 1);
      await running.idle();
    }
    expect(await liquidityAlerts()).toEqual([]);
    const state = await store?.state.token(RECORDED_TOKEN);
    expect(state?.pools.map((pool) => pool.quoteReserves)).toEqual(['59641293545']);
  });

  it('a REST answer without the pool is the pull: one alert, in SOL, and none after it', async () => {
    const { running, push, answer } = await started();
    await answer(1);
    push(2);
    await running.idle();
    await answer(3, false);
    push(4);
    await answer(5, false);
    push(6);
    await running.idle();
    expect(await liquidityAlerts()).toEqual(['59641293545 → gone']);
  });

  it('an answer overtaken by a frame of its second that left the pools out still tells the pull', async () => {
    const { running, push, answer } = await started();
    await answer(1);
    // The re-check's request goes out; a frame of the same second comes while it is out.
    const mark = running.mark();
    push(2);
    await running.idle();
    await answer(2, false, mark);
    await running.idle();
    expect(await liquidityAlerts()).toEqual(['59641293545 → gone']);
  });
});
