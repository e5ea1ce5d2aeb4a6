/**
 * A wallet is read from the service before it is followed: an address the service refuses is
 * never followed (it would hold a live subscription for nothing), and an answer the bot cannot read
 * fails the follow, as every look-up that cannot be read does. An address with no trades yet is a wallet all the same:
 * it may be followed, and counts against the chat's share like any other.
 */
import type { MarketClient } from '../market/client';
import { isMarketError } from '../market/errors';
import type { Trade } from '../market/schemas';
import { UsageError } from '../usage';

/**
 * The wallet's recent trades, read fresh: the follow takes them as its baseline (a trade the
 * service shows after this read is news, one before it is not: follows/walletBaseline.ts).
 */
export async function checkWallet(client: MarketClient, address: string): Promise<Trade[]> {
  try {
    return (await client.freshWalletTrades([address])).tradeHistory;
  } catch (error) {
    if (isMarketError(error) && (error.kind === 'invalid-address' || error.kind === 'invalid-parameter' || error.kind === 'not-found')) {
      throw new UsageError(
        'the market data service does not know this wallet address',
        null,
        `It refused ${address} as a wallet address, so nothing was followed. Check that it is the whole address of a Solana wallet.`,
      );
    }
    throw error;
  }
}
