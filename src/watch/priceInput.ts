/**
 * A price seen on the vendor's streams, made comparable with the token's last state before it may
 * move the price window (one window a token, in SOL per whole token: src/alerts/kinds/price.ts).
 *
 * Two rules keep a move real:
 *
 * - **One source.** The window's prices are the deepest SOL pool's (token-data's reading, see
 *   alerts/snapshot.ts readPools). A trade through another pool is priced by that pool, and a thin
 *   pool may stand far from the deep one: its price would read as a move, and the next poll as the
 *   move back. So a trade moves the window only when it went through the deepest pool (or when no
 *   SOL pool is known to tell).
 * - **One unit.** chart-live's page does not say its unit; its own example behaves as USD, while
 *   chart-history says SOL. A candle is read as SOL or as USD (by the service's own rate, from the
 *   token's latest trade, else the bot's SOL rate), whichever lies nearer the last price, and only
 *   when that one lies within a factor of three of it: a unit that cannot be told is not guessed
 *   (a ratio of 100 to 300, the SOL rate, would read as a +15,000% move).
 */
import type { Trade } from '../market/schemas';
import type { TokenSnapshot } from '../model/snapshot';

export interface PriceSeen {
  /** The price as the stream gave it, per whole token. */
  value: number;
  /** `sol`: SOL per token; `unstated`: SOL or USD, not said. */
  unit: 'sol' | 'unstated';
  /** USD per SOL as the same message implies it (a trade gives both prices), else null. */
  usdPerSol: number | null;
  /** The pool a trade went through; null for a candle. */
  pool: string | null;
  source: 'trade' | 'candle';
}

/** A price farther than this factor from the last one cannot be told SOL from USD. */
const UNIT_FACTOR = 3;

function positive(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/** A vendor trade's price: `price.sol` (read as suspectedBaseTokenPrice), with the rate its `price.usd` implies. */
export function priceOfTrade(trade: Trade): PriceSeen {
  const sol = trade.suspectedBaseTokenPrice;
  const usd = trade.suspectedBaseTokenPriceUSD;
  return {
    value: sol ?? Number.NaN,
    unit: 'sol',
    usdPerSol: positive(sol) && positive(usd) ? usd / sol : null,
    pool: trade.poolAddress,
    source: 'trade',
  };
}

/** The pool with the most SOL in the last state; null when no pool shows SOL reserves. */
export function deepestPool(last: TokenSnapshot): string | null {
  let deepest: string | null = null;
  let most = -1n;
  for (const pool of last.pools) {
    if (pool.quoteReserves === null) continue;
    const reserves = BigInt(pool.quoteReserves);
    if (reserves > most) {
      most = reserves;
      deepest = pool.poolAddress;
    }
  }
  return most > 0n ? deepest : null;
}

/**
 * The SOL price `seen` stands for against `last`, or null when it must not move the window:
 * another pool's trade, a price that is no positive number, or a unit that cannot be told.
 * `usdPerSol`: the rate to read a USD price with (the token's latest trade's, else the bot's).
 */
export function solPriceOf(seen: PriceSeen, last: TokenSnapshot, usdPerSol: number | null): number | null {
  if (!positive(seen.value)) return null;
  if (seen.source === 'trade' && seen.pool !== null) {
    const deepest = deepestPool(last);
    if (deepest !== null && deepest !== seen.pool) return null;
  }
  if (seen.unit === 'sol') return seen.value;
  const reference = last.priceNative;
  if (!positive(reference)) return null;
  const candidates = positive(usdPerSol) ? [seen.value, seen.value / usdPerSol] : [seen.value];
  let best: number | null = null;
  let bestDistance = Math.log(UNIT_FACTOR);
  for (const candidate of candidates) {
    const distance = Math.abs(Math.log(candidate / reference));
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  return best;
}
