/**
 * The accounting of one token: its pools, every wallet's position, and the chronological ledger
 * of trades and transfers that produced them. Generation (history.ts) and runtime changes
 * (market.ts) both go through these methods, so pools, balances, makerData, candles and
 * technicals can never disagree.
 *
 * Conservation: totalSupply = pools' base reserves + wallet balances + unallocated, at all times.
 * "Unallocated" is supply held by no listed wallet (locked or undistributed); it is the source
 * and sink of liquidity changes and of a wallet taking or leaving a share of supply.
 */
import type { PoolPlan, RiskFlags, TokenProfile } from './profiles';
import type { RiskStatus } from './wireTypes';
import { LAMPORTS_PER_SOL, TOKEN_UNIT } from './units';

/** Swap fee kept by every pool (0.25%). */
export const POOL_FEE = 0.0025;
/** A pool with less SOL than this is treated as drained: trades are not routed to it. */
export const MIN_ROUTABLE_QUOTE = 0.5 * LAMPORTS_PER_SOL;
/** A first buy within this many seconds of the token's creation marks the wallet as a sniper. */
export const SNIPER_WINDOW_SECS = 30;

export type Side = 'buy' | 'sell';

export interface PoolState {
  address: string;
  protocol: string;
  /** Unix seconds when the pool opened. */
  createdAt: number;
  /** Token reserves, smallest units. */
  base: number;
  /** WSOL reserves, lamports. */
  quote: number;
}

export interface TradeEntry {
  kind: 'trade';
  seq: number;
  t: number;
  wallet: string;
  side: Side;
  pool: number;
  /** Tokens bought (buy) or sold (sell), smallest units. */
  tokenAmount: number;
  /** Lamports paid (buy) or received (sell). */
  lamports: number;
  txIndex: number;
  logIndex: number;
  /** The wallet's native balance reported with the trade, lamports. */
  nativeBalance: number;
}

/** A movement of tokens outside the pools; a null side is the unallocated supply. */
export interface TransferEntry {
  kind: 'transfer';
  seq: number;
  t: number;
  from: string | null;
  to: string | null;
  amount: number;
}

export type LedgerEntry = TradeEntry | TransferEntry;

/** One wallet's cumulative position in one token (the spec's makerData and holder record). */
export interface Position {
  holding: number;
  /** Unix seconds of the first acquisition. */
  since: number;
  boughtAmount: number;
  boughtLamports: number;
  boughtUsd: number;
  buys: number;
  sells: number;
  soldAmount: number;
  soldLamports: number;
  soldUsd: number;
  sent: number;
  received: number;
}

export function emptyPosition(since: number): Position {
  return {
    holding: 0,
    since,
    boughtAmount: 0,
    boughtLamports: 0,
    boughtUsd: 0,
    buys: 0,
    sells: 0,
    soldAmount: 0,
    soldLamports: 0,
    soldUsd: 0,
    sent: 0,
    received: 0,
  };
}

/** Applies one ledger entry to a wallet's position; shared by live accounting and by replays. */
export function applyToPosition(position: Position, entry: LedgerEntry, wallet: string, solUsd: number): void {
  if (entry.kind === 'trade') {
    const usd = (entry.lamports / LAMPORTS_PER_SOL) * solUsd;
    if (entry.side === 'buy') {
      position.holding += entry.tokenAmount;
      position.boughtAmount += entry.tokenAmount;
      position.boughtLamports += entry.lamports;
      position.boughtUsd += usd;
      position.buys += 1;
    } else {
      position.holding -= entry.tokenAmount;
      position.soldAmount += entry.tokenAmount;
      position.soldLamports += entry.lamports;
      position.soldUsd += usd;
      position.sells += 1;
    }
    return;
  }
  if (entry.to === wallet) {
    position.holding += entry.amount;
    position.received += entry.amount;
  }
  if (entry.from === wallet) {
    position.holding -= entry.amount;
    position.sent += entry.amount;
  }
}

export interface Maker {
  wallet: string;
  position: Position;
  /** First buy within SNIPER_WINDOW_SECS of creation. */
  sniper: boolean;
  /** Received tokens from the deployer outside the pools. */
  insider: boolean;
  bot: boolean;
}

export interface TradeRequest {
  wallet: string;
  side: Side;
  /** Lamports for a buy, token smallest units for a sell. */
  amountIn: number;
  t: number;
  txIndex: number;
  logIndex: number;
  nativeBalance: number;
  /** Trade through this pool instead of the best-priced one. */
  pool?: number;
}

export class TokenBook {
  readonly profile: TokenProfile;
  readonly createdAt: number;
  readonly solUsd: number;
  readonly pools: PoolState[];
  readonly makers = new Map<string, Maker>();
  readonly entries: LedgerEntry[] = [];
  readonly trades: TradeEntry[] = [];
  readonly byWallet = new Map<string, LedgerEntry[]>();
  risk: RiskFlags;
  /** A risk status set from outside (scenario control); null lets the status follow the data. */
  riskOverride: RiskStatus | null = null;
  unallocated: number;
  /** Bumped on every change, so derived views can be cached safely. */
  version = 0;
  private seq = 0;

