/**
 * The simulated market: a deterministic set of tokens, wallets and their history for a seed,
 * the read side the REST endpoints serve, and the mutations that make it move (trades, risk
 * changes, liquidity changes, shares of supply). Every mutation goes through the token's ledger
 * and is announced to change listeners, so REST answers and live streams always show one state.
 */
import type { CandleQuery } from './candles';
import type { HistoryContext } from './history';
import type { PoolState, Position, Side, TradeEntry } from './ledger';
import type { RiskFlags, TokenProfile } from './profiles';
import type { RiskStatus, WireCandle, WireHolder, WireTechnicals, WireToken, WireTrade, WireTradeResponse } from './wireTypes';
import type { SimulatorProtocol } from './protocol';
import type { VendorCandle, VendorFeedToken, VendorHolderEvent, VendorToken, VendorTradeEvent } from './vendorWireTypes';
import { bondingCurveOf, curveHolderEvent, curveHolderView } from './bondingCurve';
import { aggregateCandles } from './candles';
import { FEED_MAX_TOKENS, FEED_WINDOW_SECS, feedToken } from './feedTokens';
import { launchedProfile, type LaunchOrigin } from './launches';
import { vendorCandle, vendorHolderEvent, vendorTradeEvent } from './vendorEvents';
import { vendorAnswer, vendorExtraDecimals, vendorProtocolName, vendorReading, type VendorTokenPlan } from './vendorToken';
import { generateHistory } from './history';
import { POOL_FEE, TokenBook, applyToPosition, emptyPosition } from './ledger';
import { PROTOCOLS, buildMarketProfile, type MarketProfile } from './profiles';
import { Prng, hashString, mixSeed } from './random';
import { riskStatusOf } from './risk';
import { computeTechnicals } from './technicals';
import { CHAIN_ID, LAMPORTS_PER_SOL, TOKEN_UNIT } from './units';
import { holderView, metadataView, tokenView, tradeView, walletTradeViews } from './views';
import { styledFrame, styledToken, type WireStyle } from './wireStyle';

export const DEFAULT_SEED = 42;

export interface MarketOptions {
  seed?: number;
  /** How tokens are written on the wire (wireStyle.ts); default `spec`. The vendor protocol writes `real` (and refuses `spec`). */
  style?: WireStyle;
  /** Whose protocol the market's readings follow (protocol.ts); default `spec`. */
  protocol?: SimulatorProtocol;
  /** Clock in Unix milliseconds; defaults to Date.now. Tests fix it to compare runs. */
  now?: () => number;
}

export interface ListedToken {
  address: string;
  symbol: string;
  name: string;
  riskStatus: RiskStatus;
}

export interface Listing {
  tokens: ListedToken[];
  /** Wallets that trade many tokens (useful for wallet-tracker and trades-history). */
  wallets: string[];
}

export const HOLDERS_HISTORY_SORTS = ['balance', 'holderSince', 'totalBoughtUSD', 'totalSoldUSD'] as const;
export type HoldersHistorySort = (typeof HOLDERS_HISTORY_SORTS)[number];

export interface TradeInput {
  wallet: string;
  tokenAddress: string;
  side: Side;
  amountUSD: number;
}

export interface RiskChange {
  /** A fixed status; null returns to the status derived from the data. Absent leaves it as is. */
  riskStatus?: RiskStatus | null;
  riskAnalysis?: Partial<RiskFlags>;
}

export interface LiquidityChange {
  /** Defaults to the deepest pool. */
  poolAddress?: string;
  /** Multiplies the pool's reserves at an unchanged price; 0 pulls the liquidity. */
  factor: number;
}

/** Token fields a change may have touched. */
export type TokenField = 'price' | 'liquidity' | 'holdersCount' | 'top10HoldersSupply' | 'risk';

export type MarketChange =
  | { kind: 'trade'; tokenAddress: string; wallet: string; trade: WireTrade }
  /** The candle containing `timestamp` (Unix seconds) changed, at every interval. */
  | { kind: 'candle'; tokenAddress: string; timestamp: number }
  | { kind: 'holder'; tokenAddress: string; wallet: string }
  | { kind: 'token'; tokenAddress: string; fields: TokenField[] }
  /** A new token was launched (vendor protocol only): token-feed lists it. */
  | { kind: 'launch'; tokenAddress: string };

export type MarketListener = (change: MarketChange) => void;

export type MarketMutationErrorCode = 'unknown-token' | 'unknown-pool' | 'invalid-input' | 'nothing-to-sell' | 'not-fillable';

