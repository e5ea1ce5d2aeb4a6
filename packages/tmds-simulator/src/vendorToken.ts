/**
 * token-data in the vendor protocol, in the shapes of the recorded answers
 * (shared/spec/recordings/): the `real` wire style's token (wireStyle.ts) with the recordings'
 * fields in their order, the vendor's names for protocols and launchpads, pools whose sides follow
 * the exchange (SOL first on Raydium, the token first on Pump and Meteora), `pairId` as the two
 * mints sorted, and `protocolData` with `price0`/`price1` and `reserve0`/`reserve1` by position.
 * A third of the tokens, and every token still on its bonding curve, have pools without the four
 * suspected figures, as every recorded pool was: a client must read protocolData.
 */
import type { SuspectedFigure, VendorLiquidityPool, VendorToken } from './vendorWireTypes';
import type { WireLiquidityPool, WireToken } from './wireTypes';
import { WRAPPED_SOL_MINT } from './units';
import { styledToken } from './wireStyle';

/** The vendor's names of the simulator's exchanges (the recordings' `RAYDIUM`, `METEORA_DLMM`; the stream page's `PUMP_AMM`). */
const PROTOCOL_NAMES: Readonly<Record<string, string>> = {
  'raydium-amm': 'RAYDIUM',
  'raydium-clmm': 'RAYDIUM_CLMM',
  'orca-whirlpool': 'ORCA_WHIRLPOOL',
  'meteora-dlmm': 'METEORA_DLMM',
  pumpswap: 'PUMP_AMM',
};

/** pump.fun's bonding curve, as the recordings name it. */
export const BONDING_CURVE_PROTOCOL = 'PUMP';

/** The launchpads as the recordings name a token's `origin` (`PUMP`). */
const ORIGIN_NAMES: Readonly<Record<string, string>> = {
  'pump.fun': 'PUMP',
  'raydium-launchlab': 'LAUNCHLAB',
  moonshot: 'MOONSHOT',
  'bonk.fun': 'BONK',
};

/**
 * Decimals a token has beyond the ledger's 6 in the vendor protocol: Moonshot's tokens have 9, so
 * their raw amounts pass 2^53 (a billion tokens is 10^18 raw units), as real-service.md warns.
 */
export function vendorExtraDecimals(origin: string): number {
  return origin === 'moonshot' ? 3 : 0;
}

/** Exchanges whose pools list the token before SOL (the recordings' Pump and Meteora pools); Raydium lists SOL first. */
const TOKEN_FIRST = new Set([BONDING_CURVE_PROTOCOL, 'PUMP_AMM', 'METEORA_DLMM']);

const SUSPECTED_FIGURES: readonly SuspectedFigure[] = [
  'suspectedBaseTokenPrice',
  'suspectedQuoteTokenPrice',
  'suspectedBaseTokenReserves',
  'suspectedQuoteTokenReserves',
];

/** The vendor's name of an exchange; any other (a `graduate` control's own) in the same style. */
export function vendorProtocolName(protocol: string, bondingCurve: boolean): string {
  if (bondingCurve) return BONDING_CURVE_PROTOCOL;
  return PROTOCOL_NAMES[protocol] ?? protocol.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}

export function vendorOriginName(origin: string): string {
  return ORIGIN_NAMES[origin] ?? origin.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}

/** How the market writes one token: which pool is its bonding curve, and whether its pools carry the suspected figures. */
export interface VendorTokenPlan {
  curvePool: string | null;
  figures: boolean;
}

/**
 * A spec pool (the token token0, SOL token1, every figure) as the vendor writes it, every figure
 * still in: the in-process reading (Market.token), which summaries and surprises read.
 */
