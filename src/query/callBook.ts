/**
 * Calls as the commands see them (docs/calls.md): a token's first post in a chat with calls on
 * becomes the poster's call, recorded from the same answer its card was built from; a later post's
 * card says whose call it was and the multiple since. The lists, the leaderboard, a caller's record,
 * the export and the removals read the store through here.
 */
import { field, type Card } from '../cards/card';
import { callerName, callLine, callMcap } from '../cards/callText';
import { liquiditySol, liquidityUsdPools, marketCapSol, poolsByLiquidity, priceSol, supplyTokens, toUsd } from '../cards/tokenFacts';
import type { ChatRef } from '../model/chat';
import type { Call, CallRepository } from '../store/calls';
import type { TokenAnswer } from './tokenQuery';

/** Who posted, as the chat tells it. */
export interface Poster {
  userId: string;
  /** The display name (untrusted text); null when the chat gives none (the console): the id is shown. */
  userName: string | null;
  /** The message that posted it, for the milestone replies; null where there is none. */
  messageId: string | null;
}

/** Below this much liquidity (USD) a token makes no call: one buy and sell on a thin pool would set its peak. */
export const DEFAULT_CALL_MIN_LIQUIDITY_USD = 5_000;

/**
 * A call's market from a token answer: null when the token has no SOL price (no price, no call),
 * or less liquidity than `minLiquidityUsd` (valued at the answer's SOL rate; unknown liquidity
 * or rate is less).
 */
export function callMarket(
  answer: Pick<TokenAnswer, 'token' | 'solUsd'>,
  minLiquidityUsd = 0,
): { priceSol: number; priceUsd: number | null; mcapSol: number | null; mcapUsd: number | null } | null {
  const pools = poolsByLiquidity(answer.token);
  const price = priceSol(pools);
  if (price === null || !(price > 0) || !Number.isFinite(price)) return null;
  if (minLiquidityUsd > 0) {
    const sol = liquiditySol(pools);
    const usd = (sol === null || answer.solUsd === null ? 0 : sol * answer.solUsd) + (liquidityUsdPools(pools) ?? 0);
    if (!(usd >= minLiquidityUsd)) return null;
  }
  const mcapSol = marketCapSol(price, supplyTokens(answer.token));
  return { priceSol: price, priceUsd: toUsd(price, answer.solUsd), mcapSol, mcapUsd: toUsd(mcapSol, answer.solUsd) };
}

export class CallBook {
  constructor(
    readonly calls: CallRepository,
    private readonly now: () => Date = () => new Date(),
    /** CALL_MIN_LIQUIDITY_USD: a thinner token's post makes no call. */
    private readonly minLiquidityUsd = DEFAULT_CALL_MIN_LIQUIDITY_USD,
  ) {}

  /**
   * After a token's card was built for a post in `chat`: with calls on, the first post is recorded
   * as the poster's call, and the card gains the call's line. Calls off, or no price: the card as it was.
   */
  async onPost(chat: ChatRef, poster: Poster, answer: TokenAnswer): Promise<Card> {
    if (!(await this.calls.enabled(chat))) return answer.card;
    const market = callMarket(answer, this.minLiquidityUsd);
    const existing = await this.calls.get(chat, answer.token.address);
    if (existing !== null) return withCallField(answer.card, callLine(existing, this.now(), market?.priceSol ?? null));
    if (market === null) return answer.card;
    const { call, created } = await this.calls.record({
      chat,
      address: answer.token.address,
      symbol: answer.token.symbol,
      name: answer.token.name,
      userId: poster.userId,
      userName: poster.userName ?? poster.userId,
      messageId: poster.messageId,
      calledAt: this.now(),
      solUsd: answer.solUsd,
      ...market,
    });
    if (!created) return withCallField(answer.card, callLine(call, this.now(), market.priceSol));
    const at = callMcap(call);
    return withCallField(
      answer.card,
      `${callerName(call.userName)}’s call, recorded${at === null ? '' : ` at ${at} mcap`}: /calls lists this chat’s calls`,
    );
  }

  /** The chat's call of a token, if any. */
  get(chat: ChatRef, address: string): Promise<Call | null> {
    return this.calls.get(chat, address);
  }
}

function withCallField(card: Card, line: string): Card {
  return { ...card, fields: [...card.fields, field('Call', line)] };
}
