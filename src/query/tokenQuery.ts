/**
 * /token: the token and a SOL→USD rate, fetched side by side, then the token card. An unknown
 * token fails as the client's `not-found`; a missing rate only leaves the card in SOL.
 */
import type { Card } from '../cards/card';
import { buildTokenCard } from '../cards/tokenCard';
import type { MarketClient } from '../market/client';
import { freshSolUsdRate, solUsdRate } from './usdRate';

export async function tokenCard(client: MarketClient, address: string, now: Date): Promise<Card> {
  // A rate read in the last minute serves as it is: the look-up then waits for the token alone.
  const fresh = freshSolUsdRate(client);
  if (fresh !== null) return buildTokenCard({ token: await client.token(address), solUsd: fresh, now });
  const [token, solUsd] = await Promise.all([client.token(address), solUsdRate(client, address)]);
  return buildTokenCard({ token, solUsd, now });
}
