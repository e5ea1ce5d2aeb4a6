/**
 * What makes a token worth watching, done to the market now and then by the driver (driver.ts):
 * the price jumps, a whale buys in or sells out, liquidity is pulled or added, the risk status or
 * a flag changes. Each is what a tracked token's alert reports, so the built-in market gives a
 * person who tracks a token an alert without anyone forcing one. Choices come from the caller's
 * seeded generator, and each token remembers where it started, so a market left running for hours
 * swings around that start rather than drifting to nothing or to infinity.
 */
import { MarketMutationError, type Market } from './market';
import type { Prng } from './random';
import { POOL_FEE } from './ledger';
import { LAMPORTS_PER_SOL } from './units';
import type { RiskStatus, WireLiquidityPool, WireToken } from './wireTypes';

export type SurpriseKind = 'jump' | 'whale' | 'liquidity' | 'risk';

/** How often each kind is drawn: price jumps and whales are everyday; liquidity and risk changes rarer. */
const WEIGHTS: ReadonlyArray<[SurpriseKind, number]> = [
  ['jump', 0.35],
  ['whale', 0.3],
  ['liquidity', 0.15],
  ['risk', 0.2],
];

/** A jump moves the price by 12–30%: past the 10% a /track follow alerts on by default, and still believable for a small token. */
const JUMP_PCT: [number, number] = [12, 30];
/** A whale holds at least 1% of the supply (the alert's whale line); one that buys in takes 1.2–2%, which in a small pool is a jump too. */
export const SIMULATED_WHALE_SHARE_PCT = 1;
const WHALE_BUY_PCT: [number, number] = [1.2, 2];
/** A pull takes 40–65% of the deepest pool (past the 30% that alerts); an addition brings back 1.8–2.6 times. */
const PULL_FACTOR: [number, number] = [0.35, 0.6];
const ADD_FACTOR: [number, number] = [1.8, 2.6];
/** Away from its start by this factor, a token's price or liquidity is pulled back more often than pushed further. */
const FAR = 1.3;

const STATUSES: readonly RiskStatus[] = ['SAFE', 'WARNING', 'DANGER'];

/** What the driver keeps of one token between its surprises. */
export interface TokenMemory {
  startPrice: number;
  startLiquidity: number;
  /** The driver set the risk status by hand; the next risk surprise gives it back to the data. */
  statusSet: boolean;
}

function deepestPool(token: WireToken): WireLiquidityPool | null {
  let deepest: WireLiquidityPool | null = null;
  for (const pool of Object.values(token.liquidityPools)) {
    if (deepest === null || Number(pool.suspectedQuoteTokenReserves) > Number(deepest.suspectedQuoteTokenReserves)) deepest = pool;
  }
  return deepest;
}

function priceOf(token: WireToken): number {
  return Number(deepestPool(token)?.suspectedBaseTokenPrice ?? 0);
}

function liquidityOf(token: WireToken): number {
  return Object.values(token.liquidityPools).reduce((sum, pool) => sum + Number(pool.suspectedQuoteTokenReserves), 0);
}

export function rememberToken(token: WireToken): TokenMemory {
  return { startPrice: priceOf(token), startLiquidity: liquidityOf(token), statusSet: false };
}

/** Up with probability `up`, else down: 3 in 4 back toward the start when far from it, even otherwise. */
function upChance(now: number, start: number): number {
  if (!(start > 0) || !(now > 0)) return 0.5;
  if (now > start * FAR) return 0.25;
  if (now < start / FAR) return 0.75;
  return 0.5;
}

function pickKind(rng: Prng): SurpriseKind {
  let roll = rng.next();
  for (const [kind, weight] of WEIGHTS) {
    if (roll < weight) return kind;
    roll -= weight;
  }
  return 'jump';
}

function jump(market: Market, rng: Prng, token: WireToken, memory: TokenMemory): void {
  const size = rng.range(JUMP_PCT[0], JUMP_PCT[1]);
  // A fall of p% and a rise of p% are not mirror images; dividing keeps the two alike in size.
  const changePct = rng.chance(upChance(priceOf(token), memory.startPrice)) ? size : (1 / (1 + size / 100) - 1) * 100;
  market.movePrice(token.address, changePct);
}

/**
 * The wallet buys `sharePct` percent of the supply (what it holds counts) through the deepest
 * pool; false when that pool is too shallow to sell that share at a sane price, and nothing is done.
 */
