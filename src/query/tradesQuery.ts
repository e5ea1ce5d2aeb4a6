/**
 * /trades: the trades of some wallets in one token (spec §4.4). The token's name and decimals
 * come with the answer's metadata; a token-data look-up fills them only when the metadata lacks
 * them, and a failed look-up leaves the trades to show by address rather than losing them.
 */
import type { Card } from '../cards/card';
import { completeWith, isComplete, metadataFor, tokenInfoFrom, type TokenInfo } from '../cards/tradeFacts';
import { buildTradesCard } from '../cards/tradesCard';
import type { MarketClient } from '../market/client';
import type { TradeHistory } from '../market/schemas';

/** The wallets as typed, trimmed and without repeats, in the order given. */
export function distinctWallets(wallets: readonly string[]): string[] {
  return [...new Set(wallets.map((wallet) => wallet.trim()).filter((wallet) => wallet !== ''))];
}

async function tokenInfo(client: MarketClient, address: string, history: TradeHistory): Promise<TokenInfo> {
  const info = tokenInfoFrom(address, metadataFor(history.tokensMetadata, address));
  if (isComplete(info)) return info;
  try {
    return completeWith(info, await client.token(address));
  } catch {
    // The trades are the answer; a name is a nicety that can wait for the next call.
    return info;
  }
}

export async function tradesCard(client: MarketClient, tokenAddress: string, wallets: string[], now: Date): Promise<Card> {
  const address = tokenAddress.trim();
  const { value: history, unreadable } = await client.readTrades(address, wallets);
  const token = await tokenInfo(client, address, history);
  return buildTradesCard({ token, wallets: distinctWallets(wallets), history, now, unreadable });
}