/** A mutation that cannot be applied; the message is fit for a control endpoint's answer. */
export class MarketMutationError extends Error {
  readonly code: MarketMutationErrorCode;

  constructor(code: MarketMutationErrorCode, message: string) {
    super(message);
    this.name = 'MarketMutationError';
    this.code = code;
  }
}

interface TokenSnapshot {
  holdersCount: number;
  top10: number;
  risk: RiskStatus;
}

export class Market {
  readonly seed: number;
  readonly chainId = CHAIN_ID;
  /** Unix seconds at which the generated history ends. */
  readonly anchor: number;
  readonly solUsd: number;
  readonly style: WireStyle;
  readonly protocol: SimulatorProtocol;
  private readonly clock: () => number;
  private readonly profile: MarketProfile;
  private readonly byAddress = new Map<string, TokenProfile>();
  private readonly books: Array<TokenBook | undefined>;
  /** Token indexes each wallet has traded or held (small arrays: most wallets touch one token). */
  private readonly walletTokens = new Map<string, number[]>();
  private readonly nativeBalances = new Map<string, number>();
  private readonly listeners = new Set<MarketListener>();
  private readonly liveRng: Prng;
  private readonly historyContext: HistoryContext;
  /** Tokens launched so far (vendor protocol). */
  private launches = 0;

  constructor(options: MarketOptions = {}) {
    this.seed = options.seed ?? DEFAULT_SEED;
    this.protocol = options.protocol ?? 'spec';
    if (this.protocol === 'vendor' && options.style === 'spec') {
      throw new Error('the vendor protocol writes tokens as the live service does: style must be real or absent');
    }
    this.style = this.protocol === 'vendor' ? 'real' : (options.style ?? 'spec');
    this.clock = options.now ?? Date.now;
    this.anchor = Math.floor(this.clock() / 1000);
    this.profile = buildMarketProfile(this.seed);
    // The vendor protocol writes Moonshot's tokens with 9 decimals; the ledger is the same.
    if (this.protocol === 'vendor') for (const token of this.profile.tokens) token.extraDecimals = vendorExtraDecimals(token.origin);
    this.solUsd = this.profile.solUsd;
    for (const token of this.profile.tokens) this.byAddress.set(token.address, token);
    this.books = new Array<TokenBook | undefined>(this.profile.tokens.length);
    this.liveRng = new Prng(mixSeed(this.seed, 6));
    this.historyContext = {
      seed: this.seed,
      anchor: this.anchor,
      solUsd: this.solUsd,
      sharedWallets: this.profile.sharedWallets,
      nativeBalanceOf: (wallet) => this.nativeBalanceOf(wallet),
    };
  }

  /** Current time, Unix seconds. */
  now(): number {
    return Math.floor(this.clock() / 1000);
  }

  // ----- reading -----

  /** Every token's address, in listing order, without generating any token's history (listing() does). */
  tokenAddresses(): string[] {
    return this.profile.tokens.map((token) => token.address);
  }

  hasToken(address: string): boolean {
    return this.byAddress.has(address);
  }

  /** Shared wallets that trade across many tokens. */
  wallets(): string[] {
    return this.profile.sharedWallets.map((wallet) => wallet.address);
  }

  /** Addresses of the tokens with hostile metadata (mentions, markup, bad links, empty names, nulls). */
  hostileTokens(): string[] {
    return this.profile.tokens.filter((token) => token.hostile !== null).map((token) => token.address);
  }

  listing(): Listing {
    return {
      tokens: this.profile.tokens.map((token) => ({
        address: token.address,
        symbol: token.symbol,
        name: token.name,
        riskStatus: riskStatusOf(this.bookOf(token)),
      })),
      wallets: this.wallets(),
    };
  }

  /**
   * The token as token-data answers it, with every pool figure: in the vendor protocol, the
   * in-process reading of tokenData()'s answer, whose pools carry the suspected figures on every token.
   */
  token(address: string): WireToken | null {
    const book = this.findBook(address);
    if (!book) return null;
    const token = tokenView(book, this.now());
    return this.protocol === 'vendor' ? vendorReading(token, this.vendorPlan(book)) : styledToken(token, this.style);
  }

  /** Exactly what token-data sends for the token: token(), except in the vendor protocol (vendorToken.ts). */
  tokenData(address: string): WireToken | VendorToken | null {
    const book = this.findBook(address);
    if (!book || this.protocol !== 'vendor') return this.token(address);
    const plan = this.vendorPlan(book);
    return vendorAnswer(vendorReading(tokenView(book, this.now()), plan), plan);
  }

