/**
 * A token's USD price and market cap now, as its card shows them (the deepest SOL pool's price at
 * the SOL→USD rate, times the total supply): what `/target` compares a new target with. An unknown
 * token fails as the client's `not-found`; without a rate both figures are null.
 */
import { marketCapSol, poolsByLiquidity, priceSol, supplyTokens, tokenTitle, toUsd } from '../cards/tokenFacts';
import type { MarketClient } from '../market/client';
import { freshSolUsdRate, solUsdRate } from './usdRate';

export interface TokenValue {
  /** "Name (SYM)", cleaned. */
  title: string;
  priceUsd: number | null;
  marketCapUsd: number | null;
}

export async function tokenValue(client: MarketClient, address: string): Promise<TokenValue> {
  const fresh = freshSolUsdRate(client);
  const [token, solUsd] = await Promise.all([client.token(address), fresh === null ? solUsdRate(client, address) : Promise.resolve(fresh)]);
  const price = priceSol(poolsByLiquidity(token));
  return {
    title: tokenTitle(token),
    priceUsd: toUsd(price, solUsd),
    marketCapUsd: toUsd(marketCapSol(price, supplyTokens(token)), solUsd),
  };
}
