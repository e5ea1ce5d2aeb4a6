/**
 * The last-seen state of a followed token or wallet: what the detectors compare new data with, and
 * what the store keeps so that a restart neither repeats old alerts nor misses new ones. Plain
 * JSON-safe data (amounts as decimal strings), so any store can keep it as it is.
 *
 * Also the builders: `snapshotOfToken` reads the client's Token (from a stream or from a
 * reconciliation's token-data answer) into the next snapshot, carrying over what a Token does not
 * say (the price history of the move window, the whales seen on holders-live, the pools' peaks).
 */
import type { Holder, LiquidityPool, Token, Trade } from '../market/schemas';
import type { PoolSnapshot, TokenSnapshot, WalletSnapshot } from '../model/snapshot';

/** A pool's quote reserves down this many percent from their peak is liquidity pulled (detectors/liquidity.ts). */
export const LIQUIDITY_DROP_PCT = 30;

/** Wrapped SOL: the quote side of every Solana pool the service reports. */
export const WSOL = 'So11111111111111111111111111111111111111112';
const SOL_DECIMALS = 9;

/**
 * The window of a price move: a price is compared with the oldest one seen within the last hour.
 * An hour is what a trader means by "it moved": long enough for a pump or a dump, short enough
 * that a slow drift over a day is not news.
 */
export const PRICE_WINDOW_MS = 60 * 60_000;
/** At most one kept price per minute (the newest of the minute replaces the one before): at most 61 points a token. */
export const PRICE_SAMPLE_MS = 60_000;

/** Trade id as the wallet snapshot keeps it: hash and log index. */
export function tradeId(trade: Pick<Trade, 'transactionHash' | 'logIndex'>): string {
  return `${trade.transactionHash}:${trade.logIndex ?? 0}`;
}

/**
 * The quote (SOL) side of a pool as read from the token's side. The service lists the token as
 * token0 and SOL as token1; when the token is token1, its other side is token0's reserves, which
 * the service calls base. A pool whose other side is not SOL has no SOL figure.
 */
function quoteReservesOf(token: Pick<Token, 'address'>, pool: LiquidityPool): bigint | null {
  const tokenIsToken1 = pool.token1Address === token.address && pool.token0Address !== token.address;
  const quoteAddress = tokenIsToken1 ? pool.token0Address : pool.token1Address;
  if (quoteAddress !== WSOL) return null;
  return tokenIsToken1 ? pool.suspectedBaseTokenReserves : pool.suspectedQuoteTokenReserves;
}

