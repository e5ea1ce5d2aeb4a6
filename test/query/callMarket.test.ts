/**
 * What a call is taken at: a token with a SOL price and liquidity a person could have traded at.
 * Below CALL_MIN_LIQUIDITY_USD no call is made, so a peak cannot be bought on a thin pool.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CALL_MIN_LIQUIDITY_USD, callMarket } from '../../src/query/callBook';
import { makeToken, POOL_A } from '../watch/support/fixtures';

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
