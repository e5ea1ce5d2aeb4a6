/** Wire objects shaped as the simulator sends them (packages/tmds-simulator/src/wireTypes.ts), for the local fixture. */
import { fakeAddress } from '../../../support/addresses';

/** A valid, distinct base58 address for each (prefix, n). */
export function address(prefix: 'T' | 'W', n: number): string {
  return fakeAddress(prefix, n);
}

export const token = (n: number) => address('T', n);
export const wallet = (n: number) => address('W', n);

export const WSOL = 'So11111111111111111111111111111111111111112';

export function wireToken(tokenAddress: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: `1399811149-${tokenAddress}`,
    chainId: 1399811149,
    address: tokenAddress,
    decimals: 6,
    name: 'Fixture Token',
    symbol: 'FIX',
    syncedAt: '2025-01-01T00:00:00.000Z',
    description: null,
    isVerifiedSourceCode: null,
    partnerStats: null,
    ownerAddress: null,
    totalSupply: '1000000000000000',
    logo: '',
    website: null,
    deployerAddress: wallet(999),
    creationBlockNumber: 1,
    creationBlockTimestamp: 1_700_000_000,
    holdersCount: '120',
    version: '1',
    liquidityPools: {},
    riskAnalysis: { isMutable: false, ownerBalance: '0', mintAuthority: null, freezeAuthority: null, updateAuthority: wallet(998) },
    riskStatus: 'SAFE',
    links: {},
    top10HoldersSupply: '1000',
    origin: 'fixture',
    image: '',
    ...overrides,
  };
}

export function wireCandle(timestamp: number, close = 1.5): Record<string, unknown> {
  return { time: new Date(timestamp).toISOString(), timestamp, open: 1, high: 2, low: 0.5, close, volume: 10 };
}

export function wireHolder(tokenAddress: string, holder: string, amount = '5000'): Record<string, unknown> {
  return {
    chainId: 1399811149,
    tokenAddress,
    address: holder,
    currentlyHoldingAmount: amount,
    holderSince: 1_700_000_000,
    totalBoughtAmount: 5000,
    totalBoughtETH: 0.1,
    totalBuyTransactions: 1,
    totalSellTransactions: 0,
    totalSoldAmount: 0,
    totalBoughtUSD: 20,
    totalSoldUSD: 0,
    totalSoldETH: 0,
    sent: '0',
    received: 5000,
    tags: [],
    syncedAt: '2025-01-01T00:00:00.000Z',
    nativeBalance: '1000000000',
  };
}

export function wireTrade(tokenAddress: string, maker: string, hash: string): Record<string, unknown> {
  return {
    chainId: 1399811149,
    blockTimestamp: 1_700_000_100,
    timestamp: 1_700_000_100,
    blockNumber: 10,
    transactionHash: hash,
    logIndex: 0,
    transactionIndex: 0,
    tokenIn: WSOL,
    tokenOut: tokenAddress,
    amountIn: '1000000000',
    amountOut: '123456789',
    amountUSD: '150.5',
    suspectedBaseTokenPrice: '0.001',
    suspectedBaseTokenPriceUSD: '0.15',
    poolAddress: address('T', 777),
    makerData: {
      chainId: 1399811149,
      address: maker,
      tokenAddress,
      currentlyHoldingAmount: '123456789',
      holderSince: 1_700_000_100,
      totalBoughtAmount: '123456789',
      totalBoughtUSD: '150.5',
      totalBoughtETH: '1',
      totalBuyTransactions: 1,
      totalSellTransactions: 0,
      totalSoldAmount: '0',
      totalSoldUSD: '0',
      totalSoldETH: '0',
      sent: '0',
      received: '0',
      tags: [],
    },
    nativeBalance: '5000000000',
  };
}
