/**
 * Turns the ledger's state into the spec's JSON objects (§2.2–2.7). Only this file decides how a
 * number is written on the wire: integer text, decimal text or a JSON number, as the spec's
 * tables type each field.
 */
import type { LedgerEntry, Maker, PoolState, Position, TokenBook, TradeEntry } from './ledger';
import type { WireHolder, WireLiquidityPool, WireMakerData, WireToken, WireTokenMetadata, WireTrade } from './wireTypes';
import { applyToPosition, emptyPosition, poolPriceSol, tagsOf } from './ledger';
import type { TokenProfile } from './profiles';
import { Prng, mixSeed } from './random';
import { riskStatusOf } from './risk';
import {
  CHAIN_ID,
  LAMPORTS_PER_SOL,
  TOKEN_DECIMALS,
  TOKEN_UNIT,
  WRAPPED_SOL_MINT,
  WSOL_DECIMALS,
  intText,
  isoAt,
  plainDecimal,
  rawNumber,
  rawText,
  solPerToken,
  slotAt,
  lamportsText,
  usdDecimalText,
} from './units';

/** The token's decimals on the wire: the ledger's, plus the extra ones of a 9-decimal token (vendor protocol). */
export function decimalsOf(profile: TokenProfile): number {
  return TOKEN_DECIMALS + profile.extraDecimals;
}

export function poolView(pool: PoolState, profile: TokenProfile, now: number): WireLiquidityPool {
  const price = poolPriceSol(pool);
  const tokenAddress = profile.address;
  return {
    chainId: CHAIN_ID,
    pairId: `${pool.address}_${CHAIN_ID}`,
    poolAddress: pool.address,
    token0Address: tokenAddress,
    token1Address: WRAPPED_SOL_MINT,
    token0Decimals: decimalsOf(profile),
    token1Decimals: WSOL_DECIMALS,
    protocol: pool.protocol,
    syncedAt: isoAt(now),
    creationBlockNumber: slotAt(pool.createdAt),
    creationBlockTimestamp: pool.createdAt,
    suspectedBaseTokenPrice: plainDecimal(price),
    suspectedQuoteTokenPrice: price > 0 ? plainDecimal(1 / price) : '0',
    suspectedBaseTokenReserves: rawText(pool.base, profile.extraDecimals),
    suspectedQuoteTokenReserves: intText(pool.quote),
  };
}

export function tokenView(book: TokenBook, now: number): WireToken {
  const profile = book.profile;
  const pools: Record<string, WireLiquidityPool> = {};
  const extra = profile.extraDecimals;
  for (const pool of book.pools) if (pool.createdAt <= now) pools[pool.address] = poolView(pool, profile, now);
  return {
    id: `${profile.address}_${CHAIN_ID}`,
    chainId: CHAIN_ID,
    address: profile.address,
    decimals: decimalsOf(profile),
    name: profile.name,
    symbol: profile.symbol,
    syncedAt: isoAt(now),
    description: profile.description,
    isVerifiedSourceCode: profile.isVerifiedSourceCode,
    partnerStats: profile.partnerStats ? { ...profile.partnerStats } : null,
    ownerAddress: profile.ownerAddress,
    totalSupply: rawText(profile.totalSupply, extra),
    logo: profile.logo,
    website: profile.website,
    deployerAddress: profile.deployer,
    creationBlockNumber: slotAt(book.createdAt),
    creationBlockTimestamp: book.createdAt,
    holdersCount: String(book.holdersCount()),
    version: profile.version,
    liquidityPools: pools,
    riskAnalysis: {
      isMutable: book.risk.isMutable,
      ownerBalance: rawText(book.holdingOf(profile.ownerAddress), extra),
      mintAuthority: book.risk.mintAuthority,
      freezeAuthority: book.risk.freezeAuthority,
      updateAuthority: book.risk.updateAuthority,
    },
    riskStatus: riskStatusOf(book),
    links: { ...profile.links },
    top10HoldersSupply: profile.hostile?.top10Null ? null : rawText(book.topHoldersSupply(10), extra),
    origin: profile.origin,
    image: profile.image,
  };
}

export function metadataView(profile: TokenProfile): WireTokenMetadata {
  return { address: profile.address, name: profile.name, symbol: profile.symbol, decimals: decimalsOf(profile), logo: profile.logo };
}

