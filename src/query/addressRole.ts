/**
 * Whether an address is a wallet, for the answers to a mistake (`/track ADDR` with no kind, a
 * wallet looked up with `/token`): one wallet-tracker request, cached as every look-up is. An
 * address that made trades is a wallet (a token's mint never trades as a maker); one with none is
 * not known to be one, and the answers then take it for a token, the more common paste. A failed
 * request answers false: a hint is not worth an error.
 */
import type { MarketClient } from '../market/client';

export async function isWallet(client: MarketClient, address: string): Promise<boolean> {
  try {
    const trades = await client.walletTrades([address]);
    return trades.tradeHistory.length > 0;
  } catch {
    // The client has logged the failure (its own warn line); the answer goes out without the hint.
    return false;
  }
}
