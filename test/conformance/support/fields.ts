/**
 * The spec's §2 tables, as delivered types. Where the spec types a field only as "string" but
 * convention §1.2 makes it an amount in the smallest unit, the field must be integer text; where
 * the spec shows no type at all, only presence is required.
 */
import { isRecord, Problems, show, type FieldSpec } from './checks';

/** §2.2 Token. */
export const TOKEN_FIELDS: FieldSpec = {
  id: 'string',
  chainId: 'integer',
  address: 'string',
  decimals: 'integer',
  name: 'string',
  symbol: 'string',
  syncedAt: 'iso',
  description: 'present',
  isVerifiedSourceCode: 'present',
  partnerStats: 'present',
  ownerAddress: 'string|null',
  totalSupply: 'digits',
  logo: 'string',
  website: 'string|null',
  deployerAddress: 'string',
  creationBlockNumber: 'integer',
  creationBlockTimestamp: 'unixSeconds',
  holdersCount: 'digits',
  version: 'string',
  liquidityPools: 'object',
  riskAnalysis: 'object',
  riskStatus: 'string',
  links: 'object',
  top10HoldersSupply: 'present',
  origin: 'string',
  image: 'string',
};

/** §2.3 LiquidityPool. */
export const POOL_FIELDS: FieldSpec = {
  chainId: 'integer',
  pairId: 'string',
  poolAddress: 'string',
  token0Address: 'string',
  token1Address: 'string',
  token0Decimals: 'integer',
  token1Decimals: 'integer',
  protocol: 'string',
  syncedAt: 'iso',
  creationBlockNumber: 'integer',
  creationBlockTimestamp: 'unixSeconds',
  suspectedBaseTokenPrice: 'decimal',
  suspectedQuoteTokenPrice: 'decimal',
  suspectedBaseTokenReserves: 'digits',
  suspectedQuoteTokenReserves: 'digits',
};

/** §2.4 RiskAnalysis. */
export const RISK_FIELDS: FieldSpec = {
  isMutable: 'boolean',
  ownerBalance: 'digits',
  mintAuthority: 'string|null',
  freezeAuthority: 'string|null',
  updateAuthority: 'string',
};

/** §2.6 Holder record. currentlyHoldingAmount and nativeBalance are smallest units (§1.2). */
export const HOLDER_FIELDS: FieldSpec = {
  chainId: 'integer',
  tokenAddress: 'string',
  address: 'string',
  currentlyHoldingAmount: 'digits',
  holderSince: 'unixSeconds',
  totalBoughtAmount: 'number',
  totalBoughtETH: 'number',
  totalBuyTransactions: 'integer',
  totalSellTransactions: 'integer',
  totalSoldAmount: 'number',
  totalBoughtUSD: 'number',
  totalSoldUSD: 'number',
  totalSoldETH: 'number',
  sent: 'decimal',
  received: 'number',
  tags: 'string[]',
  syncedAt: 'iso',
  nativeBalance: 'digits',
};

/** §2.7 Trade. amountIn/amountOut are token amounts, nativeBalance lamports: smallest units (§1.2). */
export const TRADE_FIELDS: FieldSpec = {
  chainId: 'integer',
  blockTimestamp: 'unixSeconds',
  timestamp: 'unixSeconds',
  blockNumber: 'integer',
  transactionHash: 'string',
  logIndex: 'integer',
  transactionIndex: 'integer',
  tokenIn: 'string',
  tokenOut: 'string',
  amountIn: 'digits',
  amountOut: 'digits',
  amountUSD: 'decimal',
  suspectedBaseTokenPrice: 'decimal',
  suspectedBaseTokenPriceUSD: 'decimal',
  poolAddress: 'string',
  makerData: 'object',
  nativeBalance: 'digits',
};

/** §2.7 MakerData: every amount is a string here, unlike the holder record. */
export const MAKER_FIELDS: FieldSpec = {
  chainId: 'integer',
  address: 'string',
  tokenAddress: 'string',
  currentlyHoldingAmount: 'digits',
  holderSince: 'unixSeconds',
  totalBoughtAmount: 'decimal',
  totalBoughtUSD: 'decimal',
  totalBoughtETH: 'decimal',
  totalBuyTransactions: 'integer',
  totalSellTransactions: 'integer',
  totalSoldAmount: 'decimal',
  totalSoldUSD: 'decimal',
  totalSoldETH: 'decimal',
  sent: 'decimal',
  received: 'decimal',
  tags: 'string[]',
};

/** §2.8 Candle; `timestamp` is the one millisecond timestamp of the service (§1.4). */
export const CANDLE_FIELDS: FieldSpec = {
  time: 'iso',
  timestamp: 'integer',
  open: 'number',
  high: 'number',
  low: 'number',
  close: 'number',
  volume: 'number',
};

/** A Trade with its makerData; the maker must be one of `wallets` when given. */
export function checkTrade(
  problems: Problems,
  trade: unknown,
  where: string,
  wallets?: readonly string[],
): Record<string, unknown> | undefined {
  const record = problems.fields(trade, TRADE_FIELDS, where);
  if (!record) return undefined;
  const maker = isRecord(record.makerData) ? problems.fields(record.makerData, MAKER_FIELDS, `${where}.makerData`) : undefined;
  if (maker && wallets) {
    problems.check(
      typeof maker.address === 'string' && wallets.includes(maker.address),
      `${where}.makerData.address: expected one of the requested wallets, got ${show(maker.address)}`,
    );
  }
  if (typeof record.chainId === 'number' && maker && typeof maker.chainId === 'number') {
    problems.check(
      maker.chainId === record.chainId,
      `${where}.makerData.chainId ${maker.chainId} differs from the trade's chainId ${record.chainId}`,
    );
  }
  return record;
}
