/**
 * What a chat's daily watchlist says, read from the service at the time it is made: each token's
 * price, liquidity and risk status (token-data, 100 tokens a request), its 24h change and volume
 * (the day's 5-minute candles, as /token reads them), and each wallet's trades in the 24 hours
 * before (wallet-tracker, 50 wallets a request), counted and summed in USD. A token or wallet that
 * cannot be read is counted, not guessed; nothing here throws for one of them.
 */
import type { WatchlistToken, WatchlistWallet } from '../alerts/kinds/dailyDigest';
import { marketMoves } from '../cards/marketMoves';
import { liquiditySol, poolsByLiquidity, priceSol, toUsd } from '../cards/tokenFacts';
import type { MarketClient } from '../market/client';
import type { Token, Trade } from '../market/schemas';
import { tradedToken } from '../market/stream/decode';
import { candlesForMoves } from './tokenQuery';
import { solUsdRate } from './usdRate';

const TOKENS_PER_REQUEST = 100;
const WALLETS_PER_REQUEST = 50;
const DAY_MS = 24 * 60 * 60_000;

export interface Watchlist {
  /** Highest 24h change first; tokens without one after them. */
  tokens: WatchlistToken[];
  tokensUnread: number;
  wallets: WatchlistWallet[];
  walletsUnread: number;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) out.push(items.slice(index, index + size));
  return out;
}

async function readTokens(
  client: MarketClient,
  addresses: readonly string[],
  now: Date,
): Promise<{ tokens: WatchlistToken[]; unread: number }> {
  if (addresses.length === 0) return { tokens: [], unread: 0 };
  const found = new Map<string, Token>();
  for (const batch of chunks(addresses, TOKENS_PER_REQUEST)) {
    try {
      for (const [address, token] of await client.tokenBatch([...batch])) found.set(address, token);
    } catch {
      // Counted below as unread.
    }
  }
  const [first] = found.keys();
  const rate = first === undefined ? null : await solUsdRate(client, first);
  const tokens = await Promise.all(
    [...found.values()].map(async (token): Promise<WatchlistToken> => {
      const pools = poolsByLiquidity(token);
      const priceNative = priceSol(pools);
      const candles = await candlesForMoves(client, token.address, now);
      const day = candles === null ? null : marketMoves(candles, now.getTime(), token.creationBlockTimestamp);
      const change = day?.changes.find((window) => window.label === '24h');
      return {
        address: token.address,
        symbol: token.symbol,
        name: token.name,
        priceNative,
        priceUsd: toUsd(priceNative, rate),
        change24hPct: change?.kind === 'change' ? change.pct : null,
        ageSecs: change?.kind === 'younger' ? change.ageSecs : null,
        volumeSol: day === null ? null : day.volume24h.sol,
        liquiditySol: liquiditySol(pools),
        solUsd: rate,
        riskStatus: token.riskStatus,
      };
    }),
  );
  return { tokens, unread: addresses.length - found.size };
}

/** Each wallet's trades by their maker (with one wallet asked, every trade is its own). */
function tradesOf(wallet: string, asked: readonly string[], trades: readonly Trade[]): Trade[] {
  return trades.filter((trade) => (asked.length === 1 ? true : trade.makerData?.address === wallet));
}

async function readWallets(
  client: MarketClient,
  wallets: ReadonlyArray<{ address: string; label: string | null }>,
  now: Date,
): Promise<{ wallets: WatchlistWallet[]; unread: number }> {
  const since = (now.getTime() - DAY_MS) / 1000;
  const out: WatchlistWallet[] = [];
  let unread = 0;
  for (const batch of chunks(wallets, WALLETS_PER_REQUEST)) {
    const asked = batch.map((wallet) => wallet.address);
    let trades: readonly Trade[];
    try {
      trades = (await client.walletTrades([...asked])).tradeHistory;
    } catch {
      unread += batch.length;
      continue;
    }
    for (const wallet of batch) {
      const day = tradesOf(wallet.address, asked, trades).filter(
        (trade) => trade.timestamp >= since && trade.timestamp * 1000 <= now.getTime(),
      );
      const valued = day.filter((trade) => trade.amountUSD !== null);
      // A buy pays SOL for the token: the token comes out of the swap.
      const buys = day.filter((trade) => trade.tokenOut === tradedToken(trade)).length;
      out.push({
        address: wallet.address,
        label: wallet.label,
        buys,
        sells: day.length - buys,
        usd: valued.length === 0 ? null : valued.reduce((sum, trade) => sum + (trade.amountUSD ?? 0), 0),
      });
    }
  }
  return { wallets: out, unread };
}

/** Highest change first; a token with no change (unknown, or younger than a day) after every one that has one. */
function byChange(a: WatchlistToken, b: WatchlistToken): number {
  if (a.change24hPct === null || b.change24hPct === null) return a.change24hPct === null ? (b.change24hPct === null ? 0 : 1) : -1;
  return b.change24hPct - a.change24hPct;
}

export async function watchlist(
  client: MarketClient,
  follows: { tokens: readonly string[]; wallets: ReadonlyArray<{ address: string; label: string | null }> },
  now: Date,
): Promise<Watchlist> {
  const [tokens, wallets] = await Promise.all([readTokens(client, follows.tokens, now), readWallets(client, follows.wallets, now)]);
  return {
    tokens: [...tokens.tokens].sort(byChange),
    tokensUnread: tokens.unread,
    wallets: wallets.wallets,
    walletsUnread: wallets.unread,
  };
}
