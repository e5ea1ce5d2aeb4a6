/**
 * The SOL→USD rate, where the service lets it be derived. The service has no price endpoint for
 * SOL itself, but every trade carries its price twice, in SOL and in USD
 * (suspectedBaseTokenPrice and suspectedBaseTokenPriceUSD): their ratio is the dollar price of SOL
 * at that trade. The newest such trade among a token's top holders gives a current rate.
 *
 * SOL's price is the same whichever token it was read from, so one rate serves every card of a
 * client for a short while; a rate a little older is still used when no fresh one can be read, and
 * beyond that cards show SOL only. Nothing here throws: without a rate a card is still a card.
 */
import { isAddress } from '../market/address';
import type { MarketClient } from '../market/client';
import type { Trade } from '../market/schemas';
import { WSOL_ADDRESS } from '../market/address';

/** A rate younger than this is used without asking again. */
export const RATE_FRESH_MS = 60_000;
/** A rate younger than this is still used when no newer one can be derived. */
export const RATE_STALE_MS = 15 * 60_000;
/** Wallets whose trades are read: the largest holders trade often enough to give a recent price. */
export const RATE_WALLETS = 10;

interface KnownRate {
  solUsd: number;
  /** performance.now() when it was derived. */
  at: number;
}

const known = new WeakMap<MarketClient, KnownRate>();

/**
 * USD per SOL from the newest trade that was made against SOL and carries both prices; null when
 * none does. Trades against another quote token are skipped: their ratio is that token's price.
 */
export function rateFromTrades(trades: readonly Trade[]): number | null {
  const newestFirst = [...trades].sort((a, b) => b.timestamp - a.timestamp);
  for (const trade of newestFirst) {
    if (trade.tokenIn !== WSOL_ADDRESS && trade.tokenOut !== WSOL_ADDRESS) continue;
    const inSol = trade.suspectedBaseTokenPrice;
    const inUsd = trade.suspectedBaseTokenPriceUSD;
    if (inSol === null || inUsd === null || !(inSol > 0) || !(inUsd > 0)) continue;
    const rate = inUsd / inSol;
    if (Number.isFinite(rate) && rate > 0) return rate;
  }
  return null;
}

async function derive(client: MarketClient, tokenAddress: string, wallets: readonly string[] | undefined): Promise<number | null> {
  const candidates = wallets ?? (await client.holders(tokenAddress)).map((holder) => holder.address);
  const asked = [...new Set(candidates.filter(isAddress))].slice(0, RATE_WALLETS);
  if (asked.length === 0) return null;
  const history = await client.trades(tokenAddress, asked);
  return rateFromTrades(history.tradeHistory);
}

export interface UsdRateOptions {
  /** Wallets already at hand (holders the caller fetched), to save a holders request. */
  wallets?: readonly string[];
}

/** The rate known for this client while it is fresh, at once; null when there is none that fresh. */
export function freshSolUsdRate(client: MarketClient): number | null {
  const cached = known.get(client);
  return cached !== undefined && performance.now() - cached.at < RATE_FRESH_MS ? cached.solUsd : null;
}

/**
 * The rate known for this client while it is usable (RATE_STALE_MS), at once, asking nothing: what
 * the watcher prices its snapshots in USD with. Null when none is.
 */
export function knownSolUsdRate(client: MarketClient): number | null {
  const cached = known.get(client);
  return cached !== undefined && performance.now() - cached.at < RATE_STALE_MS ? cached.solUsd : null;
}

/** USD per SOL, or null when it cannot be derived now. */
export async function solUsdRate(client: MarketClient, tokenAddress: string, options: UsdRateOptions = {}): Promise<number | null> {
  const fresh = freshSolUsdRate(client);
  if (fresh !== null) return fresh;
  const cached = known.get(client);
  const age = cached === undefined ? Infinity : performance.now() - cached.at;
  let derived: number | null = null;
  try {
    derived = await derive(client, tokenAddress, options.wallets);
  } catch {
    // Unknown token, a busy service: the card goes on in SOL; its own look-up reports real failures.
    derived = null;
  }
  if (derived !== null) {
    known.set(client, { solUsd: derived, at: performance.now() });
    return derived;
  }
  return cached !== undefined && age < RATE_STALE_MS ? cached.solUsd : null;
}

/** Forgets the rate known for this client (for tests and for a client whose service changed). */
export function forgetUsdRate(client: MarketClient): void {
  known.delete(client);
}
