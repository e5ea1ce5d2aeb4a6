/**
 * The vendor protocol's stream data (trades-live, chart-live, holders-live), in the shapes of the
 * vendor's pages (shared/spec/real-service.md): built from the same ledger as REST, so a stream
 * event and a REST read after the same change agree. Raw token amounts are bigint here and are
 * written with every digit (jsonText.ts); the chart's prices are USD per whole token, as the
 * vendor's example behaves, where REST chart-history gives SOL.
 */
import type { Maker, TradeEntry, TokenBook } from './ledger';
import { tagsOf } from './ledger';
import type { VendorActivity, VendorCandle, VendorHolderEvent, VendorTradeEvent } from './vendorWireTypes';
import type { WireTrade } from './wireTypes';
import { LAMPORTS_PER_SOL, WRAPPED_SOL_MINT, intText, isoAt, rawBigInt, rawText, solPerToken, usdDecimalText } from './units';

/** Prices with more digits than this are noise of the arithmetic, not of the market. */
function price(value: number): number {
  return Number(value.toPrecision(12));
}

/** A trade as trades-live sends it; `protocol` is the vendor's name of the pool's exchange. No maker wallet: the vendor's has none. */
export function vendorTradeEvent(trade: WireTrade, protocol: string): VendorTradeEvent {
  const buy = trade.tokenOut === trade.makerData.tokenAddress;
  return {
    event: 'trade',
    timestamp: trade.timestamp,
    datetime: isoAt(trade.timestamp),
    tokenAddress: trade.makerData.tokenAddress,
    quoteToken: WRAPPED_SOL_MINT,
    type: buy ? 'BUY' : 'SELL',
    price: { sol: Number(trade.suspectedBaseTokenPrice), usd: Number(trade.suspectedBaseTokenPriceUSD) },
    amount: {
      token: BigInt(buy ? trade.amountOut : trade.amountIn),
      quote: BigInt(buy ? trade.amountIn : trade.amountOut),
      usd: Number(trade.amountUSD),
    },
    transaction: { hash: trade.transactionHash, blockNumber: trade.blockNumber },
    market: { protocol, poolAddress: trade.poolAddress },
  };
}

/**
 * The current candle at `timeframe` seconds: the interval of the latest trade, from its start to
 * that trade (chart-history's alignment); null before any trade.
 */
export function vendorCandle(book: TokenBook, timeframe: number): VendorCandle | null {
  const trades: readonly TradeEntry[] = book.trades;
  const last = trades[trades.length - 1];
  if (!last) return null;
  const start = Math.floor(last.t / timeframe) * timeframe;
  let first = trades.length - 1;
  while (first > 0 && (trades[first - 1]?.t ?? -Infinity) >= start) first--;
  const solUsd = book.solUsd;
  let open = 0;
  let high = -Infinity;
  let low = Infinity;
  let close = 0;
  let units = 0;
  let lamports = 0;
  let buys = 0;
  for (let i = first; i < trades.length; i++) {
    const trade = trades[i];
    if (!trade) continue;
    const usd = solPerToken(trade.lamports, trade.tokenAmount) * solUsd;
    if (i === first) open = usd;
    high = Math.max(high, usd);
    low = Math.min(low, usd);
    close = usd;
    units += trade.tokenAmount;
    lamports += trade.lamports;
    if (trade.side === 'buy') buys++;
  }
  const count = trades.length - first;
  return {
    time: start * 1000,
    datetime: isoAt(start),
    open: price(open),
    high: price(high),
    low: price(low),
    close: price(close),
    volume: rawBigInt(units, book.profile.extraDecimals),
    volumeUsd: Number(usdDecimalText((lamports / LAMPORTS_PER_SOL) * solUsd)),
    trades: count,
    buys,
    sells: count - buys,
  };
}

function activity(amount: number, usd: number, transactions: number, extraDecimals: number): VendorActivity {
  return { amount: rawText(amount, extraDecimals), usd: usdDecimalText(usd), transactions };
}

/** A wallet's holding as holders-live sends it. */
export function vendorHolderEvent(book: TokenBook, maker: Maker, now: number, nativeBalance: number): VendorHolderEvent {
  const p = maker.position;
  const extra = book.profile.extraDecimals;
  return {
    event: 'holder',
    address: maker.wallet,
    tokenAddress: book.profile.address,
    currentAmount: rawText(p.holding, extra),
    holderSince: isoAt(p.since),
    activity: {
      totalBought: activity(p.boughtAmount, p.boughtUsd, p.buys, extra),
      totalSold: activity(p.soldAmount, p.soldUsd, p.sells, extra),
    },
    tags: tagsOf(book, maker),
    nativeBalance: intText(nativeBalance),
    syncedAt: isoAt(now),
  };
}
