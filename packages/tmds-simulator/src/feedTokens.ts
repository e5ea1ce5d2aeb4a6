/**
 * token-feed's tokens in the vendor protocol: the market-wide feed of new tokens, each with the
 * figures the vendor's page lists (shared/spec/real-service.md), figures a filter set
 * (feedFilters.ts) can be applied to. Counts and volumes are over the last 24 hours; USD amounts
 * at the market's SOL price; liquidity counts both sides of every pool.
 */
import type { TokenBook } from './ledger';
import type { VendorFeedToken } from './vendorWireTypes';
import { LAMPORTS_PER_SOL, TOKEN_UNIT, isoAt, plainDecimal } from './units';
import { vendorOriginName } from './vendorToken';
import { realLinks } from './wireStyle';

/** A token is new to the feed for this long after its creation. */
export const FEED_WINDOW_SECS = 24 * 3600;
/** The most tokens one feed message lists, newest first. */
export const FEED_MAX_TOKENS = 50;

function cents(value: number): number {
  return Math.round(value * 100) / 100;
}

function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 100 * 1e4) / 1e4 : 0;
}

/** The token as token-feed lists it at `now`; `protocol` is the vendor's name of its deepest pool's exchange. */
export function feedToken(book: TokenBook, now: number, protocol: string): VendorFeedToken {
  const profile = book.profile;
  const solUsd = book.solUsd;
  let buys = 0;
  let sells = 0;
  let buyLamports = 0;
  let sellLamports = 0;
  for (let i = book.trades.length - 1; i >= 0; i--) {
    const trade = book.trades[i];
    if (!trade || trade.t < now - FEED_WINDOW_SECS) break;
    if (trade.side === 'buy') {
      buys++;
      buyLamports += trade.lamports;
    } else {
      sells++;
      sellLamports += trade.lamports;
    }
  }
  let bots = 0;
  let snipers = 0;
  let insiderHolding = 0;
  for (const maker of book.makers.values()) {
    if (maker.bot) bots++;
    if (maker.sniper) snipers++;
    if (maker.insider) insiderHolding += maker.position.holding;
  }
  const usdOf = (lamports: number) => (lamports / LAMPORTS_PER_SOL) * solUsd;
  const priceUsd = book.spotPriceSol() * solUsd;
  const supply = profile.totalSupply;
  const links = realLinks(profile.links);
  return {
    address: profile.address,
    name: profile.name,
    symbol: profile.symbol,
    buys,
    sells,
    totalTxns: buys + sells,
    buyVolume: cents(usdOf(buyLamports)),
    sellVolume: cents(usdOf(sellLamports)),
    totalVolume: cents(usdOf(buyLamports + sellLamports)),
    price: `$${plainDecimal(priceUsd, 10)}`,
    timestamp: isoAt(now),
    createdAt: isoAt(book.createdAt),
    type: vendorOriginName(profile.origin),
    protocol,
    isDevRug: profile.devHasRugged,
    holders: book.holdersCount(),
    socialsCount: Object.keys(links).length,
    botsTotalCount: bots,
    sniperWalletsCount: snipers,
    buyTax: 0,
    sellTax: 0,
    links,
    liquidityUSD: cents(2 * usdOf(book.liquidityLamports())),
    marketCapUSD: cents((supply / TOKEN_UNIT) * priceUsd),
    devHoldingSupplyPerc: percent(book.holdingOf(profile.deployer), supply),
    top10HoldersSupplyPerc: profile.hostile?.top10Null ? null : percent(book.topHoldersSupply(10), supply),
    insiderWalletsSupplyPerc: percent(insiderHolding, supply),
  };
}