  /** The token as a token-feed frame carries it (in the `real` style, without its pools). */
  tokenFrame(address: string): WireToken | null {
    const book = this.findBook(address);
    return book ? styledFrame(tokenView(book, this.now()), this.style) : null;
  }

  technicals(address: string): WireTechnicals | null {
    const book = this.findBook(address);
    return book ? computeTechnicals(book, this.now()) : null;
  }

  /**
   * The complete holder history (former holders included), sorted by `sortBy` descending, except
   * holderSince: oldest first. In the vendor protocol a young pump.fun token's bonding curve is
   * one of them (bondingCurve.ts).
   */
  holders(address: string, sortBy: HoldersHistorySort = 'balance'): WireHolder[] | null {
    const book = this.findBook(address);
    if (!book) return null;
    const now = this.now();
    const rows: Array<{ wallet: string; position: Pick<Position, 'holding' | 'since' | 'boughtUsd' | 'soldUsd'>; view: () => WireHolder }> =
      [...book.makers.values()].map((maker) => ({
        wallet: maker.wallet,
        position: maker.position,
        view: () => holderView(book, maker, now, this.nativeBalanceOf(maker.wallet)),
      }));
    const curve = this.curveOf(book);
    if (curve) {
      const position = { holding: curve.base, since: curve.createdAt, boughtUsd: 0, soldUsd: 0 };
      rows.push({ wallet: curve.address, position, view: () => curveHolderView(book, curve, now) });
    }
    const key = (row: (typeof rows)[number]): number => {
      const p = row.position;
      switch (sortBy) {
        case 'balance':
          return -p.holding;
        case 'holderSince':
          return p.since;
        case 'totalBoughtUSD':
          return -p.boughtUsd;
        case 'totalSoldUSD':
          return -p.soldUsd;
      }
    };
    rows.sort((a, b) => key(a) - key(b) || (a.wallet < b.wallet ? -1 : a.wallet > b.wallet ? 1 : 0));
    return rows.map((row) => row.view());
  }

  holder(address: string, wallet: string): WireHolder | null {
    const book = this.findBook(address);
    if (!book) return null;
    const curve = this.curveOf(book);
    if (curve && curve.address === wallet) return curveHolderView(book, curve, this.now());
    const maker = book.makers.get(wallet);
    return maker ? holderView(book, maker, this.now(), this.nativeBalanceOf(wallet)) : null;
  }

  /**
   * Trades in one token, newest first, each with makerData as it stood after that trade. Without
   * `wallets`, every wallet's trades. Null for an unknown token.
   */
  tokenTrades(address: string, wallets?: readonly string[], limit = Infinity): WireTradeResponse | null {
    const book = this.findBook(address);
    if (!book) return null;
    const chosen = wallets ? [...new Set(wallets)] : [...book.byWallet.keys()];
    const trades = chosen.flatMap((wallet) => walletTradeViews(book, wallet, { seed: this.seed }));
    return {
      tradeHistory: newestFirst(trades).slice(0, limit),
      tokensMetadata: { [book.profile.address]: metadataView(book.profile) },
    };
  }

  /**
   * Trades of the given wallets across every token, newest first. Amounts in USD are valued at
   * the token's current price (spec §4.6); makerData keeps the values at transaction time.
   */
  walletTrades(wallets: readonly string[], limit = Infinity): WireTradeResponse {
    this.generateAll();
    const trades: WireTrade[] = [];
    for (const wallet of new Set(wallets)) {
      for (const index of this.walletTokens.get(wallet) ?? []) {
        const book = this.books[index];
        if (!book) continue;
        trades.push(...walletTradeViews(book, wallet, { seed: this.seed, currentPriceSol: book.spotPriceSol() }));
      }
    }
    const tradeHistory = newestFirst(trades).slice(0, limit);
    const tokensMetadata: WireTradeResponse['tokensMetadata'] = {};
    for (const trade of tradeHistory) {
      const address = trade.makerData.tokenAddress;
      const profile = this.byAddress.get(address);
      if (profile && !tokensMetadata[address]) tokensMetadata[address] = metadataView(profile);
    }
    return { tradeHistory, tokensMetadata };
  }

