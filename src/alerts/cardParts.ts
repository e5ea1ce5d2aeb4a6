/**
 * What every alert card shares: how it names and links the token and wallets, its buttons (Mute
 * 1h among them), its colour (the token's current risk status), the token's market at the time
 * and its frame. Each kind's card (src/alerts/kinds/) is built on these.
 */
import type { AlertEvent, TokenMarket, TokenRef } from '../model/events';
import { type Card, type CardAction, type CardField, type RichText, field, link, riskColor } from '../cards/card';
import { explorerAccountUrl, explorerTokenUrl } from '../cards/explorer';
import { changeWindow, duration, percent, price, shortAddress, sol, solFromLamports, usd } from '../text/format';
import { UNKNOWN, tokenTitle } from '../cards/tokenFacts';
import { untrusted } from '../text/sanitize';

const STATUS_MAX = 24;

/** The token as a card names it: "Name (SYM)", or its short address when the service gave no name. */
export function tokenName(token: TokenRef): string {
  if (token.name.trim() === '' && token.symbol.trim() === '') return shortAddress(untrusted(token.address, 64, '?'));
  return tokenTitle(token);
}

export function tokenLink(token: TokenRef): RichText {
  return [link(shortAddress(untrusted(token.address, 64, '?')), explorerTokenUrl(token.address))];
}

export function walletLink(wallet: string): RichText {
  return [link(shortAddress(untrusted(wallet, 64, '?')), explorerAccountUrl(wallet))];
}

export function status(value: string | null): string {
  return untrusted(value, STATUS_MAX, UNKNOWN).toUpperCase();
}

/**
 * Mutes the follow this alert came from, in the chat where it is pressed, for an hour: `/mute
 * ADDR 1h`, run as typed by the presser, so only a manager may (the command's own policy).
 */
export function muteAction(address: string): CardAction {
  return { label: 'Mute 1h', command: 'mute', args: [address, '1h'] };
}

export function tokenActions(token: TokenRef, extra: CardAction[] = []): CardAction[] {
  return [
    { label: 'Token', command: 'token', args: [token.address] },
    { label: 'Chart', command: 'chart', args: [token.address] },
    { label: 'Holders', command: 'holders', args: [token.address] },
    ...extra,
    muteAction(token.address),
  ];
}

/** USD per SOL implied by a market's two prices; null when either is unknown. */
function usdPerSol(market: TokenMarket): number | null {
  const { priceNative, priceUsd } = market;
  return priceNative !== null && priceUsd !== null && priceNative > 0 ? priceUsd / priceNative : null;
}

/** "$12.3K · 61.5 SOL", or SOL alone without a rate. */
function solWithUsd(value: number, rate: number | null): string {
  return rate === null ? sol(value) : `${usd(value * rate)} · ${sol(value)}`;
}

/** The window keeps a price a minute: 59 minutes back is the hour. */
const HOUR_FROM_SECS = 59 * 60;

/**
 * The change over the price window, under the name of the window it covers: "1h +3.2%" when the
 * watcher holds the hour's prices, else "Change +3.2% in 12m, since first seen". A field named
 * "1h" over 12 minutes would contradict the token card's 1h change, read from the candles.
 */
function changeField(market: TokenMarket): CardField {
  if (market.changePct === null || market.changeSecs === null) return field('1h', UNKNOWN, true);
  const change = percent(market.changePct, { signed: true });
  if (market.changeSecs >= HOUR_FROM_SECS) return field('1h', change, true);
  return field('Change', `${change} in ${changeWindow(market.changeSecs)}, since first seen`, true);
}

/**
 * Pools last shown this long before an alert are worth dating on its card: the live service's
 * frames leave pools out and its REST re-check comes about once a minute, so a younger figure is
 * as current as the bot can know, and an older one is dated.
 */
const POOLS_AGE_SHOWN_SECS = 60;

/** " (5m ago)" when the market's pools and price are older than the alert by POOLS_AGE_SHOWN_SECS or more, else "". */
function ageNote(market: TokenMarket): string {
  const age = market.poolsAgeSecs;
  if (age === null || age === undefined || age < POOLS_AGE_SHOWN_SECS) return '';
  return ` (${duration(Math.round(age / 60) * 60)} ago)`;
}

/**
 * The token as it stood when the alert was seen: price, 1h change, market cap, liquidity and risk
 * status (which the card's badge and colour follow). `withPrice: false` and `withChange: false`
 * leave the price and the change out, for a card that says them already (a price move). Nothing for
 * an event made before markets were carried, or a traded token the watcher does not follow.
 */
export function marketFields(token: TokenRef, options: { withPrice?: boolean; withChange?: boolean } = {}): CardField[] {
  const market = token.market;
  if (market === undefined) return [];
  const rate = usdPerSol(market);
  const fields: CardField[] = [];
  // The pools and the price read from them may be the last known (a frame left them out): dated when old.
  const age = ageNote(market);
  if (options.withPrice !== false) {
    const priceText =
      market.priceNative === null
        ? UNKNOWN
        : market.priceUsd === null
          ? `${price(market.priceNative)} SOL${age}`
          : `${usd(market.priceUsd)} · ${price(market.priceNative)} SOL${age}`;
    fields.push(field('Price', priceText, true));
  }
  if (options.withChange !== false) fields.push(changeField(market));
  fields.push(field('Market cap', market.marketCapSol === null ? UNKNOWN : solWithUsd(market.marketCapSol, rate), true));
  fields.push(field('Liquidity', market.liquiditySol === null ? UNKNOWN : `${solWithUsd(market.liquiditySol, rate)}${age}`, true));
  fields.push(field('Risk', status(token.riskStatus ?? null), true));
  return fields;
}

/**
 * Every alert card is coloured by the token's current risk status, whatever the alert: a price
 * rise on a DANGER token is still a DANGER token, and a colour of its own for the kind of alert
 * would read as a status the token does not have. A risk change's new status is the current one.
 * Unknown status: neutral, no badge.
 */
export function base(event: AlertEvent, title: string, fields: CardField[], actions: CardAction[], description?: RichText): Card {
  const url = explorerTokenUrl(event.token.address);
  return {
    title,
    ...(url === null ? {} : { url }),
    ...(description === undefined ? {} : { description }),
    color: riskColor(event.kind === 'risk-status' ? event.to : event.token.riskStatus),
    fields,
    footer: `${shortAddress(untrusted(event.token.address, 64, '?'))} · alert`,
    timestamp: new Date(event.at),
    actions,
  };
}

/** Lamports (a decimal string, as the event carries them) in SOL; unknown when unreadable. */
export function lamports(value: string | null): string {
  if (value === null) return UNKNOWN;
  try {
    return solFromLamports(BigInt(value));
  } catch {
    return UNKNOWN;
  }
}
