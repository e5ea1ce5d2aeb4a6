/**
 * What every alert card shares: how it names and links the token and wallets, its buttons, its
 * colour (the token's current risk status) and its frame. Each kind's card (src/alerts/kinds/) is built on these.
 */
import type { AlertEvent, TokenRef } from '../model/events';
import { type Card, type CardAction, type CardField, type RichText, link, riskColor } from '../cards/card';
import { explorerAccountUrl, explorerTokenUrl } from '../cards/explorer';
import { shortAddress, solFromLamports } from '../text/format';
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

export function tokenActions(token: TokenRef, extra: CardAction[] = []): CardAction[] {
  return [
    { label: 'Token', command: 'token', args: [token.address] },
    { label: 'Chart', command: 'chart', args: [token.address] },
    { label: 'Holders', command: 'holders', args: [token.address] },
    ...extra,
  ];
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