  /**
   * The newest `limit` trades of one wallet across every token, newest first, in trades-history's
   * order, valued at transaction time as tokenTrades and live stream trades are (walletTrades
   * values at today's price instead). The same trades tokenTrades would give, but only these
   * `limit` are built: building a trade (signature, wire text) is what costs, and an active
   * wallet has hundreds.
   */
  latestWalletTrades(wallet: string, limit: number): WireTrade[] {
    // The wallet → tokens index covers generated tokens only.
    this.generateAll();
    const candidates: Array<{ book: TokenBook; entry: TradeEntry }> = [];
    for (const index of this.walletTokens.get(wallet) ?? []) {
      const book = this.books[index];
      const entries = book?.byWallet.get(wallet);
      if (!book || !entries) continue;
      // A ledger runs in time order, and trades in one second get rising transaction indexes
      // (TokenBook.trade), so a token's last entries are its newest trades.
      let taken = 0;
      for (let i = entries.length - 1; i >= 0 && taken < limit; i--) {
        const entry = entries[i];
        if (entry?.kind !== 'trade') continue;
        candidates.push({ book, entry });
        taken++;
      }
    }
    // newestFirst's order. No two trades of one token share a second and a transaction index
    // (see above), so the transaction hash it falls back on is never reached and never built.
    candidates.sort(
      (a, b) =>
        b.entry.t - a.entry.t ||
        (a.book.profile.address < b.book.profile.address ? -1 : a.book.profile.address > b.book.profile.address ? 1 : 0) ||
        b.entry.txIndex - a.entry.txIndex,
    );
    const chosen = candidates.slice(0, limit);
    // makerData is the position right after each trade, so replay the wallet's whole ledger in
    // each token (transfers included, as walletTradeViews does); applying entries is arithmetic only.
    const positions = new Map<TradeEntry, Position>();
    const wanted = new Set(chosen.map(({ entry }) => entry));
    for (const book of new Set(chosen.map((c) => c.book))) {
      const position = emptyPosition(book.makers.get(wallet)?.position.since ?? 0);
      for (const entry of book.byWallet.get(wallet) ?? []) {
        applyToPosition(position, entry, wallet, book.solUsd);
        if (entry.kind === 'trade' && wanted.has(entry)) positions.set(entry, { ...position });
      }
    }
    return chosen.map(({ book, entry }) => {
      const position = positions.get(entry);
      if (!position) throw new Error('a chosen trade is missing from its ledger');
      return tradeView(book, entry, position, { seed: this.seed });
    });
  }

  candles(address: string, query: CandleQuery): WireCandle[] | null {
    const book = this.findBook(address);
    return book ? aggregateCandles(book.trades, query) : null;
  }

  /** The latest candle at this interval (the one the last trade fell in), or null before any trade. */
  currentCandle(address: string, intervalSecs = 60): WireCandle | null {
    const book = this.findBook(address);
    const last = book?.trades[book.trades.length - 1];
    if (!book || !last) return null;
    const from = Math.floor(last.t / intervalSecs) * intervalSecs;
    return aggregateCandles(book.trades, { from, to: last.t, intervalSecs }).at(-1) ?? null;
  }

  // ----- the vendor protocol's streams (vendorEvents.ts, feedTokens.ts) -----

  /** A trade (as a `trade` change carries it) as the vendor's trades-live sends it. */
  vendorTrade(trade: WireTrade): VendorTradeEvent | null {
    const book = this.findBook(trade.makerData.tokenAddress);
    const pool = book?.pools.find((candidate) => candidate.address === trade.poolAddress);
    return book && pool ? vendorTradeEvent(trade, this.protocolName(book, pool)) : null;
  }

  /** The current candle at `timeframeSecs` as the vendor's chart-live sends it (USD prices, raw volume); null before any trade. */
  vendorCandle(address: string, timeframeSecs: number): VendorCandle | null {
    const book = this.findBook(address);
    return book ? vendorCandle(book, timeframeSecs) : null;
  }

  /** A holder (or a young token's bonding curve) as the vendor's holders-live sends it. */
  vendorHolder(address: string, wallet: string): VendorHolderEvent | null {
    const book = this.findBook(address);
    if (!book) return null;
    const curve = this.curveOf(book);
    if (curve && curve.address === wallet) return curveHolderEvent(book, curve, this.now());
    const maker = book.makers.get(wallet);
    return maker ? vendorHolderEvent(book, maker, this.now(), this.nativeBalanceOf(wallet)) : null;
  }

