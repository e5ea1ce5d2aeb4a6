/**
 * What a call is taken at: a token with a SOL price and liquidity a person could have traded at.
 * Below CALL_MIN_LIQUIDITY_USD no call is made, so a peak cannot be bought on a thin pool.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { plainText } from '../../src/cards/card';
import { CallBook, DEFAULT_CALL_MIN_LIQUIDITY_USD, callMarket, type CallLimits } from '../../src/query/callBook';
import type { TokenAnswer } from '../../src/query/tokenQuery';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { tempDb } from '../delivery/helpers';
import { address } from '../market/stream/support/samples';
import { makeToken, POOL_A, T1, T2 } from '../watch/support/fixtures';

const T3 = address('T', 3);
const T4 = address('T', 4);

describe('a call’s market', () => {
  it('takes a token with enough liquidity, and none below the floor', () => {
    // 100 SOL at $150: $15,000 of liquidity.
    const deep = makeToken({ pools: { [POOL_A]: '100000000000' } });
    expect(callMarket({ token: deep, solUsd: 150 }, DEFAULT_CALL_MIN_LIQUIDITY_USD)?.priceSol).toBe(0.001);
    // 10 SOL at $150: $1,500.
    const thin = makeToken({ pools: { [POOL_A]: '10000000000' } });
    expect(callMarket({ token: thin, solUsd: 150 }, DEFAULT_CALL_MIN_LIQUIDITY_USD)).toBeNull();
    // A rate nobody knows cannot vouch for the liquidity either.
    expect(callMarket({ token: deep, solUsd: null }, DEFAULT_CALL_MIN_LIQUIDITY_USD)).toBeNull();
    // A floor of 0 takes any priced token.
    expect(callMarket({ token: thin, solUsd: 150 }, 0)?.priceSol).toBe(0.001);
  });
});

describe('a chat’s calls, kept within their shares', () => {
  const at = new Date('2026-06-01T12:00:00Z');
  const group = { platform: 'telegram' as const, chatId: '-1009', threadId: null, scopeId: null };
  let clock = at.getTime();
  let cleanup: () => void = () => undefined;
  let store: SqliteStore | null = null;

  afterEach(async () => {
    await store?.close();
    store = null;
    cleanup();
  });

  async function book(limits: Partial<CallLimits>): Promise<{ book: CallBook; opened: SqliteStore }> {
    const db = tempDb();
    cleanup = db.cleanup;
    const opened = openSqliteStore(db.path);
    store = opened;
    await opened.calls.setEnabled(group, true, at);
    return { book: new CallBook(opened.calls, () => new Date(clock), { minLiquidityUsd: 0, ...limits }), opened };
  }

  const answer = (address: string): TokenAnswer => ({
    card: { title: 'token', color: 'info', fields: [], actions: [] },
    token: makeToken({ address }),
    solUsd: 150,
  });

  it('takes one call a minute per person: a flood of posts is not a flood of calls', async () => {
    const { book: calls, opened } = await book({});
    const poster = { userId: 'u1', userName: 'alice', messageId: null };
    clock = at.getTime();
    await calls.onPost(group, poster, answer(T1));
    const second = await calls.onPost(group, poster, answer(T2));
    expect(plainText(second.fields.at(-1)?.value ?? [])).toMatch(/^Not a call: one call a minute per person/);
    expect(await opened.calls.list(group, null)).toHaveLength(1);
    // Someone else may call at once; the same person a minute later.
    await calls.onPost(group, { ...poster, userId: 'u2' }, answer(T2));
    clock += 60_000;
    await calls.onPost(group, poster, answer(T3));
    expect(await opened.calls.list(group, null)).toHaveLength(3);
  });

  it('follows a chat’s newest calls up to its cap: the oldest stop being read, and the chat is told once', async () => {
    const { book: calls, opened } = await book({ maxActivePerChat: 2, cooldownMs: 0 });
    const cards: string[] = [];
    for (const [index, address] of [T1, T2, T3, T4].entries()) {
      clock = at.getTime() + index * 1000;
      const card = await calls.onPost(group, { userId: `u${index}`, userName: `p${index}`, messageId: null }, answer(address));
      cards.push(card.fields.map((field) => plainText(field.value)).join('\n'));
    }
    const active = (await opened.calls.list(group, null)).filter((call) => call.nextCheckAt !== null).map((call) => call.address);
    expect(active.sort()).toEqual([T3, T4].sort());
    expect(cards.filter((card) => card.includes('newest calls are followed'))).toHaveLength(1);
  });
});