function poolPrice(token: Pick<Token, 'address' | 'decimals'>, pool: LiquidityPool, quote: bigint | null): number | null {
  const own = pool.suspectedBaseTokenPrice;
  if (typeof own === 'number' && Number.isFinite(own) && own > 0) return own;
  const tokenIsToken1 = pool.token1Address === token.address && pool.token0Address !== token.address;
  const base = tokenIsToken1 ? pool.suspectedQuoteTokenReserves : pool.suspectedBaseTokenReserves;
  if (quote === null || base === null || base <= 0n) return null;
  const baseDecimals = (tokenIsToken1 ? pool.token1Decimals : pool.token0Decimals) ?? token.decimals;
  const value = (Number(quote) / 10 ** SOL_DECIMALS) / (Number(base) / 10 ** baseDecimals);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * The price in SOL as the cards show it (src/cards/tokenFacts.ts priceSol): that of the deepest
 * SOL pool that gives one. Written here again without the card's text cleaning, as it runs for
 * every pushed token.
 */
function readPools(token: Token, previous: TokenSnapshot | null): { pools: PoolSnapshot[]; price: number | null } {
  const before = previous?.pools ?? [];
  const listed = token.liquidityPools;
  // Made only once a pool differs from the previous snapshot's at its place: the usual push
  // changes no pool, and then the previous list serves again with nothing allocated for it.
  let pools: PoolSnapshot[] | null = before.length === listed.length ? null : [];
  let price: number | null = null;
  let deepest = -1n;
  for (let index = 0; index < listed.length; index++) {
    const pool = listed[index] as LiquidityPool;
    const quote = quoteReservesOf(token, pool);
    const quoteText = quote === null ? null : quote.toString();
    // Nearly always the pools come in the same order; a search only when they do not.
    const prior = before[index]?.poolAddress === pool.poolAddress ? before[index] : before.find((known) => known.poolAddress === pool.poolAddress);
    const oldPeak = prior === undefined ? undefined : (prior.peakQuoteReserves ?? prior.quoteReserves);
    let peak = quoteText;
    if (oldPeak !== undefined && oldPeak !== null && quote !== null && oldPeak !== quoteText) {
      const old = BigInt(oldPeak);
      // Above the current reserves the peak stays, unless they fell past the alert line: the alert resets it.
      if (old > quote && (old - quote) * 100n < old * BigInt(LIQUIDITY_DROP_PCT)) peak = oldPeak;
    }
    // An unchanged pool keeps the previous snapshot's object: the state of thousands of tokens
    // changes at every push, and what is kept, not what is thrown away, is what the collector copies.
    const unchanged = prior !== undefined && prior.quoteReserves === quoteText && prior.peakQuoteReserves === peak;
    if (pools === null && !(unchanged && before[index] === prior)) pools = before.slice(0, index);
    if (pools !== null) pools.push(unchanged ? prior : { poolAddress: pool.poolAddress, quoteReserves: quoteText, peakQuoteReserves: peak });
    const poolPriceSol = poolPrice(token, pool, quote);
    if (poolPriceSol !== null && (quote ?? 0n) > deepest) {
      deepest = quote ?? 0n;
      price = poolPriceSol;
    }
  }
  return { pools: pools ?? (previous ? previous.pools : []), price };
}

/** The previous value when equal, so that the new copy is short-lived garbage rather than kept state. */
function kept<T extends string | null>(value: T, previous: T | undefined): T {
  return previous !== undefined && previous === value ? previous : value;
}

/** The previous prices still inside the window, then `price` at `now` (replacing a point of the same minute). */
export function nextPriceHistory(history: Array<[number, number]>, price: number | null, now: number): Array<[number, number]> {
  const since = now - PRICE_WINDOW_MS;
  // The usual push changes no price within the minute: the same list serves (lists are never changed in place).
  const first = history[0];
  const newest = history[history.length - 1];
  if (first && newest && first[0] >= since && newest[1] === price && now >= newest[0] && now - newest[0] < PRICE_SAMPLE_MS) return history;
  const kept: Array<[number, number]> = [];
  for (const point of history) if (point[0] >= since && point[0] <= now) kept.push(point);
  if (price === null) return kept;
  const last = kept[kept.length - 1];
  const beforeLast = kept[kept.length - 2];
  // The newest point moves forward within its minute; the first point of a minute stays, so the window keeps its start.
  if (last && beforeLast && now - beforeLast[0] < PRICE_SAMPLE_MS) kept[kept.length - 1] = [now, price];
  else kept.push([now, price]);
  return kept;
}

/**
 * The snapshot after `token` was read at `now`. `previous` (null on first sight) lends what the
 * Token does not carry: the price window, the whales and when holders were first seen, the pools'
 * peaks. `solUsd`, when known, gives the price in USD.
 */
export function snapshotOfToken(token: Token, previous: TokenSnapshot | null, now: number, solUsd: number | null = null): TokenSnapshot {
  const { pools, price } = readPools(token, previous);
  const analysis = token.riskAnalysis;
  const ownerBalance = analysis?.ownerBalance === null || analysis?.ownerBalance === undefined ? null : analysis.ownerBalance.toString();
  const totalSupply = token.totalSupply === null ? (previous?.totalSupply ?? null) : token.totalSupply.toString();
  return {
    address: kept(token.address, previous?.address),
    symbol: kept(token.symbol, previous?.symbol),
    name: kept(token.name, previous?.name),
    riskStatus: kept(token.riskStatus, previous?.riskStatus),
    mintAuthority: kept(analysis?.mintAuthority ?? null, previous?.mintAuthority),
    freezeAuthority: kept(analysis?.freezeAuthority ?? null, previous?.freezeAuthority),
    isMutable: analysis?.isMutable ?? null,
    ownerBalance: kept(ownerBalance, previous?.ownerBalance),
    pools,
    priceNative: price,
    priceUsd: price !== null && solUsd !== null ? price * solUsd : null,
    holdersCount: token.holdersCount,
    priceHistory: nextPriceHistory(previous?.priceHistory ?? [], price, now),
    whales: previous?.whales ?? {},
    seenAt: now,
    totalSupply: kept(totalSupply, previous?.totalSupply ?? undefined),
    holdersSeenAt: previous?.holdersSeenAt ?? null,
    decimals: token.decimals,
    syncedAt: syncedAtOf(token) ?? previous?.syncedAt ?? null,
  };
}

/** The token's `syncedAt` in epoch ms; null when absent or unreadable. */
export function syncedAtOf(token: Token): number | null {
  if (token.syncedAt === null) return null;
  const time = Date.parse(token.syncedAt);
  return Number.isFinite(time) ? time : null;
}

/**
 * Whether data of `synced` (a token's syncedAtOf, read once by the caller) is older than what
 * `last` was built from. An equal `syncedAt` is not older: it is applied, in the order it arrived.
 * The service stamps whole seconds, so two readings of one second may differ; applying the later
 * arrival keeps a real change made within that second, and the same state seen twice compares
 * equal and tells nothing (the watcher's one exception, a reconciliation's answer overtaken by a
 * frame, is its own: see compareToken). Data without a `syncedAt` is applied as it arrives.
 */
export function olderThanApplied(synced: number | null, last: TokenSnapshot): boolean {
  return synced !== null && last.syncedAt !== null && last.syncedAt !== undefined && synced < last.syncedAt;
}

/**
 * The whale share: a wallet holding at least 1% of the supply. On a launch token 1% is already a
 * holder who can move the price alone; it is also the line most holder screeners draw.
 */
export const WHALE_SHARE_PCT = 1;

/** Share of supply in percent, exact to 6 decimals; null when the supply is unknown. */
export function shareOfSupply(balance: bigint, totalSupply: string | null | undefined): number | null {
  if (totalSupply === null || totalSupply === undefined) return null;
  const supply = BigInt(totalSupply);
  if (supply <= 0n) return null;
  return Number((balance * 100_000_000n) / supply) / 1_000_000;
}

/**
 * The snapshot after a holder record was read: the whale list updated with this holder. When the
 * holders count as read (holdersSeenAt) is the watcher's to say: only once a first list is whole.
 */
export function snapshotWithHolder(previous: TokenSnapshot, holder: Pick<Holder, 'address' | 'currentlyHoldingAmount'>, now: number): TokenSnapshot {
  const share = shareOfSupply(holder.currentlyHoldingAmount, previous.totalSupply);
  const whales = { ...previous.whales };
  if (share !== null && share >= WHALE_SHARE_PCT) whales[holder.address] = holder.currentlyHoldingAmount.toString();
  else delete whales[holder.address];
  return { ...previous, whales, seenAt: now };
}

/** The wallet snapshot after `trades` (any order) were seen at `now`; the newest trade moves forward only. */
export function snapshotOfWallet(address: string, previous: WalletSnapshot | null, trades: readonly Trade[], now: number): WalletSnapshot {
  let newestTrade = previous?.newestTrade ?? null;
  let newestTimestamp = previous?.newestTimestamp ?? null;
  let ids = new Set(previous?.newestIds ?? (newestTrade === null ? [] : [newestTrade]));
  for (const trade of trades) {
    if (newestTimestamp === null || trade.timestamp > newestTimestamp) {
      newestTimestamp = trade.timestamp;
      newestTrade = tradeId(trade);
      ids = new Set([newestTrade]);
    } else if (trade.timestamp === newestTimestamp) ids.add(tradeId(trade));
  }
  // A wallet trades a handful of times a second at most; the bound only guards the snapshot's size.
  return { address, newestTrade, newestTimestamp, seenAt: now, newestIds: [...ids].slice(-100) };
}
