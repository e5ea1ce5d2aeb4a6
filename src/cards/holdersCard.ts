/**
 * The /holders card: the first holders of the service's list under one sort order, each with what
 * a trader asks of a wallet: how much, what share, since when, bought and sold for how much, and
 * what it is (tags). Pure: it reads a Token and its holders and fetches nothing.
 *
 * A "holder" that holds for a pool (one of the token's pools, such as a pump.fun bonding curve,
 * or a pool program's authority: src/market/poolAccounts.ts) is shown as the pool, in its place
 * but without a rank, and is left out of the top-10 share: the ranks and the share are wallets'.
 */
import { type PoolAccount, poolAccountOf } from '../market/poolAccounts';
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
/** Pool accounts shown among the wallets at most: a token has one or two that matter. */
export const POOL_ACCOUNTS_SHOWN = 3;
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

/** "Raydium AMM authority", "PUMP pool", "Pool": what a pool account is called on the card. */
function poolAccountName(account: PoolAccount): string {
  if (account.kind === 'authority') return account.name;
  const protocol = untrusted(account.protocol, TAG_MAX);
  return protocol === '' ? 'Pool' : `${protocol} pool`;
}

/** A pool account in the list: no rank, its share, and why it is not counted as a holder. */
function poolAccountField(holder: Holder, account: PoolAccount, token: Token): CardField {
  const share = sharePercent(holder.currentlyHoldingAmount, token.totalSupply);
  const held = holder.currentlyHoldingAmount > 0n;
  const name = `Pool · ${held ? (share === null ? UNKNOWN : `${percent(share)} of supply`) : 'empty'}`;
  const address = link(shortAddress(untrusted(holder.address, 64, '?')), explorerAccountUrl(holder.address, token.chainId));
  const amount = `${formatTokenAmount(holder.currentlyHoldingAmount, token.decimals)} ${tokenUnit(token)}`;
  return field(
    name,
    joinRich(
      [rich(address, ` · ${amount}`), [text(`${poolAccountName(account)}: a pool, not a wallet; no rank, not in the top 10`)]],
      '\n',
    ),
  );
}

/** The holders as the card lists them: the first HOLDERS_SHOWN wallets, and the pool accounts among them. */
interface Listed {
  fields: CardField[];
  walletsShown: number;
  wallets: number;
  poolAccounts: number;
}

function listHolders(token: Token, holders: readonly Holder[], now: Date): Listed {
  const listed: Listed = { fields: [], walletsShown: 0, wallets: 0, poolAccounts: 0 };
  let poolsShown = 0;
  for (const holder of holders) {
    const account = poolAccountOf(holder.address, token.liquidityPools);
    if (account !== null) {
      listed.poolAccounts += 1;
      if (listed.walletsShown < HOLDERS_SHOWN && poolsShown < POOL_ACCOUNTS_SHOWN) {
        listed.fields.push(poolAccountField(holder, account, token));
        poolsShown += 1;
      }
      continue;
    }
    listed.wallets += 1;
    if (listed.walletsShown < HOLDERS_SHOWN) {
      listed.walletsShown += 1;
      listed.fields.push(holderField(holder, listed.walletsShown, token, now));
    }
  }
  return listed;
}

/**
 * The top-10 share the card can stand behind. Where no pool account holds any of the listed
 * supply, the service's own figure (top10SharePercent). Where one does, the service's figure may
 * count it (a bonding curve alone can be 80%): by balance, the ten largest wallets of the list
 * are summed instead; in another order the ten largest are not known, and no figure is shown.
 */
function top10Text(token: Token, holders: readonly Holder[], sortBy: HolderSort): string {
  const pooled = holders.some(
    (holder) => holder.currentlyHoldingAmount > 0n && poolAccountOf(holder.address, token.liquidityPools) !== null,
  );
  if (!pooled) {
    const top10 = top10SharePercent(token);
    return top10 === null ? '' : `top 10 hold ${percent(top10)}`;
  }
  if (sortBy !== 'balance') return '';
  const balances = holders
    .filter((holder) => poolAccountOf(holder.address, token.liquidityPools) === null && holder.currentlyHoldingAmount > 0n)
    .map((holder) => holder.currentlyHoldingAmount)
    .sort((a, b) => (a === b ? 0 : a > b ? -1 : 1));
  let total = 0n;
  for (const balance of balances.slice(0, 10)) total += balance;
  const share = sharePercent(total, token.totalSupply);
  return share === null ? '' : `top 10 wallets hold ${percent(share)} (pools left out)`;
}

export function buildHoldersCard({ token, holders, sortBy, now, unreadable = 0 }: HoldersCardInput): Card {
  const sort = HOLDER_SORTS.find((s) => s.value === sortBy) ?? HOLDER_SORTS[0];
  const listed = listHolders(token, holders, now);
  const fields = listed.fields;
  const unread = unreadNote(unreadable, 'holder');
  // An answer whose holders were all unreadable says so: "none recorded" would present a guess as fact.
  if (fields.length === 0) fields.push(field('Holders', unread ?? 'none recorded'));

  const description = joinRich([
    rich('Order: ', bold(sort.label)),
    token.holdersCount === null ? '' : `${grouped(token.holdersCount)} holders`,
    top10Text(token, holders, sort.value),
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
    footer: [
      `${shortAddress(untrusted(token.address, 64, '?'))} · ${listed.walletsShown} of ${listed.wallets} wallets that ever held it`,
      listed.poolAccounts === 0 ? null : `${listed.poolAccounts} pool account${listed.poolAccounts === 1 ? '' : 's'}`,
      unread,
    ]
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
