/**
 * Which side of a pool is SOL and which is the token: the one reading of a pool that the token
 * card, the alerts and the detectors share, so that they never disagree on a pool's SOL.
 *
 * A pool lists its two mints by position (token0, token1) and its reserves and prices by role
 * (suspected base, suspected quote). The two do not line up: the live service names the token the
 * suspected base whichever position it holds (its Raydium pools put SOL as token0 and the token as
 * token1), and says so in `suspectedBaseToken` and `suspectedQuoteToken`. So:
 *
 * - the positions say whether the pool is against SOL at all (one of token0, token1 is wrapped SOL);
 * - the names, when the pool gives them, say whose reserves and price are whose;
 * - without names the suspected base is the token and the quote SOL, in either position: SOL is
 *   the quote of every Solana pair the service reports, which is what "suspected base" guesses.
 */
import { WSOL_ADDRESS } from './address';
import type { LiquidityPool, Token } from './schemas';

/** Wrapped SOL has nine decimals, whatever a pool claims: its mint says so, and a pool's word is hostile data. */
export const SOL_DECIMALS = 9;

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

/** The pool read from the token's side; null when it is not a pool of the token against SOL. */
export function poolSides(token: Pick<Token, 'address' | 'decimals'>, pool: LiquidityPool): PoolSides | null {
  const solIs0 = pool.token0Address === WSOL_ADDRESS && pool.token1Address !== WSOL_ADDRESS;
  const solIs1 = pool.token1Address === WSOL_ADDRESS && pool.token0Address !== WSOL_ADDRESS;
  if (!solIs0 && !solIs1) return null;
  const otherSide = solIs0 ? pool.token1Address : pool.token0Address;
  // A pool of two other tokens listed under this one tells nothing about this token's SOL.
  if (otherSide !== token.address) return null;
  const tokenDecimals = (solIs0 ? pool.token1Decimals : pool.token0Decimals) ?? token.decimals;

  const baseName = pool.suspectedBaseToken;
  const quoteName = pool.suspectedQuoteToken;
  let solIsBase: boolean;
  if (baseName === WSOL_ADDRESS && quoteName !== WSOL_ADDRESS) solIsBase = true;
  else if (baseName === null || baseName === token.address) solIsBase = false;
  // Names that call neither side the token: not a reading to trust.
  else return null;
  if (!solIsBase && quoteName !== null && quoteName !== WSOL_ADDRESS) return null;

  const solReserves = solIsBase ? pool.suspectedBaseTokenReserves : pool.suspectedQuoteTokenReserves;
  const tokenReserves = solIsBase ? pool.suspectedQuoteTokenReserves : pool.suspectedBaseTokenReserves;
  // Each price is of its side in the other's units: the token's is SOL per token.
  let priceSol = positive(solIsBase ? pool.suspectedQuoteTokenPrice : pool.suspectedBaseTokenPrice);
  if (priceSol === null && solReserves !== null && tokenReserves !== null && tokenReserves > 0n && tokenDecimals !== null) {
    priceSol = positive(Number(solReserves) / 10 ** SOL_DECIMALS / (Number(tokenReserves) / 10 ** tokenDecimals));
  }
  return { solReserves, tokenReserves, tokenDecimals, priceSol };
}
