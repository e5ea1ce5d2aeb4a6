/**
 * Token technicals (spec §2.5) computed from the same ledger as holders and trades.
 *
 * - overtimeTechnicals: one point per hour over the last 24 hours, most recent first; point 0 is
 *   "now", point k is k hours earlier; points before the token existed are left out. Each point
 *   replays the ledger up to its time. Percentages use non-zero balances only, as the spec notes,
 *   and are shares of totalSupply (0–100).
 * - tokenStats: an array of one object (the current statistics).
 * - devMakerData: an object, the deployer's position in this token.
 * - initialBuyerStats: the first INITIAL_BUYERS wallets to buy after the deployer, in buying order.
 */
import type { TokenBook } from './ledger';
import type { WireInitialBuyer, WireTechnicals, WireTechnicalsPoint } from './wireTypes';
import { tagsOf } from './ledger';
import { CHAIN_ID, LAMPORTS_PER_SOL, isoAt, lamportsText, rawText, usdDecimalText } from './units';

export const TOP_HOLDER_BUCKETS = [10, 20, 50, 100] as const;
export const OVERTIME_POINTS = 24;
export const INITIAL_BUYERS = 20;

function round4(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}

function overtimePoints(book: TokenBook, now: number): WireTechnicalsPoint[] {
  const supply = book.profile.totalSupply;
  const times: number[] = [];
  for (let k = OVERTIME_POINTS - 1; k >= 0; k--) {
    const time = now - k * 3600;
    if (time >= book.createdAt) times.push(time);
  }
  const balances = new Map<string, number>();
  const points: WireTechnicalsPoint[] = [];
  let next = 0;
  for (const time of times) {
    while (next < book.entries.length && (book.entries[next]?.t ?? Infinity) <= time) {
      const entry = book.entries[next++];
      if (!entry) continue;
      if (entry.kind === 'trade') {
        const delta = entry.side === 'buy' ? entry.tokenAmount : -entry.tokenAmount;
        balances.set(entry.wallet, (balances.get(entry.wallet) ?? 0) + delta);
      } else {
        if (entry.from !== null) balances.set(entry.from, (balances.get(entry.from) ?? 0) - entry.amount);
        if (entry.to !== null) balances.set(entry.to, (balances.get(entry.to) ?? 0) + entry.amount);
      }
    }
    const holders = [...balances.entries()].filter(([, balance]) => balance > 0).sort((a, b) => b[1] - a[1]);
    const tags = new Set<string>();
    for (const [wallet, balance] of holders) {
      const maker = book.makers.get(wallet);
      if (maker) for (const tag of tagsOf(book, maker, balance)) tags.add(tag);
    }
    const topHoldersSupply: Record<string, string> = {};
    const topHoldersSupplyPerc: Record<string, number> = {};
    for (const n of TOP_HOLDER_BUCKETS) {
      const sum = holders.slice(0, n).reduce((total, [, balance]) => total + balance, 0);
      topHoldersSupply[String(n)] = rawText(sum, book.profile.extraDecimals);
      topHoldersSupplyPerc[String(n)] = round4((sum / supply) * 100);
    }
    points.push({
      id: `${book.profile.address}_${CHAIN_ID}_${time}`,
      contractAddress: book.profile.address,
      chainId: CHAIN_ID,
      syncedAt: isoAt(time),
      holdersCount: holders.length,
      tagsCount: tags.size,
      topHoldersSupply,
      topHoldersSupplyPerc,
    });
  }
  return points.reverse();
}

/** The first buyers with what each bought, in the ledger's units (the sum of initialTotalBoughtSupply is taken from these). */
function initialBuyers(book: TokenBook): Array<{ view: WireInitialBuyer; bought: number }> {
  const seen = new Set<string>();
  const buyers: Array<{ view: WireInitialBuyer; bought: number }> = [];
  const extra = book.profile.extraDecimals;
  for (const trade of book.trades) {
    if (buyers.length >= INITIAL_BUYERS) break;
    if (trade.side !== 'buy' || trade.wallet === book.profile.deployer || seen.has(trade.wallet)) continue;
    seen.add(trade.wallet);
    const maker = book.makers.get(trade.wallet);
    if (!maker) continue;
    const p = maker.position;
    buyers.push({
      view: {
        walletAddress: trade.wallet,
        initialBuyerType: p.soldAmount === 0 ? 'HOLD' : p.holding === 0 ? 'SELL_ALL' : 'SELL_PARTIAL',
        sniper: maker.sniper,
        buyAmount: rawText(p.boughtAmount, extra),
        sellAmount: p.soldAmount > 0 ? rawText(p.soldAmount, extra) : null,
      },
      bought: p.boughtAmount,
    });
  }
  return buyers;
}

export function computeTechnicals(book: TokenBook, now: number): WireTechnicals {
  const profile = book.profile;
  const dev = book.makers.get(profile.deployer)?.position;
  const buyers = initialBuyers(book);
  const devSold = dev?.soldAmount ?? 0;
  const extra = profile.extraDecimals;
  return {
    overtimeTechnicals: overtimePoints(book, now),
    tokenStats: [
      {
        devDeployedTokens: [...profile.devOtherTokens],
        devDeployedTokensCount: profile.devOtherTokens.length,
        isDevRug: profile.devHasRugged,
        isDevNew: profile.devOtherTokens.length === 0,
        devSoldSupply: rawText(devSold, extra),
        devSoldSupplyPerc: round4((devSold / profile.totalSupply) * 100),
        initialTotalBoughtSupply: rawText(
          buyers.reduce((sum, buyer) => sum + buyer.bought, 0),
          extra,
        ),
        priceNative: book.spotPriceSol(),
        liquidityNative: book.liquidityLamports() / LAMPORTS_PER_SOL,
      },
    ],
    devMakerData: {
      totalBoughtAmount: rawText(dev?.boughtAmount ?? 0, extra),
      totalSoldAmount: rawText(devSold, extra),
      totalBoughtETH: lamportsText(dev?.boughtLamports ?? 0),
      totalSoldETH: lamportsText(dev?.soldLamports ?? 0),
      totalSoldUSD: usdDecimalText(dev?.soldUsd ?? 0),
      totalBuyTransactions: dev?.buys ?? 0,
      totalSellTransactions: dev?.sells ?? 0,
    },
    initialBuyerStats: buyers.map((buyer) => buyer.view),
  };
}
