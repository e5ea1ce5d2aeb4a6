/**
 * A followed wallet bought or sold: every trade newer than the newest the wallet's snapshot has
 * seen (by timestamp; within the newest second, by the trade ids seen in it). First sight of a
 * wallet is its baseline.
 *
 * A trade dated well before the wallet was last looked at (TRADE_LATE_MS) is not news even when
 * no snapshot had it: it was there to be seen then. A feed that shows only a wallet's latest 20
 * trades can leave older ones out of a baseline, and a later full read (wallet-tracker) must not
 * alert them hours late. Trades missed while a socket was down are newer than that look, and alert.
 *
 * Key: the wallet and the trade (transaction hash and log index), the same on trades-live and in
 * wallet-tracker's answer. The follow's minimum USD and side are applied by the fan-out.
 */
import { tradedToken } from '../../market/stream/decode';
import type { Trade } from '../../market/schemas';
import type { TokenRef, WalletTradeEvent } from '../../model/events';
import { WSOL, tradeId } from '../snapshot';
import { type WalletSnapshot } from '../../model/snapshot';
import { eventKey } from './key';

/** What the watcher knows of the traded token (its name and decimals for the card), or the bare address. */
export type TokenNamer = (address: string) => { token: TokenRef; decimals: number | null };

export const bareTokenRef: TokenNamer = (address) => ({ token: { address, symbol: '', name: '' }, decimals: null });

/** How late a trade may be reported (indexing lag) and still be news. */
export const TRADE_LATE_MS = 10 * 60_000;

export function isNewTrade(last: WalletSnapshot, trade: Trade): boolean {
  if (trade.timestamp * 1000 < last.seenAt - TRADE_LATE_MS) return false;
  if (last.newestTimestamp === null) return true;
  if (trade.timestamp > last.newestTimestamp) return true;
  if (trade.timestamp < last.newestTimestamp) return false;
  const id = tradeId(trade);
  return last.newestIds ? !last.newestIds.includes(id) : id !== last.newestTrade;
}

export function walletTradeEvent(wallet: string, trade: Trade, name: TokenNamer, at: number): WalletTradeEvent {
  const token = tradedToken(trade);
  const side = trade.tokenOut === token ? 'buy' : 'sell';
  const tokenAmount = side === 'buy' ? trade.amountOut : trade.amountIn;
  const nativeAmount = trade.tokenIn === WSOL ? trade.amountIn : trade.tokenOut === WSOL ? trade.amountOut : null;
  const named = name(token);
  return {
    kind: 'wallet-trade',
    key: eventKey('wallet-trade', wallet, [trade.transactionHash, trade.logIndex ?? 0]),
    at,
    token: named.token,
    wallet,
    side,
    tokenAmount: tokenAmount.toString(),
    decimals: named.decimals,
    nativeAmount: nativeAmount === null ? null : nativeAmount.toString(),
    amountUsd: trade.amountUSD,
    price: trade.suspectedBaseTokenPrice,
    transactionHash: trade.transactionHash,
    timestamp: trade.timestamp,
  };
}

export function detectWalletTrades(last: WalletSnapshot | null, wallet: string, trades: readonly Trade[], at: number, name: TokenNamer = bareTokenRef): WalletTradeEvent[] {
  if (last === null) return [];
  const seen = new Set<string>();
  const events: WalletTradeEvent[] = [];
  // Oldest first, so alerts arrive in the order the trades happened.
  for (const trade of [...trades].sort((a, b) => a.timestamp - b.timestamp)) {
    if (!isNewTrade(last, trade)) continue;
    const id = tradeId(trade);
    if (seen.has(id)) continue;
    seen.add(id);
    events.push(walletTradeEvent(wallet, trade, name, at));
  }
  return events;
}
