/**
 * /token: the token and a SOL→USD rate, fetched side by side, then the token card. An unknown
 * token fails as the client's `not-found`; a missing rate only leaves the card in SOL.
 */
import type { Card } from '../cards/card';
import { buildTokenCard } from '../cards/tokenCard';
import type { MarketClient } from '../market/client';
import { solUsdRate } from './usdRate';

export async function tokenCard(client: MarketClient, address: string, now: Date): Promise<Card> {
  const [token, solUsd] = await Promise.all([client.token(address), solUsdRate(client, address)]);
  return buildTokenCard({ token, solUsd, now });
}
