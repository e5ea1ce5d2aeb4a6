/**
 * /technicals: the token first (for its name, decimals and supply, and to know it exists), then
 * its technicals. The token-technicals budget is the scarce one (the service allows 100 a minute
 * for the whole bot), so an address the service does not know is answered from token-data alone
 * and spends none of it, nor any of the chat's share; `spend` takes the chat's share just before
 * the technicals are asked. A token-data failure of another kind only costs the card its names.
 */
import type { Card } from '../cards/card';
import { buildTechnicalsCard } from '../cards/technicalsCard';
import type { MarketClient } from '../market/client';
import { isMarketError } from '../market/errors';

export async function technicalsCard(client: MarketClient, address: string, now: Date, spend: () => void = () => undefined): Promise<Card> {
  const token = await client.token(address).catch((error: unknown) => {
    if (isMarketError(error) && (error.kind === 'not-found' || error.kind === 'invalid-address')) throw error;
    return null;
  });
  spend();
  const technicals = await client.readTechnicals(address);
  return buildTechnicalsCard({ address, technicals: technicals.value, token, now, unreadable: technicals.unreadable });
}
