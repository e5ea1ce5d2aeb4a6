/**
 * What the cards say about a token, derived from its data in one place so that every card (and
 * later every alert) agrees: price and liquidity from the pools, market cap, shares of supply, risk
 * flags in words, and the token's own texts made safe to show.
 *
 * Units: prices are SOL per whole token; liquidity is the SOL side of the pools, summed (the same
 * figure the service reports as tokenStats.liquidityNative, so /token and /technicals agree;
 * screeners that add the token side show about twice this); USD values are SOL values times a
 * SOL→USD rate given by the caller, or null when no rate is known.
 *
 * Pools quoted in a dollar stablecoin (USDC, USDT; src/market/poolSides.ts) are valued in USD,
 * their stablecoin side counted at a dollar: never as SOL. They have no SOL figures of their own
 * (liquiditySol and priceSol stay SOL's alone, which the alerts and targets read); the card adds
 * them to its totals in USD, and in SOL at the rate when one is known (tokenPrice, poolsValue).
 */
import { type QuoteCurrency, poolQuoteSides } from '../market/poolSides';
import type { LiquidityPool, Token } from '../market/schemas';
import { type CardColor, riskColor } from './card';
import { fromSmallestUnit, percent } from '../text/format';
import { untrusted } from '../text/sanitize';

export const NAME_MAX = 64;
export const SYMBOL_MAX = 16;
export const LABEL_MAX = 32;
export const UNNAMED_TOKEN = 'Unnamed token';

/** Shown wherever a value is unknown, on every card. */
export const UNKNOWN = '—';

export function tokenName(token: Pick<Token, 'name'>): string {
  return untrusted(token.name, NAME_MAX, UNNAMED_TOKEN);
}

/** The symbol, or '' when the token has none worth showing. */
export function tokenSymbol(token: Pick<Token, 'symbol'>): string {
  return untrusted(token.symbol, SYMBOL_MAX);
}

/** "Name (SYMBOL)", or just the name when there is no symbol. */
export function tokenTitle(token: Pick<Token, 'name' | 'symbol'>): string {
  const symbol = tokenSymbol(token);
  return symbol === '' ? tokenName(token) : `${tokenName(token)} (${symbol})`;
}

/** The unit written after an amount of this token: its symbol, or "tokens". */
export function tokenUnit(token: Pick<Token, 'symbol'>): string {
  const symbol = tokenSymbol(token);
  return symbol === '' ? 'tokens' : symbol;
}

/** The risk status as shown, upper case; "—" when the token has none. */
export function riskStatusText(token: Pick<Token, 'riskStatus'>): string {
  return untrusted(token.riskStatus, LABEL_MAX, UNKNOWN).toUpperCase();
}

/** The card colour, from the status as shown, so the colour and the words never disagree. */
export function tokenColor(token: Pick<Token, 'riskStatus'>): CardColor {
  return riskColor(riskStatusText(token));
}

export interface PoolFacts {
  address: string;
  protocol: string;
  /** What the token is quoted in: SOL, USDC or USDT; null for a pair the bot does not value. */
  quote: QuoteCurrency['symbol'] | null;
  /** SOL in the pool, or null when its other side is not SOL or its reserves are unknown. */
  liquiditySol: number | null;
  /** SOL per whole token in this pool, or null when not priced in SOL. */
  priceSol: number | null;
  /** A stablecoin pool's stablecoin side in USD; null for other pools or unknown reserves. */
  liquidityUsd: number | null;
  /** USD per whole token in a stablecoin pool; null for other pools. */
  priceUsd: number | null;
}

function finite(n: number | null): number | null {
  return n !== null && Number.isFinite(n) ? n : null;
}

/**
 * One pool read from the token's side (src/market/poolSides.ts decides which side is the quote,
 * for the alerts too). A SOL pool has SOL figures, a stablecoin pool USD figures; a pool against
 * anything else has none: its reserves are in some other token's units.
 */
