/**
 * What the cards say about a token, derived from its data in one place so that every card (and
 * later every alert) agrees: price and liquidity from the pools, market cap, shares of supply, risk
 * flags in words, and the token's own texts made safe to show.
 *
 * Units: prices are SOL per whole token; liquidity is the SOL side of the pools, summed (the same
 * figure the service reports as tokenStats.liquidityNative, so /token and /technicals agree;
 * screeners that add the token side show about twice this); USD values are SOL values times a
 * SOL→USD rate given by the caller, or null when no rate is known.
 */
import { SOL_DECIMALS, poolSides } from '../market/poolSides';
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
  /** SOL in the pool, or null when its other side is not SOL or its reserves are unknown. */
  liquiditySol: number | null;
  /** SOL per whole token in this pool, or null when not priced in SOL. */
  priceSol: number | null;
}

/**
 * One pool read from the token's side (src/market/poolSides.ts decides which side is SOL, for the
 * alerts too). A pool whose other side is not wrapped SOL has no SOL figures: its reserves are in
 * some other token's units.
 */
export function poolFacts(token: Pick<Token, 'address' | 'decimals'>, pool: LiquidityPool): PoolFacts {
  const protocol = untrusted(pool.protocol, LABEL_MAX, 'unknown');
  const sides = poolSides(token, pool);
  if (sides === null) return { address: pool.poolAddress, protocol, liquiditySol: null, priceSol: null };
  const liquidity = sides.solReserves === null ? null : fromSmallestUnit(sides.solReserves, SOL_DECIMALS);
  return {
    address: pool.poolAddress,
    protocol,
    liquiditySol: liquidity !== null && Number.isFinite(liquidity) ? liquidity : null,
    priceSol: sides.priceSol,
  };
}

/** Every pool of the token, deepest (most SOL) first; pools without a SOL figure last. */
export function poolsByLiquidity(token: Pick<Token, 'address' | 'decimals' | 'liquidityPools'>): PoolFacts[] {
  return token.liquidityPools.map((pool) => poolFacts(token, pool)).sort((a, b) => (b.liquiditySol ?? -1) - (a.liquiditySol ?? -1));
}

/** SOL summed over the token's SOL pools; null when no pool has a SOL figure. */
export function liquiditySol(pools: readonly PoolFacts[]): number | null {
  let total: number | null = null;
  for (const pool of pools) if (pool.liquiditySol !== null) total = (total ?? 0) + pool.liquiditySol;
  return total;
}

/**
 * The price in SOL: that of the deepest priced pool, as a swap would mostly be routed there (and
 * as the service reports tokenStats.priceNative). Null when no pool gives one.
 */
export function priceSol(pools: readonly PoolFacts[]): number | null {
  let best: PoolFacts | null = null;
  for (const pool of pools) {
    if (pool.priceSol === null) continue;
    if (best === null || (pool.liquiditySol ?? 0) > (best.liquiditySol ?? 0)) best = pool;
  }
  return best?.priceSol ?? null;
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

/** Share of supply held by the ten largest holders (top10HoldersSupply is an amount in smallest units). */
export function top10SharePercent(token: Pick<Token, 'top10HoldersSupply' | 'totalSupply'>): number | null {
  return sharePercent(token.top10HoldersSupply, token.totalSupply);
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
