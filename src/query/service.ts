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
import type { Trade } from '../market/schemas';
import { isWallet } from './addressRole';
import { PlaceWindow } from './placeWindow';
import { sharePlaceKey, type SharePlace } from '../model/place';
import { ShareFullError } from '../usage';
import { waitText } from '../cards/errorCard';

export type { ChartQuery };

export interface QueryShares {
  /** /technicals one chat or server may run a minute (TECHNICALS_PER_CHAT_PER_MINUTE); 20 unless given. */
  technicalsPerChatPerMinute?: number;
}

/** A fifth of the service's 100 token-technicals a minute: five busy chats at once still leave room. */
export const DEFAULT_TECHNICALS_PER_CHAT_PER_MINUTE = 20;

export class QueryService {
  private readonly technicalsShare: PlaceWindow;

  constructor(
    readonly client: MarketClient,
    private readonly now: () => Date = () => new Date(),
    shares: QueryShares = {},
  ) {
    this.technicalsShare = new PlaceWindow(shares.technicalsPerChatPerMinute ?? DEFAULT_TECHNICALS_PER_CHAT_PER_MINUTE, 60_000);
  }

  token(address: string): Promise<Card> {
    return tokenCard(this.client, address, this.now());
  }

  /** The token's USD price and market cap now (for a new target); not a card. */
  tokenValue(address: string): Promise<TokenValue> {
    return tokenValue(this.client, address);
  }

  /** With `place`, the chat or server asking: it spends one of its share of the minute, once the token is known. */
  technicals(address: string, place?: SharePlace): Promise<Card> {
    const now = this.now();
    return technicalsCard(this.client, address, now, () => {
      if (place !== undefined) this.spendTechnicals(place, now);
    });
  }

  private spendTechnicals(place: SharePlace, now: Date): void {
    const waitMs = this.technicalsShare.take(sharePlaceKey(place), now.getTime());
    if (waitMs === 0) return;
    const who = 'scopeId' in place ? 'server' : 'chat';
    const botLimit = this.client.rateLimit('token-technicals');
    const ofAll = botLimit === null ? '' : ` (of the ${botLimit.limit} a minute it may ask in all)`;
    throw new ShareFullError(
      `This ${who}’s /technicals for the minute are spent`,
      `The bot answers ${this.technicalsShare.limit} /technicals a minute in each ${who}${ofAll}, ` +
        `so that every ${who} gets its turn. The next one frees up in ${waitText(waitMs)}.`,
    );
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

  /** The wallet's recent trades when the service answers readably about it (src/query/walletCheck.ts); throws otherwise. */
  checkWallet(address: string): Promise<Trade[]> {
    return checkWallet(this.client, address);
  }

  /** Whether the address made trades, so is a wallet (src/query/addressRole.ts); false when unsure. */
  isWallet(address: string): Promise<boolean> {
    return isWallet(this.client, address);
  }

  chart(query: ChartQuery): Promise<Card> {
    return chartCard(this.client, query, this.now());
  }
}
