/**
 * A chat's daily watchlist (`/digest daily HH:MM [zone]`): one card with each followed token's
 * price, 24h change, volume, liquidity and risk status, sorted by the change, and the followed
 * wallets' trades in the day with their USD total. Made on a schedule (src/jobs/dailyDigest.ts)
 * and carried whole by its event, so the card shows the market as it was at that time whenever it
 * is sent; it goes through the outbox like any alert, as a card of its own.
 */
import { field, rich, type Card, type CardField } from '../../cards/card';
import { LABEL_MAX, UNKNOWN } from '../../cards/tokenFacts';
import type { EventBase } from '../../model/events';
import { age, percent, price, shortAddress, sol, usd } from '../../text/format';
import { untrusted } from '../../text/sanitize';
import { status, tokenName } from '../cardParts';
import { defineAlertKind } from '../kind';

/** One followed token as the watchlist shows it. */
export interface WatchlistToken {
  address: string;
  symbol: string;
  name: string;
  priceNative: number | null;
  priceUsd: number | null;
  /** Percent over the last 24 hours (5-minute candles, as /token measures it); null when unknown. */
  change24hPct: number | null;
  /** Set when the token is younger than a day: its age in seconds, shown instead of a change. */
  ageSecs: number | null;
  /** SOL traded in the last 24 hours (each candle's volume times its close); null when unread. */
  volumeSol: number | null;
  liquiditySol: number | null;
  /** USD per SOL when the watchlist was made, for the USD figures; null when unknown. */
  solUsd: number | null;
  riskStatus: string | null;
}

/** One followed wallet's trades in the day. */
export interface WatchlistWallet {
  address: string;
  /** The chat's name for it (untrusted). */
  label: string | null;
  buys: number;
  sells: number;
  /** The trades' USD values summed; null when none had one. */
  usd: number | null;
}

export interface DailyDigestEvent extends EventBase {
  kind: 'daily-digest';
  /** The day it is for, in its zone (YYYY-MM-DD), and the time and zone it was set for. */
  day: string;
  time: string;
  zone: string;
  /** Sorted by 24h change, highest first (unknown last). */
  tokens: WatchlistToken[];
  /** Tokens followed that could not be read (unknown to the service now). */
  tokensUnread: number;
  wallets: WatchlistWallet[];
  /** Wallets followed whose trades could not be read. */
  walletsUnread: number;
}

declare module '../../model/events' {
  interface AlertEventsByKind {
    'daily-digest': DailyDigestEvent;
  }
}

/** Token lines per field: each under 120 characters, so a field stays within Discord's 1,024. */
const LINES_PER_FIELD = 8;
/** Token lines in all: three fields, the card within Telegram's 4,096 characters with the wallets. */
const TOKEN_LINES = 24;
const WALLET_LINES = 10;

function usdOr(solValue: number | null, solUsd: number | null): string {
  if (solValue === null) return UNKNOWN;
  return solUsd === null ? sol(solValue) : usd(solValue * solUsd);
}

/** "Neon Mochi (MOCHI) +12.3% · $0.0012 · vol $45.1K · liq $160K · SAFE" */
function tokenLine(token: WatchlistToken): string {
  const change =
    token.ageSecs !== null
      ? `new, ${age(0, token.ageSecs)} old`
      : token.change24hPct === null
        ? `${UNKNOWN}`
        : percent(token.change24hPct, { signed: true });
  const priceText =
    token.priceUsd !== null ? `$${price(token.priceUsd)}` : token.priceNative !== null ? `${price(token.priceNative)} SOL` : UNKNOWN;
  return (
    `${tokenName(token)} ${change} · ${priceText} · vol ${usdOr(token.volumeSol, token.solUsd)} · ` +
    `liq ${usdOr(token.liquiditySol, token.solUsd)} · ${status(token.riskStatus)}`
  );
}

function walletLine(wallet: WatchlistWallet): string {
  const short = shortAddress(untrusted(wallet.address, 64, '?'));
  const name = wallet.label === null ? short : `${untrusted(wallet.label, LABEL_MAX, short)} (${short})`;
  const trades = wallet.buys + wallet.sells;
  if (trades === 0) return `${name}: no trades`;
  return (
    `${name}: ${wallet.buys} buy${wallet.buys === 1 ? '' : 's'}, ${wallet.sells} ` +
    `sell${wallet.sells === 1 ? '' : 's'}, ${wallet.usd === null ? UNKNOWN : usd(wallet.usd)}`
  );
}

function tokenFields(event: DailyDigestEvent): CardField[] {
  const lines = event.tokens.slice(0, TOKEN_LINES).map(tokenLine);
  if (event.tokens.length > TOKEN_LINES) lines.push(`and ${event.tokens.length - TOKEN_LINES} more (see /following)`);
  if (event.tokensUnread > 0) lines.push(`${event.tokensUnread} could not be read`);
  const fields: CardField[] = [];
  for (let start = 0; start < lines.length; start += LINES_PER_FIELD) {
    fields.push(field(start === 0 ? 'Tokens by 24h change' : 'Tokens (continued)', lines.slice(start, start + LINES_PER_FIELD).join('\n')));
  }
  return fields;
}

function walletFields(event: DailyDigestEvent): CardField[] {
  if (event.wallets.length === 0 && event.walletsUnread === 0) return [];
  const lines = event.wallets.slice(0, WALLET_LINES).map(walletLine);
  if (event.wallets.length > WALLET_LINES) lines.push(`and ${event.wallets.length - WALLET_LINES} more`);
  if (event.walletsUnread > 0) lines.push(`${event.walletsUnread} could not be read`);
  const trades = event.wallets.reduce((sum, wallet) => sum + wallet.buys + wallet.sells, 0);
  const known = event.wallets.filter((wallet) => wallet.usd !== null);
  const total = known.length === 0 ? UNKNOWN : usd(known.reduce((sum, wallet) => sum + (wallet.usd ?? 0), 0));
  return [
    field('Wallet trades in the day', lines.join('\n')),
    field('Wallets in all', `${trades} trade${trades === 1 ? '' : 's'}, ${trades === 0 ? usd(0) : total}`, true),
  ];
}

function dailyDigestCard(event: DailyDigestEvent): Card {
  const fields = [...tokenFields(event), ...walletFields(event)];
  return {
    title: `Daily watchlist · ${event.day}`,
    description: rich(
      fields.length === 0
        ? 'This chat follows no token or wallet yet: /track adds them.'
        : `The tokens this chat follows, by their change over 24 hours, ` +
            `and its wallets' trades in the 24 hours to ${event.time} (${event.zone}).`,
    ),
    // A watchlist is about several tokens: no one token's risk colours it.
    color: 'neutral',
    fields,
    footer: `daily at ${event.time} ${event.zone} · /digest to change it`,
    timestamp: new Date(event.at),
    actions: [{ label: 'Following', command: 'following', args: [] }],
  };
}

export const dailyDigestKind = defineAlertKind({
  name: 'daily-digest',
  family: 'chat',
  words: [],
  describe: () => 'the daily watchlist',
  card: dailyDigestCard,
  alone: true,
});
