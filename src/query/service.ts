/**
 * The one query service behind every chat: each method fetches what a question needs from the
 * market data client and answers with a platform-neutral Card. A failure of the service, or input
 * that cannot be answered, becomes a Card a person understands; nothing here throws to a chat.
 */
import type { Card } from '../cards/card';
import { cardForError } from '../cards/errorCard';
import type { MarketClient } from '../market/client';
import { chartCard, type ChartQuery } from './chartQuery';
import { holdersCard } from './holdersQuery';
import { technicalsCard } from './technicalsQuery';
import { tokenCard } from './tokenQuery';
import { tradesCard } from './tradesQuery';
import { walletCard } from './walletQuery';

export type { ChartQuery };

export class QueryService {
  constructor(
    readonly client: MarketClient,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private async answer(build: () => Promise<Card>): Promise<Card> {
    try {
      return await build();
    } catch (error) {
      return cardForError(error);
    }
  }

  token(address: string): Promise<Card> {
    return this.answer(() => tokenCard(this.client, address, this.now()));
  }

  technicals(address: string): Promise<Card> {
    return this.answer(() => technicalsCard(this.client, address, this.now()));
  }

  holders(address: string, sortBy?: string): Promise<Card> {
    return this.answer(() => holdersCard(this.client, address, sortBy, this.now()));
  }

  trades(tokenAddress: string, wallets: string[]): Promise<Card> {
    return this.answer(() => tradesCard(this.client, tokenAddress, wallets, this.now()));
  }

  wallet(wallets: string[]): Promise<Card> {
    return this.answer(() => walletCard(this.client, wallets, this.now()));
  }

  chart(query: ChartQuery): Promise<Card> {
    return this.answer(() => chartCard(this.client, query, this.now()));
  }
}