export function holderView(book: TokenBook, maker: Maker, now: number, nativeBalance: number): WireHolder {
  const p = maker.position;
  const extra = book.profile.extraDecimals;
  return {
    chainId: CHAIN_ID,
    tokenAddress: book.profile.address,
    address: maker.wallet,
    currentlyHoldingAmount: rawText(p.holding, extra),
    holderSince: p.since,
    totalBoughtAmount: rawNumber(p.boughtAmount, extra),
    totalBoughtETH: p.boughtLamports / LAMPORTS_PER_SOL,
    totalBuyTransactions: p.buys,
    totalSellTransactions: p.sells,
    totalSoldAmount: rawNumber(p.soldAmount, extra),
    totalBoughtUSD: roundUsd(p.boughtUsd),
    totalSoldUSD: roundUsd(p.soldUsd),
    totalSoldETH: p.soldLamports / LAMPORTS_PER_SOL,
    sent: rawText(p.sent, extra),
    received: rawNumber(p.received, extra),
    tags: tagsOf(book, maker),
    syncedAt: isoAt(now),
    nativeBalance: intText(nativeBalance),
  };
}

function roundUsd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

export function makerDataView(book: TokenBook, maker: Maker, position: Position): WireMakerData {
  const extra = book.profile.extraDecimals;
  return {
    chainId: CHAIN_ID,
    address: maker.wallet,
    tokenAddress: book.profile.address,
    currentlyHoldingAmount: rawText(position.holding, extra),
    holderSince: position.since,
    totalBoughtAmount: rawText(position.boughtAmount, extra),
    totalBoughtUSD: usdDecimalText(position.boughtUsd),
    totalBoughtETH: lamportsText(position.boughtLamports),
    totalBuyTransactions: position.buys,
    totalSellTransactions: position.sells,
    totalSoldAmount: rawText(position.soldAmount, extra),
    totalSoldUSD: usdDecimalText(position.soldUsd),
    totalSoldETH: lamportsText(position.soldLamports),
    sent: rawText(position.sent, extra),
    received: rawText(position.received, extra),
    tags: tagsOf(book, maker, position.holding),
  };
}

/** A trade's signature, derived from the seed, the token and the trade's sequence number. */
export function transactionHash(seed: number, tokenIndex: number, seq: number): string {
  return new Prng(mixSeed(seed, 4, tokenIndex, seq)).signature();
}

export interface TradeViewOptions {
  seed: number;
  /** Value the trade at this SOL-per-token price instead of the price it was made at (wallet-tracker). */
  currentPriceSol?: number;
}

export function tradeView(book: TokenBook, entry: TradeEntry, position: Position, options: TradeViewOptions): WireTrade {
  const profile = book.profile;
  const maker = book.makers.get(entry.wallet);
  if (!maker) throw new Error(`trade by an unknown maker in ${profile.address}`);
  const price = solPerToken(entry.lamports, entry.tokenAmount);
  const solUsd = book.solUsd;
  const valueSol =
    options.currentPriceSol === undefined ? entry.lamports / LAMPORTS_PER_SOL : (entry.tokenAmount / TOKEN_UNIT) * options.currentPriceSol;
  const buy = entry.side === 'buy';
  return {
    chainId: CHAIN_ID,
    blockTimestamp: entry.t,
    timestamp: entry.t,
    blockNumber: slotAt(entry.t),
    transactionHash: transactionHash(options.seed, profile.index, entry.seq),
    logIndex: entry.logIndex,
    transactionIndex: entry.txIndex,
    tokenIn: buy ? WRAPPED_SOL_MINT : profile.address,
    tokenOut: buy ? profile.address : WRAPPED_SOL_MINT,
    amountIn: buy ? intText(entry.lamports) : rawText(entry.tokenAmount, profile.extraDecimals),
    amountOut: buy ? rawText(entry.tokenAmount, profile.extraDecimals) : intText(entry.lamports),
    amountUSD: usdDecimalText(valueSol * solUsd),
    suspectedBaseTokenPrice: plainDecimal(price),
    suspectedBaseTokenPriceUSD: plainDecimal(price * solUsd),
    poolAddress: book.pools[entry.pool]?.address ?? '',
    makerData: makerDataView(book, maker, position),
    nativeBalance: intText(entry.nativeBalance),
  };
}

/**
 * The trades of one wallet in one token with each trade's makerData as it stood right after that
 * trade, oldest first. Replays the wallet's own ledger, which is short.
 */
export function walletTradeViews(book: TokenBook, wallet: string, options: TradeViewOptions): WireTrade[] {
  const entries: LedgerEntry[] = book.byWallet.get(wallet) ?? [];
  const position = emptyPosition(book.makers.get(wallet)?.position.since ?? 0);
  const out: WireTrade[] = [];
  for (const entry of entries) {
    applyToPosition(position, entry, wallet, book.solUsd);
    if (entry.kind === 'trade') out.push(tradeView(book, entry, { ...position }, options));
  }
  return out;
}
