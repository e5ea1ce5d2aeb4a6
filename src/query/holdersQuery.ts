/**
 * /holders: the holders under the asked order and the token (decimals, symbol, supply), fetched
 * side by side. A sort order the service does not take is refused before any request.
 */
import type { Card } from '../cards/card';
import { DEFAULT_HOLDER_SORT, HOLDER_SORTS, buildHoldersCard, isHolderSort } from '../cards/holdersCard';
import type { MarketClient } from '../market/client';
import { MarketError } from '../market/errors';

export async function holdersCard(client: MarketClient, address: string, sortBy: string | undefined, now: Date): Promise<Card> {
  const sort = sortBy?.trim() || DEFAULT_HOLDER_SORT;
  if (!isHolderSort(sort)) {
    throw new MarketError({
      kind: 'invalid-parameter',
      endpoint: 'holders-history',
      userMessage: `Holders can be sorted by ${HOLDER_SORTS.map((s) => s.value).join(', ')}.`,
    });
  }
  // The service's default order is balance (spec §4.3); asking without sortBy shares the cached
  // answer with the other look-ups that read the largest holders.
  const options = sort === DEFAULT_HOLDER_SORT ? {} : { sortBy: sort };
  const [token, holders] = await Promise.all([client.token(address), client.readHolders(address, options)]);
  return buildHoldersCard({ token, holders: holders.value, unreadable: holders.unreadable, sortBy: sort, now });
}