export function whaleBuy(market: Market, tokenAddress: string, wallet: string, sharePct: number): boolean {
  const token = market.token(tokenAddress);
  if (token === null) throw new MarketMutationError('unknown-token', 'unknown token address');
  const supply = Number(token.totalSupply);
  const held = Number(market.holder(tokenAddress, wallet)?.currentlyHoldingAmount ?? 0);
  const pool = deepestPool(token);
  const base = Number(pool?.suspectedBaseTokenReserves ?? 0);
  const quote = Number(pool?.suspectedQuoteTokenReserves ?? 0);
  const wanted = (supply * sharePct) / 100 - held;
  if (!(wanted > 0) || wanted > base / 2 || !(quote > 0)) return false;
  // Constant product: taking `wanted` of `base` costs quote·wanted/(base − wanted), before the fee.
  const lamports = (quote * wanted) / (base - wanted) / (1 - POOL_FEE);
  market.executeTrade({ wallet, tokenAddress, side: 'buy', amountUSD: Math.max(1, (lamports / LAMPORTS_PER_SOL) * market.solUsd) });
  return true;
}

/** The wallet sells all it holds of the token. */
export function sellOut(market: Market, tokenAddress: string, wallet: string): void {
  // Any amount above what it holds is capped at its holding.
  market.executeTrade({ wallet, tokenAddress, side: 'sell', amountUSD: 1e12 });
}

/** A shared wallet that is a whale sells out; otherwise one that is not buys 1.2–2% of the supply. */
function whale(market: Market, rng: Prng, token: WireToken): void {
  const supply = Number(token.totalSupply);
  const wallet = rng.pick(market.wallets());
  const held = Number(market.holder(token.address, wallet)?.currentlyHoldingAmount ?? 0);
  if (supply > 0 && (held / supply) * 100 >= SIMULATED_WHALE_SHARE_PCT) {
    sellOut(market, token.address, wallet);
    return;
  }
  // A pool too shallow to sell that share gets a jump instead.
  if (!whaleBuy(market, token.address, wallet, rng.range(WHALE_BUY_PCT[0], WHALE_BUY_PCT[1]))) {
    market.movePrice(token.address, rng.range(JUMP_PCT[0], JUMP_PCT[1]), wallet);
  }
}

function liquidity(market: Market, rng: Prng, token: WireToken, memory: TokenMemory): void {
  // Below 60% of where it started, liquidity comes back, and the price with it (a token's team
  // adding liquidity is news): the jump is what a tracking chat is told. Otherwise it is pulled
  // (the alert). Either way a token is never emptied for good.
  if (liquidityOf(token) < memory.startLiquidity * 0.6) {
    market.changeLiquidity(token.address, { factor: rng.range(ADD_FACTOR[0], ADD_FACTOR[1]) });
    market.movePrice(token.address, rng.range(JUMP_PCT[0], JUMP_PCT[1]));
    return;
  }
  market.changeLiquidity(token.address, { factor: rng.range(PULL_FACTOR[0], PULL_FACTOR[1]) });
}

/** One of the flags the risk alerts name, flipped: mutable metadata, the mint or the freeze authority. */
function flipFlag(market: Market, rng: Prng, token: WireToken): void {
  const flags = token.riskAnalysis;
  switch (rng.int(0, 2)) {
    case 0:
      market.setRisk(token.address, { riskAnalysis: { isMutable: !flags.isMutable } });
      return;
    case 1:
      market.setRisk(token.address, { riskAnalysis: { mintAuthority: flags.mintAuthority === null ? token.deployerAddress : null } });
      return;
    default:
      market.setRisk(token.address, { riskAnalysis: { freezeAuthority: flags.freezeAuthority === null ? token.deployerAddress : null } });
  }
}

/**
 * Another risk status is set, or a flag flips. A status set before goes back to the data's with a
 * flag flipped too: the data's status may be the one that was set, and a flag always changes.
 */
function risk(market: Market, rng: Prng, token: WireToken, memory: TokenMemory): void {
  if (memory.statusSet) {
    memory.statusSet = false;
    market.setRisk(token.address, { riskStatus: null });
    flipFlag(market, rng, token);
    return;
  }
  if (rng.chance(0.5)) {
    memory.statusSet = true;
    market.setRisk(token.address, { riskStatus: rng.pick(STATUSES.filter((status) => status !== token.riskStatus)) });
    return;
  }
  flipFlag(market, rng, token);
}

/**
 * One surprise for the token; returns its kind, or null when the market could not do it (a pool
 * emptied by a control, a wallet with nothing to sell): the next one is tried at its time.
 */
export function surprise(market: Market, rng: Prng, tokenAddress: string, memory: TokenMemory): SurpriseKind | null {
  const token = market.token(tokenAddress);
  if (token === null) return null;
  const kind = pickKind(rng);
  try {
    switch (kind) {
      case 'jump':
        jump(market, rng, token, memory);
        break;
      case 'whale':
        whale(market, rng, token);
        break;
      case 'liquidity':
        liquidity(market, rng, token, memory);
        break;
      case 'risk':
        risk(market, rng, token, memory);
        break;
    }
  } catch (error) {
    if (error instanceof MarketMutationError) return null;
    throw error;
  }
  return kind;
}