  constructor(profile: TokenProfile, createdAt: number, solUsd: number) {
    this.profile = profile;
    this.createdAt = createdAt;
    this.solUsd = solUsd;
    this.risk = { ...profile.risk };
    const poolBase = Math.floor(profile.totalSupply * profile.poolSupplyShare);
    const poolQuote = Math.floor(profile.liquiditySol * LAMPORTS_PER_SOL);
    this.pools = profile.pools.map((plan: PoolPlan) => ({
      address: plan.address,
      protocol: plan.protocol,
      createdAt: createdAt + plan.delaySecs,
      base: Math.floor(poolBase * plan.share),
      quote: Math.max(1, Math.floor(poolQuote * plan.share)),
    }));
    this.unallocated = profile.totalSupply - this.pools.reduce((sum, pool) => sum + pool.base, 0);
  }

  lastTime(): number {
    return this.entries[this.entries.length - 1]?.t ?? this.createdAt;
  }

  /** Registers a wallet before its first entry (generation knows traits such as bot). */
  ensureMaker(wallet: string, t: number, bot = false): Maker {
    let maker = this.makers.get(wallet);
    if (!maker) {
      maker = { wallet, position: emptyPosition(t), sniper: false, insider: false, bot };
      this.makers.set(wallet, maker);
    }
    return maker;
  }

  /** Output of a constant-product swap, fee kept by the pool. */
  static swapOut(reserveIn: number, reserveOut: number, amountIn: number): number {
    const effective = amountIn * (1 - POOL_FEE);
    return Math.floor((reserveOut * effective) / (reserveIn + effective));
  }

  /** The routable pool giving the most output for this swap (what an aggregator would pick). */
  bestPool(side: Side, amountIn: number, t: number): { pool: number; amountOut: number } | null {
    let best: { pool: number; amountOut: number } | null = null;
    for (let i = 0; i < this.pools.length; i++) {
      const pool = this.pools[i];
      if (!pool || !isRoutable(pool, t)) continue;
      const out = side === 'buy' ? TokenBook.swapOut(pool.quote, pool.base, amountIn) : TokenBook.swapOut(pool.base, pool.quote, amountIn);
      if (out > 0 && (!best || out > best.amountOut)) best = { pool: i, amountOut: out };
    }
    return best;
  }

  /** Executes a swap and records it; null when no pool can fill it (too small, nothing to sell, no liquidity). */
  trade(request: TradeRequest): TradeEntry | null {
    const { wallet, side } = request;
    const amountIn = Math.floor(request.amountIn);
    if (amountIn <= 0) return null;
    const maker = this.makers.get(wallet);
    if (side === 'sell' && (!maker || maker.position.holding < amountIn)) return null;
    let route: { pool: number; amountOut: number } | null;
    if (request.pool !== undefined) {
      const pool = this.pools[request.pool];
      if (!pool) return null;
      const out = side === 'buy' ? TokenBook.swapOut(pool.quote, pool.base, amountIn) : TokenBook.swapOut(pool.base, pool.quote, amountIn);
      route = out > 0 ? { pool: request.pool, amountOut: out } : null;
    } else {
      route = this.bestPool(side, amountIn, request.t);
    }
    if (!route) return null;
    const pool = this.pools[route.pool];
    if (!pool) return null;
    if (side === 'buy') {
      pool.quote += amountIn;
      pool.base -= route.amountOut;
    } else {
      pool.base += amountIn;
      pool.quote -= route.amountOut;
    }
    // Within one second (one slot) the transaction index follows the order of the trades.
    const previous = this.trades[this.trades.length - 1];
    const txIndex =
      previous && previous.t === request.t && request.txIndex <= previous.txIndex
        ? previous.txIndex + 1 + (request.txIndex % 20)
        : request.txIndex;
    const entry: TradeEntry = {
      kind: 'trade',
      seq: this.seq++,
      t: request.t,
      wallet,
      side,
      pool: route.pool,
      tokenAmount: side === 'buy' ? route.amountOut : amountIn,
      lamports: side === 'buy' ? amountIn : route.amountOut,
      txIndex,
      logIndex: request.logIndex,
      nativeBalance: request.nativeBalance,
    };
    const target = this.ensureMaker(wallet, request.t);
    if (side === 'buy' && target.position.boughtAmount === 0 && target.position.received === 0) {
      target.position.since = request.t;
      target.sniper = request.t - this.createdAt <= SNIPER_WINDOW_SECS && wallet !== this.profile.deployer;
    }
    this.record(entry, [wallet]);
    this.trades.push(entry);
    return entry;
  }

