/**
 * Which side of a pool is the token and which its quote (SOL, or a USD stablecoin): the one
 * reading of a pool that the token card, the alerts and the detectors share, so that they never
 * disagree on a pool's SOL, and never read a USDC pool's dollars as SOL.
 *
 * A pool lists its two mints by position (token0, token1). Its price and reserves come in one of
 * two ways:
 *
 * - by role, in the spec's four `suspected*` fields (suspected base, suspected quote). The live
 *   service names the token the suspected base whichever position it holds (its Raydium pools put
 *   SOL as token0 and the token as token1), and says so in `suspectedBaseToken` and
 *   `suspectedQuoteToken`; without names the suspected base is the token and the quote its pair,
 *   in either position, which is what "suspected base" guesses;
 * - by position, in `protocolData` (`price0` = token1 per whole token0, `price1` its reciprocal,
 *   `reserve0`/`reserve1` by position), where the pool leaves the four out, as every recorded
 *   pool does. The positions then say whose figures are whose; `suspectedBaseToken` must call the
 *   token or the quote the base, or the pool is not trusted. `pairId` (the two mints sorted)
 *   never decides a side.
 *
 * Whichever way, the positions say what the pool is quoted in: one of them is the token, the
 * other one of QUOTE_CURRENCIES. A pool against anything else has no value the cards can count.
 */
import { WSOL_ADDRESS } from './address';
import type { LiquidityPool, Token } from './schemas';

/** Wrapped SOL has nine decimals, whatever a pool claims: its mint says so, and a pool's word is hostile data. */
export const SOL_DECIMALS = 9;
/** USD Coin's mint (six decimals). */
export const USDC_ADDRESS = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
/** Tether USD's mint (six decimals). */
export const USDT_ADDRESS = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';

/** A currency the token may be quoted in that has a value the cards can show. */
export interface QuoteCurrency {
  symbol: 'SOL' | 'USDC' | 'USDT';
  mint: string;
  /** Fixed by the mint, not taken from the pool. */
  decimals: number;
  /** What one whole unit counts as: SOL itself, or one US dollar for a dollar stablecoin. */
  unit: 'SOL' | 'USD';
}

/**
 * The quotes the bot values. A stablecoin is counted at one dollar: its peg is what a trader
 * reads a USDC pool by, and no rate for it is fetched.
 */
export const QUOTE_CURRENCIES: readonly QuoteCurrency[] = [
  { symbol: 'SOL', mint: WSOL_ADDRESS, decimals: SOL_DECIMALS, unit: 'SOL' },
  { symbol: 'USDC', mint: USDC_ADDRESS, decimals: 6, unit: 'USD' },
  { symbol: 'USDT', mint: USDT_ADDRESS, decimals: 6, unit: 'USD' },
];

/** A pool read from the token's side, in its quote's units. */
export interface QuoteSides {
  quote: QuoteCurrency;
  /** The quote in the pool, in its smallest unit; null when the service sent no figure. */
  quoteReserves: bigint | null;
  /** The token in the pool, in its smallest unit; null when the service sent no figure. */
  tokenReserves: bigint | null;
  /** The token's decimals as the pool gives them, else the token's own. */
  tokenDecimals: number | null;
  /** Quote per whole token: the service's own price, else the ratio of the reserves; null when neither gives one. */
  price: number | null;
}

export interface PoolSides {
  /** SOL in the pool, in lamports; null when the service sent no figure. */
  solReserves: bigint | null;
  /** The token in the pool, in its smallest unit; null when the service sent no figure. */
  tokenReserves: bigint | null;
  /** The token's decimals as the pool gives them, else the token's own. */
  tokenDecimals: number | null;
  /** SOL per whole token: the service's own price, else the ratio of the reserves; null when neither gives one. */
  priceSol: number | null;
}

function positive(n: number | null | undefined): number | null {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : null;
}

/** A reserve that can be one: a negative amount is no figure. */
function reserve(amount: bigint | null): bigint | null {
  return amount !== null && amount >= 0n ? amount : null;
}

/** Quote per whole token from the reserves; null when either is missing or the token side is empty. */
function priceOfReserves(
  quoteReserves: bigint | null,
  tokenReserves: bigint | null,
  quote: QuoteCurrency,
  tokenDecimals: number | null,
): number | null {
  if (quoteReserves === null || tokenReserves === null || tokenReserves <= 0n || tokenDecimals === null) return null;
  return positive(Number(quoteReserves) / 10 ** quote.decimals / (Number(tokenReserves) / 10 ** tokenDecimals));
}

/** Figures read from a pool: reserves by side and the price, before the fallback to the reserves. */
interface Figures {
  quoteReserves: bigint | null;
  tokenReserves: bigint | null;
  price: number | null;
}

