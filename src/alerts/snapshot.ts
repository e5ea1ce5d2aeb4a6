/**
 * The last-seen state of a followed token or wallet: what the detectors compare new data with, and
 * what the store keeps so that a restart neither repeats old alerts nor misses new ones. Plain
 * JSON-safe data (amounts as decimal strings), so any store can keep it as it is.
 *
 * Also the builders: `snapshotOfToken` reads the client's Token (from a stream or from a
 * reconciliation's token-data answer) into the next snapshot, carrying over what a Token does not
 * say (the price history of the move window, the whales seen on holders-live, the pools' peaks).
 */
import { isPoolAccount } from '../market/poolAccounts';
import { poolSides } from '../market/poolSides';
import type { LiquidityPool, Token, Trade } from '../market/schemas';
import type { PoolSnapshot, TokenSnapshot, WalletSnapshot } from '../model/snapshot';
import { developerSoldLine } from './developerSold';
import type { HolderRecord } from './holderRecord';
import { insidersAfter } from './insiders';

/** A pool's quote reserves down this many percent from their peak is liquidity pulled (kinds/liquidity.ts). */
export const LIQUIDITY_DROP_PCT = 30;

/** Wrapped SOL: the quote side of every Solana pool the service reports. */
export const WSOL = 'So11111111111111111111111111111111111111112';

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
 * Where a token came from. A stream frame may leave pools out (the live service's token-feed frames
 * carry `liquidityPools: {}` while the pools keep trading: it sends them by REST and on another
 * channel), so a pool missing from a frame is "not shown", never pulled. A reconciliation's
 * token-data answer lists every pool the token has: a pool missing there is gone.
 */
export type TokenSource = 'stream' | 'reconcile';

interface ReadPools {
  pools: PoolSnapshot[];
  price: number | null;
  /** Whether this data showed pools at all: false for a frame that left every known pool out. */
  shown: boolean;
}

/** `next`, or `before` itself when it holds the very same pools in the same order (the usual push allocates nothing kept). */
function sameOrNew(next: PoolSnapshot[], before: PoolSnapshot[]): PoolSnapshot[] {
  if (next.length !== before.length) return next;
  for (let index = 0; index < next.length; index++) if (next[index] !== before[index]) return next;
  return before;
}

/**
 * The pools of the next snapshot, with the price in SOL as the cards show it (src/cards/tokenFacts.ts
 * priceSol): that of the deepest SOL pool that gives one; which side of a pool is SOL is
 * src/market/poolSides.ts's to say. Pools a stream frame leaves out keep their last known state,
 * and so does the price when the frame shows no pool at all.
 */
function readPools(token: Token, previous: TokenSnapshot | null, from: TokenSource): ReadPools {
  const before = previous?.pools ?? [];
  const listed = token.liquidityPools;
  if (from === 'stream' && listed.length === 0 && before.length > 0 && previous !== null) {
    return { pools: before, price: previous.priceNative, shown: false };
  }
  // Made only once a pool differs from the previous snapshot's at its place: the usual push
  // changes no pool, and then the previous list serves again with nothing allocated for it.
  let pools: PoolSnapshot[] | null = before.length === listed.length ? null : [];
  let price: number | null = null;
  let deepest = -1n;
  for (let index = 0; index < listed.length; index++) {
    const pool = listed[index] as LiquidityPool;
    const sides = poolSides(token, pool);
    const quote = sides === null ? null : sides.solReserves;
    const quoteText = quote === null ? null : quote.toString();
    // Nearly always the pools come in the same order; a search only when they do not.
    const prior =
      before[index]?.poolAddress === pool.poolAddress ? before[index] : before.find((known) => known.poolAddress === pool.poolAddress);
    const oldPeak = prior === undefined ? undefined : (prior.peakQuoteReserves ?? prior.quoteReserves);
    let peak = quoteText;
    if (oldPeak !== undefined && oldPeak !== null && quote !== null && oldPeak !== quoteText) {
      const old = BigInt(oldPeak);
      // Above the current reserves the peak stays, unless they fell past the alert line: the alert resets it.
      if (old > quote && (old - quote) * 100n < old * BigInt(LIQUIDITY_DROP_PCT)) peak = oldPeak;
    }
    // An unchanged pool keeps the previous snapshot's object: the state of thousands of tokens
    // changes at every push, and what is kept, not what is thrown away, is what the collector copies.
    // An empty protocol is not shown; a pool keeps the one it was last shown with.
    const protocol = pool.protocol === '' ? (prior?.protocol ?? null) : pool.protocol;
    const unchanged =
      prior !== undefined && prior.quoteReserves === quoteText && prior.peakQuoteReserves === peak && (prior.protocol ?? null) === protocol;
    if (pools === null && !(unchanged && before[index] === prior)) pools = before.slice(0, index);
    if (pools !== null)
      pools.push(unchanged ? prior : { poolAddress: pool.poolAddress, quoteReserves: quoteText, peakQuoteReserves: peak, protocol });
    const poolPriceSol = sides === null ? null : sides.priceSol;
    if (poolPriceSol !== null && (quote ?? 0n) > deepest) {
      deepest = quote ?? 0n;
      price = poolPriceSol;
    }
  }
  const read = pools ?? (previous ? previous.pools : []);
  // No list made: every known pool was listed at its place, and nothing is left out.
  if (from === 'reconcile' || pools === null) return { pools: read, price, shown: true };
  // A frame that shows some pools and leaves others out: those keep their last known state.
  const listedAddresses = new Set(listed.map((pool) => pool.poolAddress));
  const carried = before.filter((known) => !listedAddresses.has(known.poolAddress));
  if (carried.length === 0) return { pools: read, price, shown: true };
  return { pools: sameOrNew([...read, ...carried], before), price: price ?? previous?.priceNative ?? null, shown: true };
}

