/**
 * The SOL→USD rate kept for the watcher: derived from a followed token when none is fresh (at
 * start and on its schedule), left alone while one is, and nothing asked when nothing is followed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUsdRateRefresh } from '../../src/jobs/usdRateRefresh';
import { forgetUsdRate, knownSolUsdRate } from '../../src/query/usdRate';
import { startTestMarket, type TestMarket } from '../support/market';

let market: TestMarket;

beforeAll(async () => {
  market = await startTestMarket();
});
afterAll(async () => {
  await market.close();
});

describe('the SOL→USD rate refresh', () => {
  it('asks nothing while nothing is followed, then derives the rate from a followed token', async () => {
    forgetUsdRate(market.client);
    let tokens: string[] = [];
    const refresh = startUsdRateRefresh({ market: market.client, tokens: () => tokens });
    try {
      await refresh.runNow();
      expect(knownSolUsdRate(market.client)).toBeNull();
      expect(market.client.stats()['holders-history'].requests).toBe(0);

      tokens = [market.listing.tokens[0]?.address ?? ''];
      await refresh.runNow();
      expect(knownSolUsdRate(market.client)).toBeCloseTo(market.sim.market.solUsd, 6);
      // Fresh now: a second run asks nothing more.
      const asked = market.client.stats()['trades-history'].requests;
      await refresh.runNow();
      expect(market.client.stats()['trades-history'].requests).toBe(asked);
    } finally {
      await refresh.stop();
    }
  });
});
