/**
 * The fair shares of what the bot follows: how many follows one chat may hold (every forum topic
 * of a group together, so topics cannot multiply it), how many one Discord server may hold over
 * its channels, and how many distinct tokens and wallets one chat or server may have watched live.
 * The last is a share of the live streams' budget (sockets and upstream subscriptions, bounded by
 * the open-files limit): a token or wallet followed by several chats costs one subscription, but
 * counts once for each of them, so that no chat fills the streams that every chat shares.
 */
import type { ChatRef } from '../model/chat';
import type { FollowKind } from '../model/follow';
import { sharePlaceOf, wholeChat } from '../model/place';
import { ShareFullError } from '../usage';
import type { PlaceHoldings, Store } from '../store/store';

export interface FollowLimits {
  /** Follows of one chat, every topic together (MAX_FOLLOWS_PER_CHAT). */
  perChat: number;
  /** Follows of one Discord server, every channel together (MAX_FOLLOWS_PER_SERVER). */
  perServer: number;
  /** Distinct tokens and wallets one chat, or one Discord server, may have watched live (MAX_STREAM_SHARE_PER_CHAT). */
  streamShare: number;
}

/** Enough for a busy trading channel; more would turn alerts into noise and subscriptions into cost. */
export const DEFAULT_FOLLOWS_PER_CHAT = 100;
/** Five channels full: a server with a channel per team or strategy, not one holding the bot's whole budget. */
export const DEFAULT_FOLLOWS_PER_SERVER = 500;
/**
 * The stream share is never fewer targets than this, so that a small open-files limit still lets a
 * chat follow what its follows cap allows.
 */
export const MIN_STREAM_SHARE = 100;

/** The share of `percent` % of `streamSockets` (null: the open-files limit is unknown), at least MIN_STREAM_SHARE. */
export function streamShareOf(percent: number, streamSockets: number | null): number {
  if (streamSockets === null) return MIN_STREAM_SHARE;
  return Math.max(MIN_STREAM_SHARE, Math.floor((streamSockets * percent) / 100));
}

export const DEFAULT_FOLLOW_LIMITS: FollowLimits = {
  perChat: DEFAULT_FOLLOWS_PER_CHAT,
  perServer: DEFAULT_FOLLOWS_PER_SERVER,
  streamShare: MIN_STREAM_SHARE,
};

function followsWord(count: number): string {
  return count === 1 ? 'token, wallet or target' : 'tokens, wallets and targets';
}

function watchedWord(count: number): string {
  return count === 1 ? 'token or wallet' : 'tokens and wallets';
}

/**
 * Throws ShareFullError when `chat` may not add a follow of `kind` `address`: called for a new
 * follow only (a change to one it holds costs nothing more). The chat's cap first, then its
 * server's, then the stream share of the place that spends it (the server on Discord).
 */
export async function checkFollowShares(
  store: Pick<Store, 'follows'>,
  limits: FollowLimits,
  chat: ChatRef,
  kind: FollowKind,
  address: string,
): Promise<void> {
  const whole = await store.follows.holdings(wholeChat(chat), kind, address);
  if (whole.follows >= limits.perChat) {
    const topics = chat.platform === 'telegram' ? ' (all its topics together)' : '';
    throw new ShareFullError(
      'This chat follows all it may',
      `This chat already follows ${limits.perChat} ${followsWord(limits.perChat)}${topics}, the most one chat may. ` +
        `/untrack or /untarget one first (see /following).`,
    );
  }
  const place = sharePlaceOf(chat);
  let holdings: PlaceHoldings = whole;
  if ('scopeId' in place) {
    holdings = await store.follows.holdings(place, kind, address);
    if (holdings.follows >= limits.perServer) {
      throw new ShareFullError(
        'This server follows all it may',
        `This server already follows ${limits.perServer} ${followsWord(limits.perServer)} over its channels, ` +
          `the most one server may. /untrack or /untarget one here or in another of its channels first.`,
      );
    }
  }
  if (!holdings.watchesAlready && holdings.watched >= limits.streamShare) {
    const who = 'scopeId' in place ? 'server' : 'chat';
    const over = 'scopeId' in place ? ' over its channels' : '';
    throw new ShareFullError(
      `This ${who}’s share of the live streams is full`,
      `This ${who} already watches ${holdings.watched} ${watchedWord(holdings.watched)} live${over}: ` +
        `its share of what the bot watches at once, kept so that every ${who} gets its turn. /untrack one to make room (see /following).`,
    );
  }
}