/** The previous value when equal, so that the new copy is short-lived garbage rather than kept state. */
function kept<T extends string | null>(value: T, previous: T | undefined): T {
  return previous !== undefined && previous === value ? previous : value;
}

/** The prices still inside the window, with no new one: the list itself while its oldest is inside. */
function priceWindowOnly(history: Array<[number, number]>, now: number): Array<[number, number]> {
  const first = history[0];
  if (first === undefined || first[0] >= now - PRICE_WINDOW_MS) return history;
  return nextPriceHistory(history, null, now);
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
 * peaks, and the pools and price a stream frame left out. `solUsd`, when known, gives the price in
 * USD. `from`: a stream frame or a reconciliation's answer (see TokenSource).
 */
export function snapshotOfToken(
  token: Token,
  previous: TokenSnapshot | null,
  now: number,
  solUsd: number | null = null,
  from: TokenSource = 'reconcile',
): TokenSnapshot {
  const { pools, price, shown } = readPools(token, previous, from);
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
    // A price the data did not show is not a new point of the window: it would make a move look flat.
    priceHistory: shown ? nextPriceHistory(previous?.priceHistory ?? [], price, now) : priceWindowOnly(previous?.priceHistory ?? [], now),
    whales: previous?.whales ?? {},
    seenAt: now,
    totalSupply: kept(totalSupply, previous?.totalSupply ?? undefined),
    holdersSeenAt: previous?.holdersSeenAt ?? null,
    decimals: token.decimals,
    syncedAt: syncedAtOf(token) ?? previous?.syncedAt ?? null,
    poolsShownAt: shown ? now : (previous?.poolsShownAt ?? previous?.seenAt ?? null),
    ...(shown ? {} : { poolsLeftOut: true }),
    deployer: kept(token.deployerAddress ?? previous?.deployer ?? null, previous?.deployer ?? undefined),
    createdAt: token.creationBlockTimestamp ?? previous?.createdAt ?? null,
    ...(previous?.devSoldLine === undefined ? {} : { devSoldLine: previous.devSoldLine }),
    ...(previous?.insiders === undefined ? {} : { insiders: previous.insiders }),
  };
}

/**
 * `last` with a price seen on a stream that carries no whole token (the vendor's trades and
 * candles, made SOL by src/watch/priceInput.ts): the price and its window move, nothing else.
 */
export function snapshotWithPrice(last: TokenSnapshot, priceSol: number, usdPerSol: number | null, now: number): TokenSnapshot {
  return {
    ...last,
    priceNative: priceSol,
    priceUsd: usdPerSol === null ? null : priceSol * usdPerSol,
    priceHistory: nextPriceHistory(last.priceHistory, priceSol, now),
    seenAt: now,
  };
}

/**
 * `last` with the pools, and the price read from them, of `read` (a reconciliation's answer read
 * into a snapshot): what such an answer still tells when a frame of the same second overtook it
 * but left the pools out. Everything else stays the frame's.
 */
export function withPoolsOf(last: TokenSnapshot, read: TokenSnapshot): TokenSnapshot {
  const { poolsLeftOut: _leftOut, ...rest } = last;
  return {
    ...rest,
    pools: read.pools,
    priceNative: read.priceNative,
    priceUsd: read.priceUsd,
    priceHistory: read.priceHistory,
    poolsShownAt: read.poolsShownAt ?? read.seenAt,
    seenAt: read.seenAt,
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
export function snapshotWithHolder(previous: TokenSnapshot, holder: HolderRecord, now: number): TokenSnapshot {
  const share = shareOfSupply(holder.currentlyHoldingAmount, previous.totalSupply);
  const whales = { ...previous.whales };
  // A pool's account holds for the pool, not for a person: never a whale (src/market/poolAccounts.ts).
  if (share !== null && share >= WHALE_SHARE_PCT && !isPoolAccount(holder.address, previous.pools))
    whales[holder.address] = holder.currentlyHoldingAmount.toString();
  else delete whales[holder.address];
  const next: TokenSnapshot = { ...previous, whales, seenAt: now };
  const line = developerSoldLine(previous, holder);
  // The deployer's first record sets the line reached (0 included): the baseline later sales are compared with.
  if (line !== null && (previous.devSoldLine === undefined || line > previous.devSoldLine)) next.devSoldLine = line;
  const insiders = insidersAfter(previous, holder, now);
  if (insiders !== null) next.insiders = insiders.state;
  return next;
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
