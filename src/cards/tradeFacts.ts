/**
 * What a trade means for a trader, read from the service's Trade (spec §2.7): which token it is
 * about, whether it bought or sold that token, how much of the token and how much SOL changed
 * hands, and what a wallet has made on a token so far. Also how a token is named on a card, since
 * names and symbols are written by whoever deployed the token.
 *
 * The pieces of a trade as every trade-showing card writes them (amounts with their unit, wallets
 * and transactions as short explorer links) live here too, so the trades and wallet cards agree.
 *
 * Pure functions over the client's exact types; nothing here fetches.
 */
import { addressKind, WSOL_ADDRESS } from '../market/address';
import type { Trade, TokenMetadata } from '../market/schemas';
import { joinRich, link, rich, type RichText } from './card';
import { formatTokenAmount, shortAddress, solFromLamports, usd } from '../text/format';
import { explorerAccountUrl, explorerTxUrl } from './explorer';
import { cleanText, untrusted } from '../text/sanitize';

/** Lamports per SOL, as decimals. */
export const SOL_DECIMALS = 9;

export type TradeSide = 'buy' | 'sell';

/** Base58 addresses are case-sensitive; 0x addresses are not. */
export function sameAddress(a: string, b: string): boolean {
  if (a === b) return true;
  return addressKind(a) === 'evm' && addressKind(b) === 'evm' && a.toLowerCase() === b.toLowerCase();
}

/** Buy when the token came out of the swap to the maker, sell when it went in; null when neither side is the token. */
export function tradeSide(trade: Trade, token: string): TradeSide | null {
  if (sameAddress(trade.tokenOut, token)) return 'buy';
  if (sameAddress(trade.tokenIn, token)) return 'sell';
  return null;
}

/**
 * The token a trade is about. makerData names it when it is one of the two sides; otherwise the
 * side that is not SOL, and as a last resort what the maker received.
 */
export function tradeToken(trade: Trade): string {
  const named = trade.makerData?.tokenAddress;
  if (named && (sameAddress(named, trade.tokenIn) || sameAddress(named, trade.tokenOut))) return named;
  if (sameAddress(trade.tokenOut, WSOL_ADDRESS)) return trade.tokenIn;
  return trade.tokenOut;
}

/** The amount of `token` that changed hands, in its smallest unit; null when the trade is not about it. */
export function tokenAmountOf(trade: Trade, token: string): bigint | null {
  const side = tradeSide(trade, token);
  if (side === 'buy') return trade.amountOut;
  if (side === 'sell') return trade.amountIn;
  return null;
}

/** Lamports paid (on a buy) or received (on a sell); null when neither side is SOL. */
export function solAmountOf(trade: Trade): bigint | null {
  if (sameAddress(trade.tokenIn, WSOL_ADDRESS)) return trade.amountIn;
  if (sameAddress(trade.tokenOut, WSOL_ADDRESS)) return trade.amountOut;
  return null;
}

// ----- names -----

/** What a card knows about a token: possibly nothing beyond its address. */
export interface TokenInfo {
  address: string;
  name: string | null;
  symbol: string | null;
  decimals: number | null;
}

export function tokenInfoFrom(address: string, metadata: TokenMetadata | null | undefined): TokenInfo {
  return {
    address,
    name: metadata?.name ?? null,
    symbol: metadata?.symbol ?? null,
    decimals: metadata?.decimals ?? null,
  };
}

/** Metadata of a token in a trade answer, whose keys may differ from ours in case (0x addresses). */
export function metadataFor(metadata: ReadonlyMap<string, TokenMetadata>, address: string): TokenMetadata | null {
  const exact = metadata.get(address);
  if (exact) return exact;
  for (const [key, value] of metadata) if (sameAddress(key, address)) return value;
  return null;
}

/** Fills what metadata left unknown from a token-data answer; what metadata named is kept. */
export function completeWith(info: TokenInfo, token: { name: string | null; symbol: string | null; decimals: number | null }): TokenInfo {
  return {
    address: info.address,
    name: info.name || token.name || null,
    symbol: info.symbol || token.symbol || null,
    decimals: info.decimals ?? token.decimals,
  };
}

/** Enough to show a token's amounts and name without another look-up. */
export function isComplete(info: TokenInfo): boolean {
  return info.decimals !== null && Boolean(info.symbol || info.name);
}

const MAX_NAME = 40;
const MAX_SYMBOL = 16;

/** The token's symbol, or its short address when it has none. */
export function tokenSymbol(info: TokenInfo): string {
  return untrusted(info.symbol, MAX_SYMBOL, shortAddress(info.address));
}

/** "Name (SYMBOL)", or whichever of the two exists, or the short address. */
export function tokenTitle(info: TokenInfo): string {
  const name = untrusted(info.name, MAX_NAME, '');
  const symbol = untrusted(info.symbol, MAX_SYMBOL, '');
  if (name !== '' && symbol !== '' && name !== symbol) return `${name} (${symbol})`;
  return name || symbol || shortAddress(info.address);
}

// ----- profit -----

/** What one or more wallets did in one token, as the service totals it. */
export interface TokenProfit {
  token: string;
  /** Wallets (of those asked) that traded the token. */
  wallets: number;
  /** USD at the time of each trade; null when the service gave no totals. */
  boughtUsd: number | null;
  soldUsd: number | null;
  /** Sold USD minus the average cost of what was sold; null when the cost is unknown. */
  realisedUsd: number | null;
  buys: number;
  sells: number;
  /** Still held, smallest unit; null when unknown. */
  holding: bigint | null;
  /** Unix seconds of the newest trade. */
  lastTradeAt: number;
}