function vendorPool(pool: WireLiquidityPool, tokenAddress: string, bondingCurve: boolean): WireLiquidityPool {
  const protocol = vendorProtocolName(pool.protocol, bondingCurve);
  // Whirlpools order their mints by address; the others by the exchange's habit.
  const tokenFirst = protocol === 'ORCA_WHIRLPOOL' ? tokenAddress < WRAPPED_SOL_MINT : TOKEN_FIRST.has(protocol);
  const token = { address: tokenAddress, decimals: pool.token0Decimals, reserve: pool.suspectedBaseTokenReserves };
  const sol = { address: WRAPPED_SOL_MINT, decimals: pool.token1Decimals, reserve: pool.suspectedQuoteTokenReserves };
  const [first, second] = tokenFirst ? [token, sol] : [sol, token];
  // price0 is token1 per token0 and price1 its reciprocal, in whole units.
  const [price0, price1] = tokenFirst
    ? [pool.suspectedBaseTokenPrice, pool.suspectedQuoteTokenPrice]
    : [pool.suspectedQuoteTokenPrice, pool.suspectedBaseTokenPrice];
  return {
    chainId: pool.chainId,
    pairId: [tokenAddress, WRAPPED_SOL_MINT].sort().join('_'),
    poolAddress: pool.poolAddress,
    token0Address: first.address,
    token1Address: second.address,
    token0Decimals: first.decimals,
    token1Decimals: second.decimals,
    protocol,
    syncedAt: pool.syncedAt,
    creationBlockNumber: pool.creationBlockNumber,
    creationBlockTimestamp: pool.creationBlockTimestamp,
    dex: null,
    protocolData: {
      id: pool.poolAddress,
      price0,
      price1,
      reserve0: first.reserve,
      reserve1: second.reserve,
      baseMint: tokenAddress,
      quoteMint: WRAPPED_SOL_MINT,
      token0Address: first.address,
      token1Address: second.address,
      ...(bondingCurve ? { bondingCurve: pool.poolAddress } : {}),
    },
    version: '1',
    suspectedBaseToken: tokenAddress,
    suspectedBaseTokenPrice: pool.suspectedBaseTokenPrice,
    suspectedQuoteTokenPrice: pool.suspectedQuoteTokenPrice,
    suspectedBaseTokenReserves: pool.suspectedBaseTokenReserves,
    suspectedQuoteTokenReserves: pool.suspectedQuoteTokenReserves,
  };
}

/** The token as the vendor protocol reads it in-process: the `real` style with vendor pools and names, every pool figure in. */
export function vendorReading(token: WireToken, plan: VendorTokenPlan): WireToken {
  const pools: Record<string, WireLiquidityPool> = {};
  for (const [address, pool] of Object.entries(token.liquidityPools)) {
    pools[address] = vendorPool(pool, token.address, address === plan.curvePool);
  }
  return { ...styledToken(token, 'real'), liquidityPools: pools, origin: vendorOriginName(token.origin) };
}

function withoutFigures(pool: WireLiquidityPool): VendorLiquidityPool {
  const out: VendorLiquidityPool = { ...pool };
  for (const figure of SUSPECTED_FIGURES) delete out[figure];
  return out;
}

/** The token-data answer: the reading in the recordings' order, without partnerStats, and without the pool figures when the plan says. */
export function vendorAnswer(reading: WireToken, plan: VendorTokenPlan): VendorToken {
  const pools: Record<string, VendorLiquidityPool> = {};
  for (const [address, pool] of Object.entries(reading.liquidityPools)) pools[address] = plan.figures ? pool : withoutFigures(pool);
  return {
    id: reading.id,
    chainId: reading.chainId,
    address: reading.address,
    decimals: reading.decimals,
    name: reading.name,
    symbol: reading.symbol,
    syncedAt: reading.syncedAt,
    description: reading.description,
    isVerifiedSourceCode: reading.isVerifiedSourceCode,
    goplusStats: null,
    ownerAddress: reading.ownerAddress,
    totalSupply: reading.totalSupply,
    logo: reading.logo,
    website: reading.website,
    deployerAddress: reading.deployerAddress,
    creationBlockNumber: reading.creationBlockNumber,
    creationBlockTimestamp: reading.creationBlockTimestamp,
    holdersCount: reading.holdersCount,
    version: reading.version,
    liquidityPools: pools,
    riskAnalysis: reading.riskAnalysis,
    limits: {},
    searchGraphData: null,
    riskStatus: reading.riskStatus,
    links: reading.links,
    top10HoldersSupply: reading.top10HoldersSupply,
    origin: reading.origin,
    image: reading.image,
  };
}
