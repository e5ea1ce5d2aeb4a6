/**
 * The /holders card: the first holders of the service's list under one sort order, each with what
 * a trader asks of a wallet: how much, what share, since when, bought and sold for how much, and
 * what it is (tags). Pure: it reads a Token and its holders and fetches nothing.
 */
import type { Holder, Token } from '../market/schemas';
import { type Card, type CardAction, type CardField, type RichText, bold, field, joinRich, link, rich, text } from './card';
import { formatTokenAmount, grouped, percent, relativeTime, shortAddress, usd } from '../text/format';
import { explorerAccountUrl, explorerTokenUrl } from './explorer';
import { UNKNOWN, sharePercent, tokenColor, tokenTitle, tokenUnit, top10SharePercent } from './tokenFacts';
import { untrusted } from '../text/sanitize';
import { unreadNote } from './unread';

/** The service's sortBy values (spec §4.3; the simulator's documented set), with names for people. */
export const HOLDER_SORTS = [
  { value: 'balance', label: 'Largest balance', short: 'Balance' },
  { value: 'holderSince', label: 'Earliest holders', short: 'Earliest' },
  { value: 'totalBoughtUSD', label: 'Most bought (USD)', short: 'Bought' },
  { value: 'totalSoldUSD', label: 'Most sold (USD)', short: 'Sold' },
] as const;

export type HolderSort = (typeof HOLDER_SORTS)[number]['value'];

export const DEFAULT_HOLDER_SORT: HolderSort = 'balance';

export function isHolderSort(value: string): value is HolderSort {
  return HOLDER_SORTS.some((sort) => sort.value === value);
}

export const HOLDERS_SHOWN = 10;
const TAGS_SHOWN = 5;
const TAG_MAX = 20;

export interface HoldersCardInput {
  token: Token;
  /** In the service's order for `sortBy`. */
  holders: readonly Holder[];
  sortBy: HolderSort;
  now: Date;
  /** Holders the service sent that could not be read (left out of `holders`). */
  unreadable?: number;
}

/**
 * Realised profit in USD at average cost: what the sold tokens fetched minus what they cost at the
 * wallet's average buying price, totalSoldUSD − totalBoughtUSD × (sold ÷ bought), the sold share
 * capped at the whole (tokens sold beyond those bought came by transfer and add no cost). Nothing
 * sold realises 0; a wallet that sold without ever buying has no known cost, so null (as on the
 * wallet card, so one wallet shows one figure everywhere).
 */
export function realisedProfitUsd(holder: Holder): number | null {
  const sold = holder.totalSoldAmount ?? 0n;
  if (sold <= 0n) return 0;
  const bought = holder.totalBoughtAmount ?? 0n;
  if (bought <= 0n || holder.totalSoldUSD === null || holder.totalBoughtUSD === null) return null;
  const soldShare = sold >= bought ? 1 : Number((sold * 1_000_000n) / bought) / 1_000_000;
  return holder.totalSoldUSD - holder.totalBoughtUSD * soldShare;
}

function signedUsd(value: number): string {
  return value > 0 ? `+${usd(value)}` : usd(value);
}

function holderField(holder: Holder, rank: number, token: Token, now: Date): CardField {
  const share = sharePercent(holder.currentlyHoldingAmount, token.totalSupply);
  const held = holder.currentlyHoldingAmount > 0n;
  const name = `#${rank} · ${held ? (share === null ? UNKNOWN : `${percent(share)} of supply`) : 'exited'}`;

  const wallet = link(shortAddress(untrusted(holder.address, 64, '?')), explorerAccountUrl(holder.address, token.chainId));
  const amount = `${formatTokenAmount(holder.currentlyHoldingAmount, token.decimals)} ${tokenUnit(token)}`;
  const since = holder.holderSince === null ? UNKNOWN : relativeTime(holder.holderSince, now);
  const realised = realisedProfitUsd(holder);
  const lines: RichText[] = [
    rich(wallet, ` · ${amount} · since ${since}`),
    rich(
      `Bought ${holder.totalBoughtUSD === null ? UNKNOWN : usd(holder.totalBoughtUSD)}`,
      ` · Sold ${holder.totalSoldUSD === null ? UNKNOWN : usd(holder.totalSoldUSD)}`,
      ' · Realised ',
      bold(realised === null ? UNKNOWN : signedUsd(realised)),
    ),
  ];
  const tags = [...new Set(holder.tags.map((tag) => untrusted(tag, TAG_MAX)).filter((tag) => tag !== ''))].slice(0, TAGS_SHOWN);
  if (tags.length > 0) lines.push([text(`Tags: ${tags.join(', ')}`)]);
  return field(name, joinRich(lines, '\n'));
}

export function buildHoldersCard({ token, holders, sortBy, now, unreadable = 0 }: HoldersCardInput): Card {
  const sort = HOLDER_SORTS.find((s) => s.value === sortBy) ?? HOLDER_SORTS[0];
  const shown = holders.slice(0, HOLDERS_SHOWN);
  const fields = shown.map((holder, index) => holderField(holder, index + 1, token, now));
  const unread = unreadNote(unreadable, 'holder');
  // An answer whose holders were all unreadable says so: "none recorded" would present a guess as fact.
  if (fields.length === 0) fields.push(field('Holders', unread ?? 'none recorded'));

  const top10 = top10SharePercent(token);
  const description = joinRich([
    rich('Order: ', bold(sort.label)),
    token.holdersCount === null ? '' : `${grouped(token.holdersCount)} holders`,
    top10 === null ? '' : `top 10 hold ${percent(top10)}`,
    unread === null ? '' : `⚠ ${unread}`,
  ]);
  const url = explorerTokenUrl(token.address, token.chainId);
  const otherSorts: CardAction[] = HOLDER_SORTS.filter((s) => s.value !== sort.value).map((s) => ({
    label: `By ${s.short}`,
    command: 'holders',
    args: [token.address, s.value],
  }));

  return {
    title: `Holders · ${tokenTitle(token)}`,
    ...(url === null ? {} : { url }),
    description,
    color: tokenColor(token),
    fields,
    footer: [`${shortAddress(untrusted(token.address, 64, '?'))} · ${shown.length} of ${holders.length} wallets that ever held it`, unread]
      .filter((part) => part !== null)
      .join(' · '),
    timestamp: now,
    actions: [
      { label: 'Token', command: 'token', args: [token.address] },
      { label: 'Technicals', command: 'technicals', args: [token.address] },
      ...otherSorts,
    ],
  };
}