export function poolFacts(token: Pick<Token, 'address' | 'decimals'>, pool: LiquidityPool): PoolFacts {
  const protocol = untrusted(pool.protocol, LABEL_MAX, 'unknown');
  const facts: PoolFacts = {
    address: pool.poolAddress,
    protocol,
    quote: null,
    liquiditySol: null,
    priceSol: null,
    liquidityUsd: null,
    priceUsd: null,
  };
  const sides = poolQuoteSides(token, pool);
  if (sides === null) return facts;
  const liquidity = sides.quoteReserves === null ? null : finite(fromSmallestUnit(sides.quoteReserves, sides.quote.decimals));
  facts.quote = sides.quote.symbol;
  if (sides.quote.unit === 'SOL') {
    facts.liquiditySol = liquidity;
    facts.priceSol = sides.price;
  } else {
    facts.liquidityUsd = liquidity;
    facts.priceUsd = sides.price;
  }
  return facts;
}

function usableRate(solUsd: number | null | undefined): number | null {
  return typeof solUsd === 'number' && Number.isFinite(solUsd) && solUsd > 0 ? solUsd : null;
}

/** A pool's depth in SOL: its SOL, or its dollars at the rate; null when neither is known. */
function depthSol(pool: PoolFacts, solUsd: number | null): number | null {
  if (pool.liquiditySol !== null) return pool.liquiditySol;
  return pool.liquidityUsd !== null && solUsd !== null ? pool.liquidityUsd / solUsd : null;
}

/** Sorting rank: pools with a depth in SOL, then stablecoin pools (no rate to compare them), then the rest. */
function depthRank(pool: PoolFacts, solUsd: number | null): [number, number] {
  const depth = depthSol(pool, solUsd);
  if (depth !== null) return [0, depth];
  return pool.liquidityUsd !== null ? [1, pool.liquidityUsd] : [2, 0];
}

/**
 * Every pool of the token, deepest first: by SOL, a stablecoin pool by its dollars at `solUsd`;
 * without a rate, stablecoin pools come after the SOL pools (by their dollars), and pools without
 * a figure last.
 */
export function poolsByLiquidity(token: Pick<Token, 'address' | 'decimals' | 'liquidityPools'>, solUsd: number | null = null): PoolFacts[] {
  const rate = usableRate(solUsd);
  return token.liquidityPools
    .map((pool) => poolFacts(token, pool))
    .sort((a, b) => {
      const [groupA, depthA] = depthRank(a, rate);
      const [groupB, depthB] = depthRank(b, rate);
      return groupA !== groupB ? groupA - groupB : depthB - depthA;
    });
}

/** SOL summed over the token's SOL pools; null when no pool has a SOL figure. */
export function liquiditySol(pools: readonly PoolFacts[]): number | null {
  let total: number | null = null;
  for (const pool of pools) if (pool.liquiditySol !== null) total = (total ?? 0) + pool.liquiditySol;
  return total;
}

/** USD summed over the token's stablecoin pools (their stablecoin side); null when none has a figure. */
export function liquidityUsdPools(pools: readonly PoolFacts[]): number | null {
  let total: number | null = null;
  for (const pool of pools) if (pool.liquidityUsd !== null) total = (total ?? 0) + pool.liquidityUsd;
  return total;
}

/** The first pool of the greatest depth among `pools` (a pool without a depth counts as none). */
function deepest(pools: readonly PoolFacts[], depth: (pool: PoolFacts) => number | null): PoolFacts | null {
  let best: PoolFacts | null = null;
  for (const pool of pools) if (best === null || (depth(pool) ?? 0) > (depth(best) ?? 0)) best = pool;
  return best;
}

/**
 * The price in SOL: that of the deepest priced SOL pool, as a swap would mostly be routed there
 * (and as the service reports tokenStats.priceNative). Null when no SOL pool gives one.
 */
export function priceSol(pools: readonly PoolFacts[]): number | null {
  return (
    deepest(
      pools.filter((pool) => pool.priceSol !== null),
      (pool) => pool.liquiditySol,
    )?.priceSol ?? null
  );
}

/** A value known in SOL, in USD, or both; each null when unknown. */
export interface Valued {
  sol: number | null;
  usd: number | null;
}