/**
 * Realised profit of one position at average cost: what the sold tokens brought minus what they
 * cost on average. Tokens sold beyond those bought (received by transfer) count at the full cost
 * of the buys, never more. Null when nothing was bought, so no cost is known.
 */
function realisedOf(soldUsd: number, boughtUsd: number, soldAmount: bigint | null, boughtAmount: bigint | null): number | null {
  if (soldAmount === null || soldAmount === 0n) return 0;
  if (boughtAmount === null || boughtAmount <= 0n) return null;
  const PRECISION = 1_000_000n;
  const share = soldAmount >= boughtAmount ? 1 : Number((soldAmount * PRECISION) / boughtAmount) / Number(PRECISION);
  return soldUsd - boughtUsd * share;
}

function addNullable(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

/**
 * Profit per token of the wallets behind `trades` (newest first, as the client returns them).
 *
 * Decision: the totals come from the makerData of each wallet's newest trade in each token, which
 * the service fills with the wallet's running totals for that token (spec §2.7), summed over the
 * wallets. Summing the listed trades instead would undercount whenever the service returns only
 * part of a long history, and wallet-tracker values its trades at current prices (§4.6) while
 * makerData keeps the USD of the time of each trade. When the newest trade of a wallet carries no
 * makerData, its trades are counted from the list and its USD is unknown.
 *
 * Tokens come out with the most recently traded first.
 */
export function profitByToken(trades: readonly Trade[]): TokenProfit[] {
  const newest = new Map<string, Trade>();
  const listed = new Map<string, { buys: number; sells: number }>();
  for (const trade of trades) {
    const token = tradeToken(trade);
    const wallet = trade.makerData?.address ?? '';
    const key = `${token}\u0000${wallet}`;
    const seen = newest.get(key);
    if (!seen || trade.timestamp > seen.timestamp) newest.set(key, trade);
    const counts = listed.get(key) ?? { buys: 0, sells: 0 };
    const side = tradeSide(trade, token);
    if (side === 'buy') counts.buys += 1;
    if (side === 'sell') counts.sells += 1;
    listed.set(key, counts);
  }

  const byToken = new Map<string, TokenProfit>();
  for (const [key, trade] of newest) {
    const token = tradeToken(trade);
    const maker = trade.makerData;
    const counts = listed.get(key) ?? { buys: 0, sells: 0 };
    const boughtUsd = maker ? (maker.totalBoughtUSD ?? 0) : null;
    const soldUsd = maker ? (maker.totalSoldUSD ?? 0) : null;
    const pair: TokenProfit = {
      token,
      wallets: 1,
      boughtUsd,
      soldUsd,
      realisedUsd:
        maker && boughtUsd !== null && soldUsd !== null
          ? realisedOf(soldUsd, boughtUsd, maker.totalSoldAmount, maker.totalBoughtAmount)
          : null,
      buys: maker?.totalBuyTransactions ?? counts.buys,
      sells: maker?.totalSellTransactions ?? counts.sells,
      holding: maker?.currentlyHoldingAmount ?? null,
      lastTradeAt: trade.timestamp,
    };
    const sum = byToken.get(token);
    if (!sum) {
      byToken.set(token, pair);
      continue;
    }
    sum.wallets += 1;
    sum.boughtUsd = addNullable(sum.boughtUsd, pair.boughtUsd);
    sum.soldUsd = addNullable(sum.soldUsd, pair.soldUsd);
    sum.realisedUsd = addNullable(sum.realisedUsd, pair.realisedUsd);
    sum.buys += pair.buys;
    sum.sells += pair.sells;
    sum.holding = sum.holding === null || pair.holding === null ? null : sum.holding + pair.holding;
    sum.lastTradeAt = Math.max(sum.lastTradeAt, pair.lastTradeAt);
  }
  return [...byToken.values()].sort((a, b) => b.lastTradeAt - a.lastTradeAt || (a.token < b.token ? -1 : a.token > b.token ? 1 : 0));
}

// ----- pieces of a trade on a card -----

/** What a card shows for a value it does not know. */
export const UNKNOWN = '—';
/** Wallets named in a list; the rest are counted. */
const MAX_WALLETS_NAMED = 5;

/** A wallet as a short, linked address; the address comes from the service, so it is cleaned too. */
export function walletLink(address: string, chainId?: number | null): RichText {
  const shown = shortAddress(cleanText(address, 64, '?'));
  return [link(shown, explorerAccountUrl(address, chainId))];
}

/** "2eLv…5a7Y, 9xQe…p1Lk +3 more", linked. */
export function walletList(wallets: readonly string[]): RichText {
  const named = wallets.slice(0, MAX_WALLETS_NAMED).map((wallet) => walletLink(wallet));
  const rest = wallets.length - named.length;
  return rich(joinRich(named, ', '), rest > 0 ? ` +${rest} more` : '');
}

/** The transaction as its short signature, linked to the explorer when it is a real signature. */
export function txLink(trade: Trade): RichText {
  const shown = shortAddress(cleanText(trade.transactionHash, 100, '?'));
  return [link(shown, explorerTxUrl(trade.transactionHash, trade.chainId))];
}

/** "588.1K BONK"; unknown when the trade is not about the token or its decimals are unknown. */
export function tokenAmountText(trade: Trade, token: TokenInfo): string {
  const amount = tokenAmountOf(trade, token.address);
  if (amount === null || token.decimals === null) return UNKNOWN;
  return `${formatTokenAmount(amount, token.decimals)} ${tokenSymbol(token)}`;
}

/** The SOL side of a trade: "2.211 SOL". */
export function solText(trade: Trade): string {
  const lamports = solAmountOf(trade);
  return lamports === null ? UNKNOWN : solFromLamports(lamports);
}

export function usdText(value: number | null): string {
  return value === null ? UNKNOWN : usd(value);
}
