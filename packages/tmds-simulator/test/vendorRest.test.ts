/**
 * REST in the vendor protocol: token-data in the recorded shapes (shared/spec/recordings/): the
 * envelope, the token's fields in their order, pools with protocolData, a third of the tokens with
 * pools without any suspected figure, pairId as the mints sorted; 9-decimal tokens whose raw
 * amounts pass 2^53; a young pump.fun token's bonding curve as its largest holder.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WRAPPED_SOL_MINT } from '../src/units';
import type { VendorLiquidityPool, VendorToken, VendorTokenEnvelope } from '../src/vendorWireTypes';
import type { WireHolder, WireToken, WireTradeResponse } from '../src/wireTypes';
import { get, shareSimulator, start } from './helpers';

const RECORDINGS = new URL('../../../../shared/spec/recordings/', import.meta.url);
const FIGURES = ['suspectedBaseTokenPrice', 'suspectedQuoteTokenPrice', 'suspectedBaseTokenReserves', 'suspectedQuoteTokenReserves'];

interface Recorded {
  statusCode: number;
  message: unknown;
  data: Record<string, { liquidityPools: Record<string, Record<string, unknown>> } & Record<string, unknown>>;
}

function recording(name: string): Recorded {
  return JSON.parse(readFileSync(new URL(name, RECORDINGS), 'utf8')) as Recorded;
}

const vendor = shareSimulator({ protocol: 'vendor' });

async function tokenData(...addresses: string[]): Promise<VendorTokenEnvelope> {
  const answer = await get<VendorTokenEnvelope>(vendor.sim, `/api/token-data?addresses=${addresses.join(',')}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

function pools(token: VendorToken): VendorLiquidityPool[] {
  return Object.values(token.liquidityPools);
}

/** A young pump.fun token's address, its bonding curve first among its pools. */
function curveToken(): string {
  const found = vendor.tokens.find((address) =>
    Object.values(vendor.sim.market.token(address)?.liquidityPools ?? {}).some((p) => p.protocol === 'PUMP'),
  );
  if (found === undefined) throw new Error('seed 42 has no token on its bonding curve');
  return found;
}

describe('token-data in the vendor protocol', () => {
  it('answers several tokens in the recorded envelope, each token with the recordings’ fields in their order', async () => {
    const recorded = recording('token-data-3-pools.json');
    const recordedToken = Object.values(recorded.data)[0];
    const recordedPool = Object.values(recordedToken?.liquidityPools ?? {})[0] ?? {};
    const body = await tokenData(vendor.tokens[0] ?? '', vendor.tokens[1] ?? '', vendor.tokens[2] ?? '');
    expect(Object.keys(body)).toEqual(Object.keys(recorded));
    expect(body.statusCode).toBe(recorded.statusCode);
    expect(body.message).toBe(recorded.message);
    expect(Object.keys(body.data)).toEqual(vendor.tokens.slice(0, 3));
    for (const token of Object.values(body.data)) {
      expect(Object.keys(token)).toEqual(Object.keys(recordedToken ?? {}));
      expect(token.goplusStats).toBeNull();
      for (const pool of pools(token)) {
        // Every field a pool has is a recorded one, or one of the four figures a recorded pool may leave out.
        for (const key of Object.keys(pool)) expect([...Object.keys(recordedPool), ...FIGURES], key).toContain(key);
        expect(pool.suspectedBaseToken).toBe(token.address);
        expect(pool.pairId).toBe([token.address, WRAPPED_SOL_MINT].sort().join('_'));
      }
    }
  });

  it('leaves the four suspected figures out of the pools of a third of the tokens, price and reserves in protocolData only', async () => {
    const body = await tokenData(...vendor.tokens);
    let without = 0;
    for (const token of Object.values(body.data)) {
      const present = pools(token).map((pool) => FIGURES.filter((figure) => figure in pool).length);
      // A token's pools carry all four or none.
      for (const count of present) expect([0, 4]).toContain(count);
      if (present.every((count) => count === 0)) without++;
      // protocolData says the same as the figures do, by position: price0 is token1 per token0.
      const reading = vendor.sim.market.token(token.address) as WireToken;
      for (const pool of pools(token)) {
        const full = reading.liquidityPools[pool.poolAddress];
        const data = pool.protocolData ?? {};
        expect(data.token0Address).toBe(pool.token0Address);
        expect(data.token1Address).toBe(pool.token1Address);
        expect([pool.token0Address, pool.token1Address].sort()).toEqual([token.address, WRAPPED_SOL_MINT].sort());
        const tokenFirst = pool.token0Address === token.address;
        expect(data.reserve0).toBe(tokenFirst ? full?.suspectedBaseTokenReserves : full?.suspectedQuoteTokenReserves);
        expect(data.reserve1).toBe(tokenFirst ? full?.suspectedQuoteTokenReserves : full?.suspectedBaseTokenReserves);
        const solPerToken = Number(full?.suspectedBaseTokenPrice);
        expect(Number(data.price0) / (tokenFirst ? solPerToken : 1 / solPerToken)).toBeCloseTo(1, 6);
        expect(Number(data.price0) * Number(data.price1)).toBeCloseTo(1, 6);
        // The price agrees with the reserves, each by its decimals.
        const decimals = tokenFirst ? [pool.token0Decimals, pool.token1Decimals] : [pool.token1Decimals, pool.token0Decimals];
        const tokenReserve = Number(tokenFirst ? data.reserve0 : data.reserve1) / 10 ** (decimals[0] ?? 0);
        const solReserve = Number(tokenFirst ? data.reserve1 : data.reserve0) / 10 ** (decimals[1] ?? 0);
        expect(solReserve / tokenReserve / solPerToken).toBeCloseTo(1, 6);
      }
    }
    expect(without).toBeGreaterThanOrEqual(Math.floor(vendor.tokens.length / 3));
    expect(without).toBeLessThan(vendor.tokens.length / 2);
  });

  it('writes the recordings’ protocol names and origins, Raydium with SOL first and Pump with the token first', async () => {
    const body = await tokenData(...vendor.tokens);
    const protocols = new Set<string>();
    for (const token of Object.values(body.data)) {
      expect(['PUMP', 'LAUNCHLAB', 'MOONSHOT', 'BONK']).toContain(token.origin);
      for (const pool of pools(token)) {
        protocols.add(pool.protocol);
        if (pool.protocol.startsWith('RAYDIUM')) expect(pool.token0Address).toBe(WRAPPED_SOL_MINT);
        if (pool.protocol.startsWith('PUMP') || pool.protocol === 'METEORA_DLMM') expect(pool.token0Address).toBe(token.address);
      }
    }
    expect([...protocols].sort()).toEqual(['METEORA_DLMM', 'ORCA_WHIRLPOOL', 'PUMP', 'PUMP_AMM', 'RAYDIUM', 'RAYDIUM_CLMM']);
  });

  it('writes Moonshot’s tokens with 9 decimals, their raw amounts past 2^53 with every digit', async () => {
    const body = await tokenData(...vendor.tokens);
    const nine = Object.values(body.data).filter((token) => token.decimals === 9);
    expect(nine.length).toBeGreaterThan(0);
    for (const token of nine) {
      expect(token.origin).toBe('MOONSHOT');
      expect(token.totalSupply).toMatch(/^\d+000$/);
      for (const pool of pools(token)) {
        expect(pool.token0Address === token.address ? pool.token0Decimals : pool.token1Decimals).toBe(9);
      }
    }
    const big = nine.reduce((a, b) => (BigInt(b.totalSupply) > BigInt(a.totalSupply) ? b : a));
    expect(BigInt(big.totalSupply)).toBeGreaterThan(2n ** 53n);
    // The same scale everywhere: a trade's amount and the holder records agree with the supply's.
    const address = big.address;
    const wallet = 'NineDecima1sBuyerNineDecima1sBuyerNineDecim';
    const { trade } = vendor.sim.controls.trade({ wallet, tokenAddress: address, side: 'buy', amountUSD: 1_000_000 });
    expect(BigInt(trade.amountOut)).toBeGreaterThan(2n ** 53n);
    const history = await get<WireTradeResponse>(vendor.sim, `/api/trades-history?baseToken=${address}&wallets=${wallet}`);
    expect(history.body.tradeHistory[0]?.amountOut).toBe(trade.amountOut);
    expect(history.body.tokensMetadata[address]?.decimals).toBe(9);
    const holders = await get<WireHolder[]>(vendor.sim, `/api/holders-history?address=${address}`);
    expect(holders.body.find((holder) => holder.address === wallet)?.currentlyHoldingAmount).toBe(trade.amountOut);
  });
});

