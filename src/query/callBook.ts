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
/** A chat's calls followed by the peak job at most: past it the oldest stop (they keep their records). */
export const MAX_ACTIVE_CALLS_PER_CHAT = 200;
/** A person's posts make one call in this long at most: a flood of /token is not a flood of calls. */
export const CALL_COOLDOWN_MS = 60_000;
/** People whose last call is remembered for the cooldown; the oldest forgotten first past it. */
const COOLDOWN_MEMORY = 10_000;

export interface CallLimits {
  /** CALL_MIN_LIQUIDITY_USD: a thinner token's post makes no call. */
  minLiquidityUsd: number;
  maxActivePerChat: number;
  cooldownMs: number;
}

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
  private readonly limits: CallLimits;
  /** When each person (by chat and id) last made a call, for the cooldown; insertion order is age. */
  private readonly lastCallAt = new Map<string, number>();
  /** Chats told that their oldest calls stop being followed (told once a process). */
  private readonly toldCap = new Set<string>();

  constructor(
    readonly calls: CallRepository,
    private readonly now: () => Date = () => new Date(),
    limits: Partial<CallLimits> = {},
  ) {
    this.limits = {
      minLiquidityUsd: DEFAULT_CALL_MIN_LIQUIDITY_USD,
      maxActivePerChat: MAX_ACTIVE_CALLS_PER_CHAT,
      cooldownMs: CALL_COOLDOWN_MS,
      ...limits,
    };
  }

  /**
   * After a token's card was built for a post in `chat`: with calls on, the first post is recorded
   * as the poster's call, and the card gains the call's line. Calls off, or no price: the card as it was.
   */
  async onPost(chat: ChatRef, poster: Poster, answer: TokenAnswer): Promise<Card> {
    if (!(await this.calls.enabled(chat))) return answer.card;
    const market = callMarket(answer, this.limits.minLiquidityUsd);
    const existing = await this.calls.get(chat, answer.token.address);
    if (existing !== null) return withCallField(answer.card, callLine(existing, this.now(), market?.priceSol ?? null));
    if (market === null) return answer.card;
    const person = `${chat.platform}:${chat.chatId}:${poster.userId}`;
    const at = this.now().getTime();
    const last = this.lastCallAt.get(person);
    if (last !== undefined && at - last < this.limits.cooldownMs) {
      return withCallField(answer.card, `Not a call: one call a minute per person (${callerName(poster.userName ?? poster.userId)})`);
    }
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
    this.remember(person, at);
    const mcap = callMcap(call);
    const card = withCallField(
      answer.card,
      `${callerName(call.userName)}’s call, recorded${mcap === null ? '' : ` at ${mcap} mcap`}: /calls lists this chat’s calls`,
    );
    // Past the chat's share of the peak job, its oldest calls stop being read (told once).
    const retired = await this.calls.retireBeyond(chat, this.limits.maxActivePerChat);
    const chatKey = `${chat.platform}:${chat.chatId}`;
    if (retired === 0 || this.toldCap.has(chatKey)) return card;
    this.toldCap.add(chatKey);
    return withCallField(
      card,
      `This chat’s ${this.limits.maxActivePerChat} newest calls are followed for milestones; older ones keep their peaks and records`,
    );
  }

  private remember(person: string, at: number): void {
    this.lastCallAt.delete(person);
    this.lastCallAt.set(person, at);
    if (this.lastCallAt.size > COOLDOWN_MEMORY) {
      const [oldest] = this.lastCallAt.keys();
      if (oldest !== undefined) this.lastCallAt.delete(oldest);
    }
  }

  /** The chat's call of a token, if any. */
  get(chat: ChatRef, address: string): Promise<Call | null> {
    return this.calls.get(chat, address);
  }
}

function withCallField(card: Card, line: string): Card {
  return { ...card, fields: [...card.fields, field('Call', line)] };
}