  /** Moves tokens between wallets or to/from the unallocated supply; the amount is capped at what the sender has. */
  transfer(from: string | null, to: string | null, amount: number, t: number): TransferEntry | null {
    const available = from === null ? this.unallocated : (this.makers.get(from)?.position.holding ?? 0);
    const moved = Math.min(Math.floor(amount), available);
    if (moved <= 0 || from === to) return null;
    if (from === null) this.unallocated -= moved;
    if (to === null) this.unallocated += moved;
    if (to !== null) {
      const target = this.ensureMaker(to, t);
      if (target.position.boughtAmount === 0 && target.position.received === 0) target.position.since = t;
      if (from === this.profile.deployer) target.insider = true;
    }
    const entry: TransferEntry = { kind: 'transfer', seq: this.seq++, t, from, to, amount: moved };
    this.record(
      entry,
      [from, to].filter((w): w is string => w !== null),
    );
    return entry;
  }

  /**
   * Opens a pool on `protocol` now with `lamports` of SOL at the current price, its tokens from the
   * unallocated supply: what a launchpad's graduation looks like from outside (a pool on another
   * exchange appears). Returns its index, or null when no price or supply is left to fill it.
   */
  openPool(address: string, protocol: string, createdAt: number, lamports: number): number | null {
    const price = this.spotPriceSol();
    if (!(price > 0) || !(lamports > 0)) return null;
    const base = Math.min(this.unallocated, Math.floor((lamports / LAMPORTS_PER_SOL / price) * TOKEN_UNIT));
    if (base <= 0) return null;
    this.unallocated -= base;
    this.pools.push({ address, protocol, createdAt, base, quote: Math.floor(lamports) });
    this.version++;
    return this.pools.length - 1;
  }

  /**
   * Scales one pool's reserves at an unchanged price; 0 pulls the liquidity, leaving dust. Tokens
   * come from or go to the unallocated supply.
   */
  scaleLiquidity(poolIndex: number, factor: number): boolean {
    const pool = this.pools[poolIndex];
    if (!pool || !(factor >= 0)) return false;
    const effective = factor === 0 ? 0.0005 : factor;
    let base = Math.floor(pool.base * effective);
    if (base - pool.base > this.unallocated) base = pool.base + this.unallocated;
    const ratio = pool.base > 0 ? base / pool.base : 0;
    this.unallocated += pool.base - base;
    pool.base = base;
    pool.quote = Math.max(1, Math.floor(pool.quote * ratio));
    this.version++;
    return true;
  }

  private record(entry: LedgerEntry, wallets: string[]): void {
    this.entries.push(entry);
    for (const wallet of wallets) {
      const maker = this.makers.get(wallet);
      if (maker) applyToPosition(maker.position, entry, wallet, this.solUsd);
      let list = this.byWallet.get(wallet);
      if (!list) {
        list = [];
        this.byWallet.set(wallet, list);
      }
      list.push(entry);
    }
    this.version++;
  }

  // ----- derived figures -----

  /** The deepest routable pool (most SOL), or the deepest pool when all are drained. */
  mainPool(): PoolState | null {
    let best: PoolState | null = null;
    for (const pool of this.pools) if (!best || pool.quote > best.quote) best = pool;
    return best;
  }

  /** SOL per whole token in the deepest pool. */
  spotPriceSol(): number {
    const pool = this.mainPool();
    return pool ? poolPriceSol(pool) : 0;
  }

  liquidityLamports(): number {
    return this.pools.reduce((sum, pool) => sum + pool.quote, 0);
  }

  /** Current balances greater than zero, largest first. */
  balancesDescending(): number[] {
    const balances: number[] = [];
    for (const maker of this.makers.values()) if (maker.position.holding > 0) balances.push(maker.position.holding);
    return balances.sort((a, b) => b - a);
  }

  holdersCount(): number {
    let count = 0;
    for (const maker of this.makers.values()) if (maker.position.holding > 0) count++;
    return count;
  }

  topHoldersSupply(n: number): number {
    return this.balancesDescending()
      .slice(0, n)
      .reduce((sum, balance) => sum + balance, 0);
  }

  holdingOf(wallet: string | null): number {
    if (wallet === null) return 0;
    return this.makers.get(wallet)?.position.holding ?? 0;
  }
}

/** Open at time t and still holding enough SOL to trade against. */
function isRoutable(pool: PoolState, t: number): boolean {
  return pool.createdAt <= t && pool.quote >= MIN_ROUTABLE_QUOTE && pool.base > 0;
}

export function poolPriceSol(pool: PoolState): number {
  if (pool.base <= 0) return 0;
  return pool.quote / LAMPORTS_PER_SOL / (pool.base / TOKEN_UNIT);
}

/** The wallet tags this simulator uses (spec §2.6 "special wallet types"). */
export const WHALE_SHARE = 0.01;

export function tagsOf(book: TokenBook, maker: Maker, holding = maker.position.holding): string[] {
  const tags: string[] = [];
  if (maker.wallet === book.profile.deployer) tags.push('dev');
  if (maker.sniper) tags.push('sniper');
  if (maker.insider) tags.push('insider');
  if (maker.bot) tags.push('bot');
  if (holding >= book.profile.totalSupply * WHALE_SHARE) tags.push('whale');
  return tags;
}
