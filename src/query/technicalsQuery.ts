/**
 * /technicals: the technicals and the token (for its name, decimals and supply), fetched side by
 * side. The technicals are the answer, so their failure is the card's failure; the token only
 * adds names and amounts, so without it the card is still built.
 */
import type { Card } from '../cards/card';
import { buildTechnicalsCard } from '../cards/technicalsCard';
import type { MarketClient } from '../market/client';

export async function technicalsCard(client: MarketClient, address: string, now: Date): Promise<Card> {
  const [technicals, token] = await Promise.all([
    client.readTechnicals(address),
    client.token(address).catch(() => null),
  ]);
  return buildTechnicalsCard({ address, technicals: technicals.value, token, now, unreadable: technicals.unreadable });
}