  /** The tokens the vendor's token-feed lists: created in the last 24 hours, newest first, at most FEED_MAX_TOKENS. */
  feedTokens(): VendorFeedToken[] {
    const now = this.now();
    const createdAt = (profile: TokenProfile) => this.books[profile.index]?.createdAt ?? this.anchor - profile.ageSecs;
    return this.profile.tokens
      .filter((profile) => createdAt(profile) >= now - FEED_WINDOW_SECS)
      .sort((a, b) => createdAt(b) - createdAt(a) || b.index - a.index)
      .slice(0, FEED_MAX_TOKENS)
      .map((profile) => {
        const book = this.bookOf(profile);
        const main = book.mainPool();
        return feedToken(book, now, main ? this.protocolName(book, main) : '');
      });
  }

  /** The wallet's native balance, lamports: a per-wallet starting value moved by live trades. */
  nativeBalanceOf(wallet: string): number {
    const known = this.nativeBalances.get(wallet);
    if (known !== undefined) return known;
    const rng = new Prng(mixSeed(this.seed, 5, hashString(wallet)));
    return Math.floor(rng.logRange(0.05, 800) * LAMPORTS_PER_SOL);
  }

  // ----- changes -----

  onChange(listener: MarketListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A wallet buys (pays amountUSD in SOL) or sells (tokens worth amountUSD at the current price,
   * at most what it holds) through the pool that fills it best. Updates pools, price, candles,
   * holders, makerData and holdersCount, and announces each change.
   */
  executeTrade(input: TradeInput): WireTrade {
    const book = this.requireBook(input.tokenAddress);
    if (typeof input.wallet !== 'string' || input.wallet.length === 0) throw new MarketMutationError('invalid-input', 'wallet is required');
    if (input.side !== 'buy' && input.side !== 'sell') throw new MarketMutationError('invalid-input', 'side must be "buy" or "sell"');
    if (!(Number.isFinite(input.amountUSD) && input.amountUSD > 0)) {
      throw new MarketMutationError('invalid-input', 'amountUSD must be a positive number');
    }
    let amountIn: number;
    if (input.side === 'buy') {
      amountIn = Math.floor((input.amountUSD / this.solUsd) * LAMPORTS_PER_SOL);
    } else {
      const holding = book.holdingOf(input.wallet);
      if (holding <= 0) throw new MarketMutationError('nothing-to-sell', 'the wallet holds none of this token');
      const price = book.spotPriceSol();
      const wanted = price > 0 ? Math.floor((input.amountUSD / this.solUsd / price) * TOKEN_UNIT) : holding;
      amountIn = Math.min(holding, Math.max(1, wanted));
    }
    return this.trade(book, input.wallet, input.side, amountIn);
  }

  /** Moves the deepest pool's price by changePct percent by trading against it. */
  movePrice(tokenAddress: string, changePct: number, wallet?: string): WireTrade {
    const book = this.requireBook(tokenAddress);
    if (!(Number.isFinite(changePct) && changePct > -100 && changePct !== 0)) {
      throw new MarketMutationError('invalid-input', 'changePct must be a non-zero number above -100');
    }
    const main = book.mainPool();
    const poolIndex = main ? book.pools.indexOf(main) : -1;
    if (!main || poolIndex < 0) throw new MarketMutationError('not-fillable', 'the token has no pool');
    // Constant product: the price scales with the square of the reserve ratio.
    const root = Math.sqrt(1 + changePct / 100);
    if (changePct > 0) {
      const lamports = Math.ceil((main.quote * (root - 1)) / (1 - POOL_FEE));
      const buyer = wallet ?? this.profile.sharedWallets.find((w) => w.sizeFactor > 5)?.address ?? this.wallets()[0] ?? '';
      return this.trade(book, buyer, 'buy', lamports, poolIndex);
    }
    const tokens = Math.ceil((main.base * (1 / root - 1)) / (1 - POOL_FEE));
    const seller = wallet ?? this.largestHolder(book);
    if (!seller) throw new MarketMutationError('nothing-to-sell', 'no wallet holds this token');
    const shortfall = tokens - book.holdingOf(seller);
    // The seller tops up from the unallocated supply when it holds too little to move the price that far.
    if (shortfall > 0) this.recordTransfer(book, null, seller, shortfall);
    return this.trade(book, seller, 'sell', Math.min(tokens, book.holdingOf(seller)), poolIndex);
  }

  setRisk(tokenAddress: string, change: RiskChange): WireToken {
    const book = this.requireBook(tokenAddress);
    const before = this.snapshot(book);
    if (change.riskStatus !== undefined) {
      if (change.riskStatus !== null && !['SAFE', 'WARNING', 'DANGER'].includes(change.riskStatus)) {
        throw new MarketMutationError('invalid-input', 'riskStatus must be SAFE, WARNING, DANGER or null');
      }
      book.riskOverride = change.riskStatus;
    }
    const analysis = change.riskAnalysis ?? {};
    if (analysis.isMutable !== undefined) book.risk.isMutable = Boolean(analysis.isMutable);
    if (analysis.mintAuthority !== undefined) book.risk.mintAuthority = analysis.mintAuthority;
    if (analysis.freezeAuthority !== undefined) book.risk.freezeAuthority = analysis.freezeAuthority;
    if (analysis.updateAuthority !== undefined) book.risk.updateAuthority = analysis.updateAuthority;
    book.version++;
    this.announceToken(book, before, ['risk']);
    return tokenView(book, this.now());
  }

  changeLiquidity(tokenAddress: string, change: LiquidityChange): WireToken {
    const book = this.requireBook(tokenAddress);
    if (!(Number.isFinite(change.factor) && change.factor >= 0)) {
      throw new MarketMutationError('invalid-input', 'factor must be a number ≥ 0 (0 pulls the liquidity)');
    }
    const pool = change.poolAddress === undefined ? book.mainPool() : book.pools.find((p) => p.address === change.poolAddress);
    if (!pool) throw new MarketMutationError('unknown-pool', 'no such pool for this token');
    const before = this.snapshot(book);
    book.scaleLiquidity(book.pools.indexOf(pool), change.factor);
    if (pool === this.curveOf(book)) this.emit({ kind: 'holder', tokenAddress, wallet: pool.address });
    this.announceToken(book, before, ['liquidity', 'price']);
    return tokenView(book, this.now());
  }

  /**
   * The wallet ends up holding supplyPct percent of the supply: tokens come from the unallocated
   * supply, then from the largest other holders; a smaller share goes back to the unallocated supply.
   */
  setHolderShare(tokenAddress: string, wallet: string, supplyPct: number): WireHolder {
    const book = this.requireBook(tokenAddress);
    if (typeof wallet !== 'string' || wallet.length === 0) throw new MarketMutationError('invalid-input', 'wallet is required');
    if (!(Number.isFinite(supplyPct) && supplyPct >= 0 && supplyPct <= 100)) {
      throw new MarketMutationError('invalid-input', 'supplyPct must be between 0 and 100');
    }
    const before = this.snapshot(book);
    const target = Math.floor((book.profile.totalSupply * supplyPct) / 100);
    let delta = target - book.holdingOf(wallet);
    const touched = new Set<string>([wallet]);
    if (delta < 0) {
      this.recordTransfer(book, wallet, null, -delta);
    } else if (delta > 0) {
      const fromReserve = Math.min(delta, book.unallocated);
      if (fromReserve > 0) this.recordTransfer(book, null, wallet, fromReserve);
      delta -= fromReserve;
      const donors = [...book.makers.values()]
        .filter((maker) => maker.wallet !== wallet && maker.position.holding > 0)
        .sort((a, b) => b.position.holding - a.position.holding);
      for (const donor of donors) {
        if (delta <= 0) break;
        const amount = Math.min(delta, donor.position.holding);
        this.recordTransfer(book, donor.wallet, wallet, amount);
        touched.add(donor.wallet);
        delta -= amount;
      }
    }
    for (const changed of touched) this.emit({ kind: 'holder', tokenAddress, wallet: changed });
    this.announceToken(book, before, []);
    const holder = this.holder(tokenAddress, wallet);
    if (!holder) throw new MarketMutationError('invalid-input', 'the wallet never held this token');
    return holder;
  }

  /**
   * The token graduates from its launch protocol: a pool on `protocol` (default: the first of the
   * simulator's protocols none of its pools is on) opens now with `liquiditySol` of SOL at the
   * current price. The launch pools stay, as a launchpad's bonding curve stays listed.
   */
  graduate(tokenAddress: string, protocol?: string, liquiditySol = 85): WireToken {
    const book = this.requireBook(tokenAddress);
    const used = new Set(book.pools.map((pool) => pool.protocol));
    const chosen = protocol ?? PROTOCOLS.find((name) => !used.has(name));
    if (chosen === undefined || used.has(chosen))
      throw new MarketMutationError('invalid-input', 'the token already has a pool on that protocol');
    const before = this.snapshot(book);
    const opened = book.openPool(this.liveRng.address(), chosen, Math.max(this.now(), book.lastTime()), liquiditySol * LAMPORTS_PER_SOL);
    if (opened === null) throw new MarketMutationError('not-fillable', 'the token has no price or no supply left for a pool');
    this.announceToken(book, before, ['liquidity', 'price']);
    return tokenView(book, this.now());
  }

  /**
   * A new token is launched (vendor protocol only): created a few minutes ago with a short
   * history, drawn from the seed and the number of launches so far (launches.ts). Returns its address.
   */
  launchToken(origin?: LaunchOrigin): string {
    if (this.protocol !== 'vendor') throw new MarketMutationError('invalid-input', 'new tokens are launched in the vendor protocol only');
    const now = Math.max(this.now(), this.anchor);
    const index = this.profile.tokens.length;
    const names = new Set(this.profile.tokens.map((token) => token.name));
    const profile = launchedProfile({ seed: this.seed, launch: this.launches++, index, names, ...(origin ? { origin } : {}) });
    const book = generateHistory(profile, { ...this.historyContext, anchor: now });
    this.profile.tokens.push(profile);
    this.byAddress.set(profile.address, profile);
    this.books[index] = book;
    for (const wallet of book.byWallet.keys()) this.indexWallet(wallet, index);
    this.emit({ kind: 'launch', tokenAddress: profile.address });
    return profile.address;
  }

  /** The token's deployer sells `sellPct` percent of what it holds now, through the best pool. */
  developerSells(tokenAddress: string, sellPct: number): WireTrade {
    const book = this.requireBook(tokenAddress);
    if (!(Number.isFinite(sellPct) && sellPct > 0 && sellPct <= 100))
      throw new MarketMutationError('invalid-input', 'sellPct must be above 0 and at most 100');
    const holding = book.holdingOf(book.profile.deployer);
    if (holding <= 0) throw new MarketMutationError('nothing-to-sell', 'the deployer holds none of this token');
    return this.trade(book, book.profile.deployer, 'sell', Math.max(1, Math.floor((holding * sellPct) / 100)));
  }

  /** The wallets the service would tag as snipers, bots or insiders that hold some of the token now, largest first. */
  taggedHolders(tokenAddress: string): string[] {
    const book = this.requireBook(tokenAddress);
    return [...book.makers.values()]
      .filter(
        (maker) => maker.position.holding > 0 && maker.wallet !== book.profile.deployer && (maker.sniper || maker.insider || maker.bot),
      )
      .sort((a, b) => b.position.holding - a.position.holding)
      .map((maker) => maker.wallet);
  }

  /** Each of the token's tagged holders (at most `wallets` of them, largest first) sells `sellPct` percent of what it holds. */
  insidersSell(tokenAddress: string, sellPct: number, wallets = Infinity): WireTrade[] {
    if (!(Number.isFinite(sellPct) && sellPct > 0 && sellPct <= 100))
      throw new MarketMutationError('invalid-input', 'sellPct must be above 0 and at most 100');
    const book = this.requireBook(tokenAddress);
    const sellers = this.taggedHolders(tokenAddress).slice(0, wallets);
    if (sellers.length === 0) throw new MarketMutationError('nothing-to-sell', 'no tagged wallet holds this token');
    return sellers.map((wallet) => this.trade(book, wallet, 'sell', Math.max(1, Math.floor((book.holdingOf(wallet) * sellPct) / 100))));
  }

  // ----- internals -----

  private trade(book: TokenBook, wallet: string, side: Side, amountIn: number, pool?: number): WireTrade {
    const before = this.snapshot(book);
    const nativeBefore = this.nativeBalanceOf(wallet);
    const entry: TradeEntry | null = book.trade({
      wallet,
      side,
      amountIn,
      t: Math.max(this.now(), book.lastTime()),
      txIndex: this.liveRng.int(0, 1800),
      logIndex: this.liveRng.int(0, 7),
      nativeBalance: nativeBefore,
      ...(pool === undefined ? {} : { pool }),
    });
    if (!entry) throw new MarketMutationError('not-fillable', 'no pool can fill this trade (too small, or no liquidity)');
    entry.nativeBalance = side === 'buy' ? Math.max(0, nativeBefore - entry.lamports) : nativeBefore + entry.lamports;
    this.nativeBalances.set(wallet, entry.nativeBalance);
    this.indexWallet(wallet, book.profile.index);
    const maker = book.makers.get(wallet);
    if (!maker) throw new Error('maker missing after a trade');
    const trade = tradeView(book, entry, { ...maker.position }, { seed: this.seed });
    const tokenAddress = book.profile.address;
    this.emit({ kind: 'trade', tokenAddress, wallet, trade });
    this.emit({ kind: 'candle', tokenAddress, timestamp: entry.t });
    this.emit({ kind: 'holder', tokenAddress, wallet });
    // A bonding curve's holding is its reserve: every trade through it changes it.
    const curve = this.curveOf(book);
    if (curve && book.pools[entry.pool] === curve) this.emit({ kind: 'holder', tokenAddress, wallet: curve.address });
    this.announceToken(book, before, ['price', 'liquidity']);
    return trade;
  }

  /** The token's bonding curve in the vendor protocol (bondingCurve.ts); null in the spec protocol and for other tokens. */
  private curveOf(book: TokenBook): PoolState | null {
    return this.protocol === 'vendor' ? bondingCurveOf(book, this.anchor) : null;
  }

  /** The vendor's name of a pool's exchange. */
  private protocolName(book: TokenBook, pool: PoolState): string {
    return vendorProtocolName(pool.protocol, pool === this.curveOf(book));
  }

  /** How the vendor protocol writes the token: a third of the tokens, and every bonding curve's, without the pools' suspected figures. */
  private vendorPlan(book: TokenBook): VendorTokenPlan {
    const curve = this.curveOf(book);
    return { curvePool: curve?.address ?? null, figures: curve === null && book.profile.index % 3 !== 2 };
  }

  private recordTransfer(book: TokenBook, from: string | null, to: string | null, amount: number): void {
    book.transfer(from, to, amount, Math.max(this.now(), book.lastTime()));
    if (to !== null) this.indexWallet(to, book.profile.index);
  }

  private largestHolder(book: TokenBook): string | null {
    let best: { wallet: string; holding: number } | null = null;
    for (const maker of book.makers.values()) {
      if (!best || maker.position.holding > best.holding) best = { wallet: maker.wallet, holding: maker.position.holding };
    }
    return best?.wallet ?? null;
  }

  private snapshot(book: TokenBook): TokenSnapshot {
    return { holdersCount: book.holdersCount(), top10: book.topHoldersSupply(10), risk: riskStatusOf(book) };
  }

  private announceToken(book: TokenBook, before: TokenSnapshot, fields: TokenField[]): void {
    const after = this.snapshot(book);
    const changed = new Set<TokenField>(fields);
    if (after.holdersCount !== before.holdersCount) changed.add('holdersCount');
    if (after.top10 !== before.top10) changed.add('top10HoldersSupply');
    if (after.risk !== before.risk) changed.add('risk');
    if (changed.size > 0) this.emit({ kind: 'token', tokenAddress: book.profile.address, fields: [...changed] });
  }

  private emit(change: MarketChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        // A failing listener (a stream) must not undo or block the market's change.
        process.emitWarning(`market change listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  private findBook(address: string): TokenBook | null {
    const profile = this.byAddress.get(address);
    return profile ? this.bookOf(profile) : null;
  }

  private requireBook(address: string): TokenBook {
    const book = typeof address === 'string' ? this.findBook(address) : null;
    if (!book) throw new MarketMutationError('unknown-token', 'unknown token address');
    return book;
  }

  private bookOf(profile: TokenProfile): TokenBook {
    let book = this.books[profile.index];
    if (!book) {
      book = generateHistory(profile, this.historyContext);
      this.books[profile.index] = book;
      for (const wallet of book.byWallet.keys()) this.indexWallet(wallet, profile.index);
    }
    return book;
  }

  private generateAll(): void {
    for (const profile of this.profile.tokens) this.bookOf(profile);
  }

  private indexWallet(wallet: string, tokenIndex: number): void {
    const tokens = this.walletTokens.get(wallet);
    if (!tokens) this.walletTokens.set(wallet, [tokenIndex]);
    else if (!tokens.includes(tokenIndex)) tokens.push(tokenIndex);
  }
}

function newestFirst(trades: WireTrade[]): WireTrade[] {
  return trades.sort(
    (a, b) =>
      b.timestamp - a.timestamp ||
      (a.makerData.tokenAddress < b.makerData.tokenAddress ? -1 : a.makerData.tokenAddress > b.makerData.tokenAddress ? 1 : 0) ||
      b.transactionIndex - a.transactionIndex ||
      (a.transactionHash < b.transactionHash ? -1 : 1),
  );
}
