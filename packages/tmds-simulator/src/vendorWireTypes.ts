/**
 * The JSON of the vendor protocol (protocol.ts), typed as the real service's pages and recordings
 * show it (shared/spec/real-service.md). Stream events are type aliases, not interfaces, so that
 * they are JSON values for jsonText.ts: raw token amounts past 2^53 are bigint in-process and JSON
 * numbers of every digit on the wire.
 */
import type { WireLiquidityPool, WireToken } from './wireTypes';

/** The four pool figures a third of the vendor's tokens leave out (their pools carry them in protocolData only). */
export type SuspectedFigure =
  | 'suspectedBaseTokenPrice'
  | 'suspectedQuoteTokenPrice'
  | 'suspectedBaseTokenReserves'
  | 'suspectedQuoteTokenReserves';

/** A pool as the vendor's token-data writes it: the suspected figures may be absent, protocolData never is. */
export type VendorLiquidityPool = Omit<WireLiquidityPool, SuspectedFigure> & Partial<Pick<WireLiquidityPool, SuspectedFigure>>;

/** A token as the vendor's token-data writes it: the recordings' fields in their order, `goplusStats` for `partnerStats`. */
export interface VendorToken extends Omit<WireToken, 'liquidityPools' | 'partnerStats'> {
  liquidityPools: Record<string, VendorLiquidityPool>;
}

/** token-data's answer, as recorded. */
export interface VendorTokenEnvelope {
  statusCode: 200;
  message: null;
  data: Record<string, VendorToken>;
}

/** What the server says that is no data: `connected`, `subscriptionConfirmed`, `unsubscribed`, `error`. */
export type VendorControlMessage = { type: string; message: string } | { type: 'error'; error: string; message: string };

/** trades-live: one swap. No maker wallet: the vendor's trade carries none. */
export type VendorTradeEvent = {
  event: 'trade';
  /** Unix seconds. */
  timestamp: number;
  datetime: string;
  tokenAddress: string;
  quoteToken: string;
  type: 'BUY' | 'SELL';
  /** SOL and USD per whole token. */
  price: { sol: number; usd: number };
  /** token: the token's raw units; quote: lamports. */
  amount: { token: bigint; quote: bigint; usd: number };
  transaction: { hash: string; blockNumber: number };
  market: { protocol: string; poolAddress: string };
};

/** chart-live's candle: prices in USD per whole token, volume in the token's raw units. */
export type VendorCandle = {
  /** Unix milliseconds of the interval's start. */
  time: number;
  datetime: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: bigint;
  volumeUsd: number;
  trades: number;
  buys: number;
  sells: number;
};

export type VendorChartEvent = {
  event: 'chart';
  tokenAddress: string;
  quoteToken: string;
  /** Seconds. */
  timeframe: number;
  candle: VendorCandle;
};

export type VendorActivity = { amount: string; usd: string; transactions: number };

/** holders-live: one holder whose balance changed (a bonding curve's pool among them, under the pool's address). */
export type VendorHolderEvent = {
  event: 'holder';
  address: string;
  tokenAddress: string;
  /** Raw units. */
  currentAmount: string;
  holderSince: string;
  activity: { totalBought: VendorActivity; totalSold: VendorActivity };
  tags: string[];
  /** Lamports. */
  nativeBalance: string;
  syncedAt: string;
};

/** One token of token-feed's list. Volumes, liquidity and market cap in USD; percentages 0–100. */
export type VendorFeedToken = {
  address: string;
  name: string;
  symbol: string;
  buys: number;
  sells: number;
  totalTxns: number;
  buyVolume: number;
  sellVolume: number;
  totalVolume: number;
  /** USD per whole token, as text with a `$`: "$0.00002248252". */
  price: string;
  timestamp: string;
  createdAt: string;
  type: string;
  protocol: string;
  isDevRug: boolean;
  holders: number;
  socialsCount: number;
  botsTotalCount: number;
  sniperWalletsCount: number;
  buyTax: number;
  sellTax: number;
  links: { readonly [name: string]: string };
  liquidityUSD: number;
  marketCapUSD: number;
  devHoldingSupplyPerc: number;
  top10HoldersSupplyPerc: number | null;
  insiderWalletsSupplyPerc: number;
};

export type VendorFeedEvent = { event: 'token'; data: VendorFeedToken[] };
