/**
 * The vendor's stream messages (../shared/spec/real-service.md): control messages carry `type`
 * (`connected`, `subscriptionConfirmed`), data messages carry `event` (`trade`, `chart`, `holder`,
 * `token`) in shapes of their own. Each data message is read here into the same Trade, Candle or
 * Holder the REST endpoints give, so that everything past the decoder sees one shape whichever
 * protocol the service speaks.
 *
 * Raw amounts come as JSON numbers that may pass 2^53: a frame holding a run of 16 digits or more
 * is parsed with lossless-json (integers past the safe range as bigint), every other frame with
 * JSON.parse, which is several times faster and exact below 2^53.
 */
import { isInteger, parse as parseLossless } from 'lossless-json';
import { CandleSchema, HolderSchema, TradeSchema, type Candle, type Holder, type Trade } from '../schemas';

/** A digit run this long may be an integer past 2^53 (16 digits reach 9.007e15). */
const LONG_DIGITS = /\d{16,}/;

function exactNumber(text: string): number | bigint {
  if (isInteger(text)) {
    const value = Number(text);
    return Number.isSafeInteger(value) ? value : BigInt(text);
  }
  return Number(text);
}

/** JSON.parse, or an exact parse when the text may hold an integer past 2^53; throws on text that is not JSON. */
export function parseFrame(text: string): unknown {
  return LONG_DIGITS.test(text) ? parseLossless(text, null, exactNumber) : JSON.parse(text);
}

/** The token a vendor confirmation names: `Subscribed to <token>` (chart-live adds ` with 60s timeframe`); null when it names none. */
export function confirmedToken(message: unknown): string | null {
  if (typeof message !== 'string') return null;
  const match = /Subscribed to ([1-9A-HJ-NP-Za-km-z]{32,44}|0x[0-9a-fA-F]{40})\b/.exec(message);
  return match?.[1] ?? null;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** An ISO date-time as epoch seconds, or the value itself (a number of seconds) when it is one. */
function epochSeconds(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : value;
}

/**
 * A trades-live message as a Trade: BUY is the quote in and the token out, SELL the other way;
 * prices per whole token (`price.sol` is the SOL price the cards use); no maker and no log index
 * on this stream.
 */
export function vendorTrade(message: Record<string, unknown>): ReturnType<typeof TradeSchema.safeParse> {
  const price = record(message.price);
  const amount = record(message.amount);
  const transaction = record(message.transaction);
  const market = record(message.market);
  const token = message.tokenAddress;
  const quote = message.quoteToken;
  const buy = typeof message.type === 'string' && message.type.toUpperCase() === 'BUY';
  return TradeSchema.safeParse({
    timestamp: message.timestamp,
    blockTimestamp: message.timestamp,
    blockNumber: transaction.blockNumber,
    transactionHash: transaction.hash,
    logIndex: null,
    tokenIn: buy ? quote : token,
    tokenOut: buy ? token : quote,
    amountIn: buy ? amount.quote : amount.token,
    amountOut: buy ? amount.token : amount.quote,
    amountUSD: amount.usd,
    suspectedBaseTokenPrice: price.sol,
    suspectedBaseTokenPriceUSD: price.usd,
    poolAddress: market.poolAddress,
    makerData: null,
  });
}

/** Whether a trades-live message is a sale of the token (the Trade's sides say it too; this is for the message's own word). */
export function isVendorSell(message: Record<string, unknown>): boolean {
  return typeof message.type === 'string' && message.type.toUpperCase() === 'SELL';
}

/**
 * A chart-live message's candle: `candle.time` in milliseconds, volume in USD (`volumeUsd`) when
 * given, else the raw `volume`. Its price unit is not stated by the service (see the event's
 * `priceUnit`).
 */
export function vendorCandle(message: Record<string, unknown>): ReturnType<typeof CandleSchema.safeParse> {
  const candle = record(message.candle);
  return CandleSchema.safeParse({
    time: candle.datetime,
    timestamp: candle.time,
    open: candle.open,
    high: candle.high,
    low: candle.low,
    close: candle.close,
    volume: candle.volumeUsd ?? candle.volume,
  });
}

/** A holders-live message as a Holder: `currentAmount`, ISO `holderSince`, totals under `activity`. */
export function vendorHolder(message: Record<string, unknown>): ReturnType<typeof HolderSchema.safeParse> {
  const activity = record(message.activity);
  const bought = record(activity.totalBought);
  const sold = record(activity.totalSold);
  return HolderSchema.safeParse({
    tokenAddress: message.tokenAddress,
    address: message.address,
    currentlyHoldingAmount: message.currentAmount,
    holderSince: epochSeconds(message.holderSince),
    totalBoughtAmount: bought.amount,
    totalBoughtUSD: bought.usd,
    totalBuyTransactions: bought.transactions,
    totalSoldAmount: sold.amount,
    totalSoldUSD: sold.usd,
    totalSellTransactions: sold.transactions,
    tags: message.tags,
    syncedAt: message.syncedAt,
    nativeBalance: message.nativeBalance,
  });
}

export type { Candle, Holder, Trade };