describe('holders-history in the vendor protocol', () => {
  it('lists a young pump.fun token’s bonding curve first, under the pool’s address, holding its reserve', async () => {
    const address = curveToken();
    const token = (await tokenData(address)).data[address];
    const curve = pools(token as VendorToken).find((pool) => pool.protocol === 'PUMP');
    expect(curve?.suspectedBaseTokenReserves).toBeUndefined();
    const holders = await get<WireHolder[]>(vendor.sim, `/api/holders-history?address=${address}`);
    const [first, second] = holders.body;
    expect(first?.address).toBe(curve?.poolAddress);
    expect(first?.currentlyHoldingAmount).toBe(curve?.protocolData?.reserve0);
    expect(first?.tags).toEqual([]);
    expect(BigInt(first?.currentlyHoldingAmount ?? 0)).toBeGreaterThan(BigInt(second?.currentlyHoldingAmount ?? 0));
    // The curve is no wallet: the token's holder count and top-10 figure leave it out.
    const wallets = holders.body.filter((holder) => holder.currentlyHoldingAmount !== '0' && holder.address !== curve?.poolAddress);
    expect(token?.holdersCount).toBe(String(wallets.length));
    expect(vendor.sim.market.holder(address, curve?.poolAddress ?? '')).toEqual(first);
  });

  it('lists no pool among an older token’s holders', async () => {
    const address = vendor.tokens[0] ?? '';
    const token = (await tokenData(address)).data[address] as VendorToken;
    const poolAddresses = new Set(Object.keys(token.liquidityPools));
    const holders = await get<WireHolder[]>(vendor.sim, `/api/holders-history?address=${address}`);
    expect(holders.body.some((holder) => poolAddresses.has(holder.address))).toBe(false);
  });
});

describe('the spec protocol', () => {
  it('is unchanged: token-data is the token, every pool with its figures, six decimals', async () => {
    const spec = await start();
    try {
      const address = spec.market.tokenAddresses()[2] ?? '';
      const answer = await get<{ data: Record<string, WireToken> }>(spec, `/api/token-data?address=${address}`);
      const token = answer.body.data[address];
      expect(token?.decimals).toBe(6);
      expect(token?.partnerStats === null || typeof token?.partnerStats === 'object').toBe(true);
      for (const pool of Object.values(token?.liquidityPools ?? {})) expect(pool.token0Address).toBe(address);
      expect(JSON.parse(JSON.stringify(spec.market.tokenData(address)))).toEqual(JSON.parse(JSON.stringify(spec.market.token(address))));
    } finally {
      await spec.close();
    }
  });
});