/** The spec's reading, by role: null when the names call neither side the token. */
function bySuspectedNames(token: Pick<Token, 'address'>, pool: LiquidityPool, quote: QuoteCurrency): Figures | null {
  const baseName = pool.suspectedBaseToken;
  const quoteName = pool.suspectedQuoteToken;
  let quoteIsBase: boolean;
  if (baseName === quote.mint && quoteName !== quote.mint) quoteIsBase = true;
  else if (baseName === null || baseName === token.address) quoteIsBase = false;
  // Names that call neither side the token: not a reading to trust.
  else return null;
  if (!quoteIsBase && quoteName !== null && quoteName !== quote.mint) return null;
  return {
    quoteReserves: reserve(quoteIsBase ? pool.suspectedBaseTokenReserves : pool.suspectedQuoteTokenReserves),
    tokenReserves: reserve(quoteIsBase ? pool.suspectedQuoteTokenReserves : pool.suspectedBaseTokenReserves),
    // Each price is of its side in the other's units: the token's is quote per token.
    price: positive(quoteIsBase ? pool.suspectedQuoteTokenPrice : pool.suspectedBaseTokenPrice),
  };
}

/**
 * protocolData's reading, by position. Both reserves zero: with no price the service has not read
 * the pool (a pump.fun curve is recorded so), so nothing is known; with a price the pool is empty,
 * and an empty pool's price is stale (no swap can be made at it), so it has none.
 */
function byPositions(token: Pick<Token, 'address'>, pool: LiquidityPool, quote: QuoteCurrency, tokenIs0: boolean): Figures | null {
  const base = pool.suspectedBaseToken;
  if (base !== null && base !== token.address && base !== quote.mint) return null;
  const unknown: Figures = { quoteReserves: null, tokenReserves: null, price: null };
  const data = pool.protocolData;
  if (data === null) return unknown;
  // protocolData naming other positions than the pool's own: whose figures are whose is not known.
  if (
    (data.token0Address !== null && data.token0Address !== pool.token0Address) ||
    (data.token1Address !== null && data.token1Address !== pool.token1Address)
  ) {
    return unknown;
  }
  const tokenReserves = reserve(tokenIs0 ? data.reserve0 : data.reserve1);
  const quoteReserves = reserve(tokenIs0 ? data.reserve1 : data.reserve0);
  // price0 is token1 per token0: the token's own price when it is token0, the reciprocal of it when not.
  const own = positive(tokenIs0 ? data.price0 : data.price1);
  const other = positive(tokenIs0 ? data.price1 : data.price0);
  const price = own ?? (other === null ? null : positive(1 / other));
  if (quoteReserves === 0n && tokenReserves === 0n) return price === null ? unknown : { quoteReserves: 0n, tokenReserves: 0n, price: null };
  return { quoteReserves, tokenReserves, price };
}

/** The pool read from the token's side; null when it is not a pool of the token against a known quote. */
export function poolQuoteSides(token: Pick<Token, 'address' | 'decimals'>, pool: LiquidityPool): QuoteSides | null {
  const tokenIs0 = pool.token0Address === token.address;
  const tokenIs1 = pool.token1Address === token.address;
  // A pool of two other tokens listed under this one tells nothing about this token's value.
  if (tokenIs0 === tokenIs1) return null;
  const otherSide = tokenIs0 ? pool.token1Address : pool.token0Address;
  const quote = QUOTE_CURRENCIES.find((currency) => currency.mint === otherSide);
  if (quote === undefined) return null;
  const tokenDecimals = (tokenIs0 ? pool.token0Decimals : pool.token1Decimals) ?? token.decimals;

  const suspected =
    pool.suspectedBaseTokenPrice !== null ||
    pool.suspectedQuoteTokenPrice !== null ||
    pool.suspectedBaseTokenReserves !== null ||
    pool.suspectedQuoteTokenReserves !== null;
  const figures = suspected ? bySuspectedNames(token, pool, quote) : byPositions(token, pool, quote, tokenIs0);
  if (figures === null) return null;
  const { quoteReserves, tokenReserves } = figures;
  const price = figures.price ?? priceOfReserves(quoteReserves, tokenReserves, quote, tokenDecimals);
  return { quote, quoteReserves, tokenReserves, tokenDecimals, price };
}

/** The pool read from the token's side in SOL; null when it is not a pool of the token against SOL. */
export function poolSides(token: Pick<Token, 'address' | 'decimals'>, pool: LiquidityPool): PoolSides | null {
  const sides = poolQuoteSides(token, pool);
  if (sides === null || sides.quote.unit !== 'SOL') return null;
  return {
    solReserves: sides.quoteReserves,
    tokenReserves: sides.tokenReserves,
    tokenDecimals: sides.tokenDecimals,
    priceSol: sides.price,
  };
}
