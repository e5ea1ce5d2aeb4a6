/**
 * The records the replay answers besides tokens: the spec's Trade (§2.7, wallet-tracker), its Holder
 * record (§2.6, holders-history), and the text of the three per-token stream messages exactly in the
 * shape of the vendor's pages (real-service.md): raw amounts as JSON numbers of their exact digits,
 * trade timestamps in seconds, candle times in milliseconds, holderSince as ISO, no maker on a trade.
 */
import { CHAIN_ID, SOL_MINT, addressFor, isoOfSeconds, nowSeconds, signatureFor, toJsonText } from './wire';

let serial = 0;
/** A fresh seed for made-up hashes: two trades never share one unless the test says so. */
function nextSeed(kind: string): string {
  serial += 1;
  return `${kind}:${serial}:${process.pid}`;
}

// ---- REST: §2.7 Trade (wallet-tracker) ----

export interface SpecMakerData {
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

export interface SpecTrade {
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
  makerData: SpecMakerData;
  nativeBalance: string;
}

export interface WalletTradeInput {
  wallet: string;
  token: string;
  type: 'BUY' | 'SELL';
  /** Raw units of the token. */
  tokenAmount: bigint;
  /** Raw units of the quote (lamports for SOL). */
  quoteAmount: bigint;
  priceSol: number;
  priceUsd: number;
  usd: number;
  /** Unix seconds; default now. */
  timestamp?: number;
  hash?: string;
  pool?: string;
  /** Default SOL. */
  quoteToken?: string;
}

/** A §2.7 Trade of one wallet: a BUY pays the quote in and takes the token out, a SELL the other way. */
export function makeWalletTrade(input: WalletTradeInput): SpecTrade {
  const timestamp = input.timestamp ?? nowSeconds();
  const quote = input.quoteToken ?? SOL_MINT;
  const buy = input.type === 'BUY';
  const token = input.tokenAmount.toString();
  const quoteAmount = input.quoteAmount.toString();
  return {
    chainId: CHAIN_ID,
    blockTimestamp: timestamp,
    timestamp,
    blockNumber: 336925418,
    transactionHash: input.hash ?? signatureFor(nextSeed('wallet-trade')),
    logIndex: 0,
    transactionIndex: 0,
    tokenIn: buy ? quote : input.token,
    tokenOut: buy ? input.token : quote,
    amountIn: buy ? quoteAmount : token,
    amountOut: buy ? token : quoteAmount,
    amountUSD: String(input.usd),
    suspectedBaseTokenPrice: String(input.priceSol),
    suspectedBaseTokenPriceUSD: String(input.priceUsd),
    poolAddress: input.pool ?? addressFor(`${input.token}:pool:0`),
    makerData: {
      chainId: CHAIN_ID,
      address: input.wallet,
      tokenAddress: input.token,
      currentlyHoldingAmount: buy ? token : '0',
      holderSince: timestamp,
      totalBoughtAmount: buy ? token : '0',
      totalBoughtUSD: buy ? String(input.usd) : '0',
      totalBoughtETH: buy ? quoteAmount : '0',
      totalBuyTransactions: buy ? 1 : 0,
      totalSellTransactions: buy ? 0 : 1,
      totalSoldAmount: buy ? '0' : token,
      totalSoldUSD: buy ? '0' : String(input.usd),
      totalSoldETH: buy ? '0' : quoteAmount,
      sent: '0',
      received: '0',
      tags: [],
    },
    nativeBalance: '5000000000',
  };
}

// ---- REST: §2.6 Holder record (holders-history) ----

export interface SpecHolder {
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

export interface HolderRecordInput {
  token: string;
  /** The holder: a wallet, or a pool's own address (a bonding curve holds most of a young token). */
  address: string;
  amount: bigint;
  /** Unix seconds; default now. */
  holderSince?: number;
  tags?: string[];
}

export function makeHolderRecord(input: HolderRecordInput): SpecHolder {
  const since = input.holderSince ?? nowSeconds();
  return {
    chainId: CHAIN_ID,
    tokenAddress: input.token,
    address: input.address,
    currentlyHoldingAmount: input.amount.toString(),
    holderSince: since,
    totalBoughtAmount: Number(input.amount),
    totalBoughtETH: 0,
    totalBuyTransactions: 1,
    totalSellTransactions: 0,
    totalSoldAmount: 0,
    totalBoughtUSD: 0,
    totalSoldUSD: 0,
    totalSoldETH: 0,
    sent: '0',
    received: 0,
    tags: input.tags ?? [],
    syncedAt: isoOfSeconds(since),
    nativeBalance: '0',
  };
}

// ---- Streams: the vendor pages' messages ----

export interface TradeInput {
  type: 'BUY' | 'SELL';
  /** SOL and USD per whole token. */
  priceSol: number;
  priceUsd: number;
  /** Raw units, written as JSON numbers of their exact digits. */
  tokenAmount: bigint;
  quoteAmount: bigint;
  usd: number;
  hash?: string;
  /** Default: the token's first pool when the replay holds the token, else a made-up one. */
  pool?: string;
  protocol?: string;
  /** Unix seconds; default now. */
  timestamp?: number;
  blockNumber?: number;
  /** Default SOL. */
  quoteToken?: string;
}

export function tradeMessage(tokenAddress: string, input: TradeInput, pool: { address: string; protocol: string }): string {
  const timestamp = input.timestamp ?? nowSeconds();
  return toJsonText({
    event: 'trade',
    timestamp,
    datetime: isoOfSeconds(timestamp),
    tokenAddress,
    quoteToken: input.quoteToken ?? SOL_MINT,
    type: input.type,
    price: { sol: input.priceSol, usd: input.priceUsd },
    amount: { token: input.tokenAmount, quote: input.quoteAmount, usd: input.usd },
    transaction: { hash: input.hash ?? signatureFor(nextSeed('trade')), blockNumber: input.blockNumber ?? 336925418 },
    market: { protocol: input.protocol ?? pool.protocol, poolAddress: input.pool ?? pool.address },
  });
}

export interface CandleInput {
  open: number;
  high: number;
  low: number;
  close: number;
  /** Raw base units. */
  volume: bigint;
  volumeUsd: number;
  /** The candle's start, Unix milliseconds. */
  timeMs: number;
  trades?: number;
  buys?: number;
  sells?: number;
  /** Seconds; default 60. Only sockets subscribed with this timeframe receive the candle. */
  timeframe?: number;
  quoteToken?: string;
}

export function candleMessage(tokenAddress: string, input: CandleInput): string {
  const trades = input.trades ?? 1;
  return toJsonText({
    event: 'chart',
    tokenAddress,
    quoteToken: input.quoteToken ?? SOL_MINT,
    timeframe: input.timeframe ?? 60,
    candle: {
      time: input.timeMs,
      datetime: new Date(input.timeMs).toISOString(),
      open: input.open,
      high: input.high,
      low: input.low,
      close: input.close,
      volume: input.volume,
      volumeUsd: input.volumeUsd,
      trades,
      buys: input.buys ?? trades,
      sells: input.sells ?? 0,
    },
  });
}

/** The page shows placeholders for these amounts: give strings or numbers (bigints are written as numbers). */
export interface HolderActivityInput {
  amount: string | number | bigint;
  usd: string | number;
  transactions: number;
}

export interface HolderInput {
  /** The holder's wallet. */
  address: string;
  /** Raw units, a string as the page shows it. */
  currentAmount: string;
  holderSinceIso: string;
  bought?: HolderActivityInput;
  sold?: HolderActivityInput;
  tags?: string[];
  nativeBalance?: string;
  syncedAtIso?: string;
}

const NO_ACTIVITY: HolderActivityInput = { amount: '0', usd: '0', transactions: 0 };

export function holderMessage(tokenAddress: string, input: HolderInput): string {
  return toJsonText({
    event: 'holder',
    address: input.address,
    tokenAddress,
    currentAmount: input.currentAmount,
    holderSince: input.holderSinceIso,
    activity: { totalBought: { ...(input.bought ?? NO_ACTIVITY) }, totalSold: { ...(input.sold ?? NO_ACTIVITY) } },
    tags: input.tags ?? [],
    nativeBalance: input.nativeBalance ?? '0',
    syncedAt: input.syncedAtIso ?? new Date().toISOString(),
  });
}
