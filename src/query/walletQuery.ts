/**
 * /wallet: what some wallets traded across every token (spec §4.6). Token names and decimals come
 * from the answer's metadata; tokens it does not describe are looked up together in one batched
 * token-data call, and a failed look-up leaves those tokens to show by address.
 */
import type { Card } from '../cards/card';
import { completeWith, isComplete, metadataFor, tokenInfoFrom, tradeToken, type TokenInfo } from '../cards/tradeFacts';
import { buildWalletCard } from '../cards/walletCard';
import type { MarketClient } from '../market/client';
import { isAddress } from '../market/address';
import type { TradeHistory } from '../market/schemas';
import { distinctWallets } from './tradesQuery';

async function tokenInfos(client: MarketClient, history: TradeHistory): Promise<Map<string, TokenInfo>> {
  const infos = new Map<string, TokenInfo>();
  for (const trade of history.tradeHistory) {
    const address = tradeToken(trade);
    if (!infos.has(address)) infos.set(address, tokenInfoFrom(address, metadataFor(history.tokensMetadata, address)));
  }
  const missing = [...infos.values()].filter((info) => !isComplete(info) && isAddress(info.address)).map((info) => info.address);
  if (missing.length === 0) return infos;
  try {
    const found = await client.tokens(missing);
    for (const [address, token] of found) {
      const info = infos.get(address);
      if (info) infos.set(address, completeWith(info, token));
    }
  } catch {
    // The trades are the answer; names are a nicety that can wait for the next call.
  }
  return infos;
}

export async function walletCard(client: MarketClient, wallets: string[], now: Date): Promise<Card> {
  const { value: history, unreadable } = await client.readWalletTrades(wallets);
  const tokens = await tokenInfos(client, history);
  return buildWalletCard({ wallets: distinctWallets(wallets), history, tokens, now, unreadable });
}
