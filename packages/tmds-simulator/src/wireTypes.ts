/**
 * The JSON the simulator sends, typed exactly as the spec's tables give them (§2). Where the spec
 * says "not shown", the simulator's choice is written here and in docs/simulator.md.
 */

export type RiskStatus = 'SAFE' | 'WARNING' | 'DANGER';

/** §2.3 */
export interface WireLiquidityPool {
  chainId: number;
  pairId: string;
  poolAddress: string;
  token0Address: string;
  token1Address: string;
  token0Decimals: number;
  token1Decimals: number;
  protocol: string;
  syncedAt: string;
  creationBlockNumber: number;
  creationBlockTimestamp: number;
  suspectedBaseTokenPrice: string;
  suspectedQuoteTokenPrice: string;
  suspectedBaseTokenReserves: string;
  suspectedQuoteTokenReserves: string;
  /** Not in the spec's table; written in the `real` wire style only (wireStyle.ts), as the live service does. */
  suspectedBaseToken?: string;
  suspectedQuoteToken?: string;
  protocolData?: Record<string, string>;
  /** Not in the spec's table; written in the vendor protocol only (vendorToken.ts), as the recordings show. */
  dex?: null;
  version?: string;
}

/** §2.4 */
export interface WireRiskAnalysis {
  isMutable: boolean;
  ownerBalance: string;
  mintAuthority: string | null;
  freezeAuthority: string | null;
  updateAuthority: string;
}

/** Value types of the nullable fields (spec: "not shown"): the simulator's choice. */
export interface WirePartnerStats {
  source: string;
  boosts: number;
  trendingRank: number | null;
}

/** §2.2 */
export interface WireToken {
  id: string;
  chainId: number;
  address: string;
  decimals: number;
  name: string;
  symbol: string;
  syncedAt: string;
  description: string | null;
  isVerifiedSourceCode: boolean | null;
  partnerStats: WirePartnerStats | null;
  ownerAddress: string | null;
  totalSupply: string;
  logo: string;
  website: string | null;
  deployerAddress: string;
  creationBlockNumber: number;
  creationBlockTimestamp: number;
  holdersCount: string;
  version: string;
  liquidityPools: Record<string, WireLiquidityPool>;
  riskAnalysis: WireRiskAnalysis;
  riskStatus: RiskStatus;
  links: Record<string, string>;
  /** Integer text in smallest units: the sum of the ten largest current balances. */
  top10HoldersSupply: string | null;
  /** Not in the spec's table; written in the `real` wire style only (wireStyle.ts), as the live service does. */
  goplusStats?: null;
  limits?: Record<string, never>;
  searchGraphData?: null;
  origin: string;
  image: string;
}

/** §2.1 */
export interface WireTokenEnvelope {
  statusCode: 200;
  message: null;
  data: Record<string, WireToken>;
}

/** §2.5 overtimeTechnicals point. */
export interface WireTechnicalsPoint {
  id: string;
  contractAddress: string;
  chainId: number;
  syncedAt: string;
  holdersCount: number;
  tagsCount: number;
  topHoldersSupply: Record<string, string>;
  topHoldersSupplyPerc: Record<string, number>;
}

export interface WireTokenStats {
  devDeployedTokens: string[];
  devDeployedTokensCount: number;
  isDevRug: boolean;
  isDevNew: boolean;
  devSoldSupply: string;
  devSoldSupplyPerc: number;
  initialTotalBoughtSupply: string;
  priceNative: number;
  liquidityNative: number;
}

export interface WireDevMakerData {
  totalBoughtAmount: string;
  totalSoldAmount: string;
  totalBoughtETH: string;
  totalSoldETH: string;
  totalSoldUSD: string;
  totalBuyTransactions: number;
  totalSellTransactions: number;
}

export type InitialBuyerType = 'HOLD' | 'SELL_ALL' | 'SELL_PARTIAL';

export interface WireInitialBuyer {
  walletAddress: string;
  initialBuyerType: InitialBuyerType;
  sniper: boolean;
  buyAmount: string;
  sellAmount: string | null;
}

export interface WireTechnicals {
  overtimeTechnicals: WireTechnicalsPoint[];
  tokenStats: WireTokenStats[];
  devMakerData: WireDevMakerData;
  initialBuyerStats: WireInitialBuyer[];
}

/** §2.6 */
export interface WireHolder {
  chainId: number;
  tokenAddress: string;
  address: string;
  currentlyHoldingAmount: string;
  holderSince: number;
  totalBoughtAmount: number;
  totalBoughtETH: number;
  totalBuyTransactions: number;
  totalSellTransactions: number;
  totalSoldAmount: number;
  totalBoughtUSD: number;
  totalSoldUSD: number;
  totalSoldETH: number;
  sent: string;
  received: number;
  tags: string[];
  syncedAt: string;
  nativeBalance: string;
}

/** §2.7 MakerData */
export interface WireMakerData {
  chainId: number;
  address: string;
  tokenAddress: string;
  currentlyHoldingAmount: string;
  holderSince: number;
  totalBoughtAmount: string;
  totalBoughtUSD: string;
  totalBoughtETH: string;
  totalBuyTransactions: number;
  totalSellTransactions: number;
  totalSoldAmount: string;
  totalSoldUSD: string;
  totalSoldETH: string;
  sent: string;
  received: string;
  tags: string[];
}

/** §2.7 Trade */
export interface WireTrade {
  chainId: number;
  blockTimestamp: number;
  timestamp: number;
  blockNumber: number;
  transactionHash: string;
  logIndex: number;
  transactionIndex: number;
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
  amountOut: string;
  amountUSD: string;
  suspectedBaseTokenPrice: string;
  suspectedBaseTokenPriceUSD: string;
  poolAddress: string;
  makerData: WireMakerData;
  nativeBalance: string;
}

/** Content of tokensMetadata (spec: "not shown"): the simulator's choice. */
export interface WireTokenMetadata {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  logo: string;
}

export interface WireTradeResponse {
  tradeHistory: WireTrade[];
  tokensMetadata: Record<string, WireTokenMetadata>;
}

/** §2.8 */
export interface WireCandle {
  time: string;
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}