/** The token's price in the unit of the pool that gives it: SOL per token, or USD per token. */
export interface TokenPrice {
  unit: 'SOL' | 'USD';
  price: number;
}

/**
 * The price of the deepest priced pool, SOL and stablecoin pools compared in SOL at `solUsd`.
 * Without a rate the two cannot be compared: the SOL pools' price (priceSol), else the deepest
 * stablecoin pool's. Null when no pool gives one.
 */
export function tokenPrice(pools: readonly PoolFacts[], solUsd: number | null): TokenPrice | null {
  const rate = usableRate(solUsd);
  let best: PoolFacts | null;
  if (rate === null) {
    const sol = priceSol(pools);
    if (sol !== null) return { unit: 'SOL', price: sol };
    best = deepest(
      pools.filter((pool) => pool.priceUsd !== null),
      (pool) => pool.liquidityUsd,
    );
  } else {
    best = deepest(
      pools.filter((pool) => pool.priceSol !== null || pool.priceUsd !== null),
      (pool) => depthSol(pool, rate),
    );
  }
  if (best === null) return null;
  if (best.priceSol !== null) return { unit: 'SOL', price: best.priceSol };
  return best.priceUsd === null ? null : { unit: 'USD', price: best.priceUsd };
}

/** An amount in `unit` in both SOL and USD, converted at the rate when one is known. */
export function inSolAndUsd(amount: number | null, unit: 'SOL' | 'USD', solUsd: number | null): Valued {
  if (amount === null) return { sol: null, usd: null };
  const rate = usableRate(solUsd);
  if (unit === 'SOL') return { sol: amount, usd: toUsd(amount, rate) };
  return { sol: rate === null ? null : amount / rate, usd: amount };
}

/** The pools' liquidity (poolsValue). */
export interface LiquidityValue extends Valued {
  /**
   * True when no rate joins the two: `sol` is then the SOL pools' and `usd` the stablecoin
   * pools', two parts to be added, not one value in two units.
   */
  apart: boolean;
}

/**
 * The pools' liquidity: the SOL pools' SOL and the stablecoin pools' dollars, added in both units
 * when a rate is known. Without one they cannot be added, and come apart.
 */
export function poolsValue(pools: readonly PoolFacts[], solUsd: number | null): LiquidityValue {
  const sol = liquiditySol(pools);
  const dollars = liquidityUsdPools(pools);
  const rate = usableRate(solUsd);
  if (dollars === null) return { sol, usd: toUsd(sol, rate), apart: false };
  if (rate === null) return { sol, usd: dollars, apart: sol !== null };
  return { sol: (sol ?? 0) + dollars / rate, usd: (sol === null ? 0 : sol * rate) + dollars, apart: false };
}

/** Whole tokens in the total supply, or null when unknown. */
export function supplyTokens(token: Pick<Token, 'totalSupply' | 'decimals'>): number | null {
  if (token.totalSupply === null) return null;
  const supply = fromSmallestUnit(token.totalSupply, token.decimals);
  return Number.isFinite(supply) ? supply : null;
}

/**
 * Market cap in SOL: price times the total supply. Solana launch tokens mint their whole supply
 * at creation, so this is also the fully diluted value; burnt tokens are not known to the service.
 */
export function marketCapSol(price: number | null, supply: number | null): number | null {
  return price === null || supply === null ? null : price * supply;
}

/** A SOL value in USD at the given rate; null when either is unknown. */
export function toUsd(solValue: number | null, solUsd: number | null): number | null {
  return solValue === null || solUsd === null ? null : solValue * solUsd;
}

/** `part` as a percentage of `whole`, computed on the integers (exact to 6 decimals); null when whole is not positive. */
export function sharePercent(part: bigint | null, whole: bigint | null): number | null {
  if (part === null || whole === null || whole <= 0n) return null;
  return Number((part * 100_000_000n) / whole) / 1_000_000;
}

/**
 * Slack on the least the ten largest holders can hold: of n holders they hold at least min(n, 10)/n
 * of what is held, and a hundredfold room covers supply held by no counted holder (burnt, or
 * counted at another time) while still telling a percentage from an amount by many orders.
 */
