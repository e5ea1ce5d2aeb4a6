/**
 * The one query service behind every chat: each method fetches what a question needs from the
 * market data client and answers with a platform-neutral Card. A failure of the service, or input
 * that cannot be answered, is thrown as it is (a MarketError says which): the Dispatcher turns it
 * into an error card and logs it under the same error id.
 */
import type { Card } from '../cards/card';
import type { MarketClient } from '../market/client';
import { chartCard, type ChartQuery } from './chartQuery';
import { holdersCard } from './holdersQuery';
import { technicalsCard } from './technicalsQuery';
import { tokenCard } from './tokenQuery';
import { tokenValue, type TokenValue } from './tokenValue';
import { tradesCard } from './tradesQuery';
import { walletCard } from './walletQuery';
import { checkWallet } from './walletCheck';

export type { ChartQuery };

export class QueryService {
  constructor(
    readonly client: MarketClient,
    private readonly now: () => Date = () => new Date(),
  ) {}

  token(address: string): Promise<Card> {
    return tokenCard(this.client, address, this.now());
  }

  /** The token's USD price and market cap now (for a new target); not a card. */
  tokenValue(address: string): Promise<TokenValue> {
    return tokenValue(this.client, address);
  }

  technicals(address: string): Promise<Card> {
    return technicalsCard(this.client, address, this.now());
  }

  holders(address: string, sortBy?: string): Promise<Card> {
    return holdersCard(this.client, address, sortBy, this.now());
  }

  trades(tokenAddress: string, wallets: string[]): Promise<Card> {
    return tradesCard(this.client, tokenAddress, wallets, this.now());
  }

  wallet(wallets: string[]): Promise<Card> {
    return walletCard(this.client, wallets, this.now());
  }

  /** Resolves when the service answers readably about the wallet (src/query/walletCheck.ts); throws otherwise. */
  checkWallet(address: string): Promise<void> {
    return checkWallet(this.client, address);
  }

  chart(query: ChartQuery): Promise<Card> {
    return chartCard(this.client, query, this.now());
  }
}
