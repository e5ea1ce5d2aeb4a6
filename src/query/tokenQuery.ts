/**
 * /token: the token, a SOL→USD rate and the day's 5-minute candles, fetched side by side, then the
 * token card. An unknown token fails as the client's `not-found`; a missing rate only leaves the
 * card in SOL, and candles that cannot be read only leave its price changes unavailable.
 */
import type { Card } from '../cards/card';
import { marketMoves, MOVE_CANDLE_SECS, movesFrom, type MarketMoves } from '../cards/marketMoves';
import { buildTokenCard } from '../cards/tokenCard';
import type { MarketClient } from '../market/client';
import type { Candle, Token } from '../market/schemas';
import { freshSolUsdRate, solUsdRate } from './usdRate';

/**
 * The day's candles of the token, from a 5-minute boundary to now: one request, cached by the
 * client like any chart (the same `from` for five minutes). Null when they could not be read.
 */
export async function candlesForMoves(client: MarketClient, address: string, now: Date): Promise<Candle[] | null> {
  try {
    return await client.chart(address, { from: movesFrom(now.getTime()), intervalSecs: MOVE_CANDLE_SECS });
  } catch {
    // The card still answers; the token's own look-up reports a real failure (an unknown token).
    return null;
  }
}

function movesOf(token: Token, candles: readonly Candle[] | null, now: Date): MarketMoves | null {
  return candles === null ? null : marketMoves(candles, now.getTime(), token.creationBlockTimestamp);
}

/** The token card and what it was built from: a call is recorded from the very same answer. */
export interface TokenAnswer {
  card: Card;
  token: Token;
  /** USD per SOL the card used; null when none could be read. */
  solUsd: number | null;
}

export async function tokenCard(client: MarketClient, address: string, now: Date): Promise<Card> {
  return (await tokenAnswer(client, address, now)).card;
}

export async function tokenAnswer(client: MarketClient, address: string, now: Date): Promise<TokenAnswer> {
  // A rate read in the last minute serves as it is: the look-up then waits for the token and its candles.
  const fresh = freshSolUsdRate(client);
  if (fresh !== null) {
    const [token, candles] = await Promise.all([client.token(address), candlesForMoves(client, address, now)]);
    return { card: buildTokenCard({ token, solUsd: fresh, now, moves: movesOf(token, candles, now) }), token, solUsd: fresh };
  }
  const [token, solUsd, candles] = await Promise.all([
    client.token(address),
    solUsdRate(client, address),
    candlesForMoves(client, address, now),
  ]);
  return { card: buildTokenCard({ token, solUsd, now, moves: movesOf(token, candles, now) }), token, solUsd };
}
