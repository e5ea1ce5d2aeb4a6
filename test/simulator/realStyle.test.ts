/**
 * The simulator's `real` wire style: the same market, written as the live service writes it. The
 * bot's readings of it (the card's SOL figures, the links it shows) match those of the spec style.
 */
import { describe, expect, it } from 'vitest';
import { liquiditySol, poolsByLiquidity, priceSol } from '../../src/cards/tokenFacts';
import { TokenSchema } from '../../src/market/schemas';
import { Market } from 'tmds-simulator';
import { linkUrl } from '../../src/text/linkUrl';

const WSOL = 'So11111111111111111111111111111111111111112';
const NOW = Date.UTC(2025, 0, 29, 3, 0, 0);

function markets() {
  return { spec: new Market({ seed: 42, now: () => NOW }), real: new Market({ seed: 42, now: () => NOW, style: 'real' }) };
}

describe('the real wire style', () => {
  it('answers token-data with SOL as token0 and the token as token1, named suspected base, and the live service’s extra fields', () => {
    const { real } = markets();
    const address = real.tokenAddresses()[0] as string;
    const token = real.token(address);
    const pools = Object.values(token?.liquidityPools ?? {});
    expect(pools.length).toBeGreaterThan(0);
    for (const pool of pools) {
      expect(pool).toMatchObject({
        token0Address: WSOL,
        token1Address: address,
        token0Decimals: 9,
        token1Decimals: 6,
        suspectedBaseToken: address,
        suspectedQuoteToken: WSOL,
      });
    }
    expect(token).toMatchObject({ goplusStats: null, limits: {}, searchGraphData: null });
  });

  it('leaves the pools out of token-feed frames, and only there', () => {
    const { real, spec } = markets();
    const address = real.tokenAddresses()[0] as string;
    expect(real.tokenFrame(address)?.liquidityPools).toEqual({});
    expect(Object.keys(real.token(address)?.liquidityPools ?? {}).length).toBeGreaterThan(0);
    expect(spec.tokenFrame(address)).toEqual(spec.token(address));
  });

  it('writes social links without a scheme, which the card shows as https', () => {
    const { real, spec } = markets();
    const address = real.tokenAddresses().find((candidate) => spec.token(candidate)?.links.twitter !== undefined) as string;
    const twitter = real.token(address)?.links.twitter ?? '';
    expect(twitter).toMatch(/^x\.com\//);
    expect(linkUrl(twitter)).toBe(`https://${twitter}`);
  });

  it('gives the same SOL liquidity and price as the spec style, as the client reads them', () => {
    const { real, spec } = markets();
    for (const address of real.tokenAddresses().slice(0, 20)) {
      const fromReal = poolsByLiquidity(TokenSchema.parse(JSON.parse(JSON.stringify(real.token(address)))));
      const fromSpec = poolsByLiquidity(TokenSchema.parse(JSON.parse(JSON.stringify(spec.token(address)))));
      expect(liquiditySol(fromReal)).toBe(liquiditySol(fromSpec));
      expect(priceSol(fromReal)).toBe(priceSol(fromSpec));
    }
  });
});