const TOP10_FLOOR_SLACK = 100n;

/**
 * Share of supply held by the ten largest holders. The service sends top10HoldersSupply as an
 * amount of the token's smallest units in text ("30017094994293"; the schema reads it as one), and
 * the share is that amount over the total supply, both in the same units. It is never shown as a
 * percentage as it came: a value that cannot be such an amount is left out (null) rather than
 * guessed at. Not an amount: less than nothing, more than the supply, or far less than ten holders of
 * `holdersCount` must hold (a percentage such as "45.2", read as 45 smallest units, is that).
 * Whether the service counts pool accounts in it is its own (see src/market/poolAccounts.ts).
 */
export function top10SharePercent(token: Pick<Token, 'top10HoldersSupply' | 'totalSupply' | 'holdersCount'>): number | null {
  const top10 = token.top10HoldersSupply;
  const supply = token.totalSupply;
  if (top10 === null || supply === null || top10 < 0n || top10 > supply) return null;
  const holders = token.holdersCount;
  if (holders !== null && holders > 0) {
    const count = BigInt(Math.trunc(holders));
    const least = count < 10n ? count : 10n;
    if (top10 * count * TOP10_FLOOR_SLACK < supply * least) return null;
  }
  return sharePercent(top10, supply);
}

/**
 * An owner holding this much of the supply can move the price alone; the same line the
 * simulator's WARNING status uses, and a common rule of thumb.
 */
export const OWNER_SHARE_WARNING_PERCENT = 5;

/** A risk flag as a trader reads it: what, its state in words, and whether that state is fine. */
export interface RiskFlag {
  label: string;
  state: string;
  /** true: fine; false: a risk; null: unknown. */
  ok: boolean | null;
}

export const OK_MARK = '✅';
export const RISK_MARK = '⚠️';

/** "Mint authority: renounced ✅", "Freeze authority: active ⚠️", "Metadata: —". */
export function riskFlagText(flag: RiskFlag): string {
  const mark = flag.ok === null ? '' : ` ${flag.ok ? OK_MARK : RISK_MARK}`;
  return `${flag.label}: ${flag.state}${mark}`;
}

/**
 * Every risk flag of the analysis. An authority that is null is renounced (nobody can mint or
 * freeze any more); any address there means the power is still held. A token without an analysis
 * shows every flag as unknown rather than guessing.
 */
export function riskFlags(token: Pick<Token, 'riskAnalysis' | 'totalSupply'>): RiskFlag[] {
  const analysis = token.riskAnalysis;

  let metadata: RiskFlag = { label: 'Metadata', state: UNKNOWN, ok: null };
  if (analysis !== null && analysis.isMutable !== null) {
    metadata = analysis.isMutable
      ? { label: 'Metadata', state: 'mutable', ok: false }
      : { label: 'Metadata', state: 'immutable', ok: true };
  }

  let owner: RiskFlag = { label: 'Owner balance', state: UNKNOWN, ok: null };
  const balance = analysis?.ownerBalance ?? null;
  if (balance !== null) {
    const share = sharePercent(balance, token.totalSupply);
    if (balance === 0n) owner = { label: 'Owner balance', state: 'none', ok: true };
    else if (share !== null) {
      owner = { label: 'Owner balance', state: `${percent(share)} of supply`, ok: share < OWNER_SHARE_WARNING_PERCENT };
    } else owner = { label: 'Owner balance', state: 'some (supply unknown)', ok: null };
  }

  return [
    authority('Mint authority', analysis !== null, analysis?.mintAuthority),
    authority('Freeze authority', analysis !== null, analysis?.freezeAuthority),
    metadata,
    owner,
  ];
}

/** An authority's flag: unknown without an analysis, renounced when nobody holds it, active otherwise. */
function authority(label: string, analysed: boolean, holder: string | null | undefined): RiskFlag {
  if (!analysed) return { label, state: UNKNOWN, ok: null };
  return holder === null || holder === undefined || holder.trim() === ''
    ? { label, state: 'renounced', ok: true }
    : { label, state: 'active', ok: false };
}
