/**
 * The /technicals card: how concentrated the holders are and how that moved, what the developer
 * has done before and in this token, and how the first buyers behaved. Pure: it reads Technicals
 * (and the Token, for its name, decimals and supply, when known) and fetches nothing.
 */
import { unreadNote } from './unread';
import type { InitialBuyer, TechnicalsPoint, Technicals, Token } from '../market/schemas';
import { type Card, type CardField, type RichText, bold, field, joinRich, link, rich } from './card';
import { formatTokenAmount, grouped, percent, relativeTime, shortAddress, sol, usd } from '../text/format';
import { explorerAccountUrl, explorerTokenUrl } from './explorer';
import { OK_MARK, RISK_MARK, UNKNOWN, sharePercent, tokenColor, tokenTitle, tokenUnit } from './tokenFacts';
import { untrusted } from '../text/sanitize';

export interface TechnicalsCardInput {
  /** The token asked about, for the explorer link and the actions. */
  address: string;
  technicals: Technicals;
  /** The token's data, or null when it could not be read: names and amounts then show less. */
  token: Token | null;
  now: Date;
  /** Points or initial buyers the service sent that could not be read. */
  unreadable?: number;
}

/** How far back the concentration is compared: a recent and a day-old reading, as traders look at 6 h and 24 h. */
const LOOKBACKS_SECS = [6 * 3600, 24 * 3600] as const;
const LARGEST_BUYERS = 3;
/** Top-N groups shown (the service gives 10, 20, 50, 100); more would only lengthen the card. */
const MAX_GROUPS = 6;

function pointTime(point: TechnicalsPoint): number | null {
  if (point.syncedAt === null) return null;
  const time = Date.parse(point.syncedAt);
  return Number.isNaN(time) ? null : time / 1000;
}

/**
 * The readings to compare with the newest: for each look-back, the point closest to that long
 * before the newest, when one lies within half the look-back of it. Each point is used once.
 */
function comparisonPoints(points: readonly TechnicalsPoint[]): Array<{ point: TechnicalsPoint; time: number }> {
  const newest = points[0];
  const newestTime = newest === undefined ? null : pointTime(newest);
  if (newestTime === null) return [];
  const chosen: Array<{ point: TechnicalsPoint; time: number }> = [];
  for (const lookback of LOOKBACKS_SECS) {
    let best: { point: TechnicalsPoint; time: number; distance: number } | null = null;
    for (const point of points.slice(1)) {
      const time = pointTime(point);
      if (time === null || time >= newestTime) continue;
      const distance = Math.abs(newestTime - lookback - time);
      if (distance <= lookback / 2 && (best === null || distance < best.distance)) best = { point, time, distance };
    }
    if (best !== null && !chosen.some((c) => c.point === best.point)) chosen.push({ point: best.point, time: best.time });
  }
  return chosen;
}

/** Share held by the top N at this point: the service's percentage, or the amount over the supply. */
function topShare(point: TechnicalsPoint, n: number, supply: bigint | null): number | null {
  const given = point.topHoldersSupplyPerc.get(n);
  if (given !== undefined && Number.isFinite(given)) return given;
  return sharePercent(point.topHoldersSupply.get(n) ?? null, supply);
}

function concentrationField(points: readonly TechnicalsPoint[], supply: bigint | null): CardField | null {
  const newest = points[0];
  if (newest === undefined) return null;
  const newestTime = pointTime(newest);
  const buckets = [...new Set([...newest.topHoldersSupplyPerc.keys(), ...newest.topHoldersSupply.keys()])]
    .sort((a, b) => a - b)
    .slice(0, MAX_GROUPS);
  if (buckets.length === 0) return null;
  const earlier = newestTime === null ? [] : comparisonPoints(points);
  const lines = buckets.map((n) => {
    const now = topShare(newest, n, supply);
    const past = earlier.map(({ point, time }) => {
      const share = topShare(point, n, supply);
      return `${relativeTime(time, newestTime ?? time)} ${share === null ? UNKNOWN : percent(share)}`;
    });
    return rich(`Top ${n}: `, bold(now === null ? UNKNOWN : percent(now)), past.length === 0 ? '' : ` · ${past.join(' · ')}`);
  });
  return field('Holder Concentration', joinRich(lines, '\n'));
}

function holdersField(points: readonly TechnicalsPoint[]): CardField {
  const newest = points[0];
  const count = newest?.holdersCount ?? null;
  if (newest === undefined || count === null) return field('Holders', UNKNOWN, true);
  const oldest = points.at(-1);
  const newestTime = pointTime(newest);
  const oldestTime = oldest === undefined ? null : pointTime(oldest);
  const before = oldest?.holdersCount ?? null;
  if (oldest === newest || before === null || newestTime === null || oldestTime === null || oldestTime >= newestTime) {
    return field('Holders', grouped(count), true);
  }
  const change = count - before;
  const sign = change > 0 ? '+' : change < 0 ? '\u2212' : '±';
  const since = relativeTime(oldestTime, newestTime).replace(/ ago$/, '');
  return field('Holders', rich(bold(grouped(count)), ` (${sign}${grouped(Math.abs(change))} in ${since})`), true);
}

/** "1 buy", "2 buys"; an unknown count as "— buys". */
function count(n: number | null, one: string, many: string): string {
  return n === null ? `${UNKNOWN} ${many}` : `${n} ${n === 1 ? one : many}`;
}

function yesNo(value: boolean | null, riskyWhen: boolean): string {
  if (value === null) return UNKNOWN;
  return `${value ? 'yes' : 'no'} ${value === riskyWhen ? RISK_MARK : OK_MARK}`;
}

function amountOf(amount: bigint | null, token: Token | null): string {
  if (amount === null || token === null) return UNKNOWN;
  return `${formatTokenAmount(amount, token.decimals)} ${tokenUnit(token)}`;
}

function developerFields(technicals: Technicals, token: Token | null): CardField[] {
  const stats = technicals.tokenStats;
  const dev = technicals.devMakerData;
  const fields: CardField[] = [];
  if (stats !== null) {
    const soldShare = stats.devSoldSupplyPerc ?? sharePercent(stats.devSoldSupply, token?.totalSupply ?? null);
    fields.push(
      field('Dev Other Tokens', stats.devDeployedTokensCount === null ? UNKNOWN : String(stats.devDeployedTokensCount), true),
      field('Dev Rugged Before', yesNo(stats.isDevRug, true), true),
      field('Dev New', stats.isDevNew === null ? UNKNOWN : stats.isDevNew ? 'yes' : 'no', true),
      field('Dev Sold', soldShare === null ? UNKNOWN : `${percent(soldShare)} of supply`, true),
    );
  }
  if (dev !== null) {
    const bought =
      `Bought ${amountOf(dev.totalBoughtAmount, token)} for ${dev.totalBoughtETH === null ? UNKNOWN : sol(dev.totalBoughtETH)} ` +
      `in ${count(dev.totalBuyTransactions, 'buy', 'buys')}`;
    const soldUsd = dev.totalSoldUSD === null ? '' : ` (${usd(dev.totalSoldUSD)})`;
    const neverSold = dev.totalSellTransactions === 0 && (dev.totalSoldAmount === null || dev.totalSoldAmount === 0n);
    const sold = neverSold
      ? 'Sold none'
      : `Sold ${amountOf(dev.totalSoldAmount, token)} ` +
        `for ${dev.totalSoldETH === null ? UNKNOWN : sol(dev.totalSoldETH)}${soldUsd} ` +
        `in ${count(dev.totalSellTransactions, 'sell', 'sells')}`;
    fields.push(field('Dev Trades', joinRich([bought, sold], '\n')));
  }
  return fields;
}

const BUYER_TYPES: ReadonlyArray<{ type: string; label: string }> = [
  { type: 'HOLD', label: 'hold' },
  { type: 'SELL_PARTIAL', label: 'sold part' },
  { type: 'SELL_ALL', label: 'sold all' },
];

function buyerTypeLabel(type: string): string {
  return BUYER_TYPES.find((t) => t.type === type.trim().toUpperCase())?.label ?? untrusted(type, 16, UNKNOWN).toLowerCase();
}

/** Counts per type, HOLD / SELL_PARTIAL / SELL_ALL, and snipers; types the service may add are counted as "other". */
export function initialBuyerCounts(buyers: readonly InitialBuyer[]): {
  hold: number;
  sellPartial: number;
  sellAll: number;
  other: number;
  snipers: number;
} {
  const counts = { hold: 0, sellPartial: 0, sellAll: 0, other: 0, snipers: 0 };
  for (const buyer of buyers) {
    const type = buyer.initialBuyerType.trim().toUpperCase();
    if (type === 'HOLD') counts.hold++;
    else if (type === 'SELL_PARTIAL') counts.sellPartial++;
    else if (type === 'SELL_ALL') counts.sellAll++;
    else counts.other++;
    if (buyer.sniper) counts.snipers++;
  }
  return counts;
}

function compareDesc(a: bigint, b: bigint): number {
  return a > b ? -1 : a < b ? 1 : 0;
}

function buyerLine(buyer: InitialBuyer, token: Token | null): RichText {
  const wallet = link(shortAddress(untrusted(buyer.walletAddress, 64, '?')), explorerAccountUrl(buyer.walletAddress, token?.chainId));
  const label = buyerTypeLabel(buyer.initialBuyerType);
  // With an amount sold, "sold 13.6M MOCHI (part)" says both how much and what kind of seller.
  const outcome =
    buyer.sellAmount !== null && buyer.sellAmount > 0n
      ? `sold ${amountOf(buyer.sellAmount, token)} (${label.replace(/^sold /, '')})`
      : label === 'hold'
        ? 'holds'
        : label;
  return rich(wallet, ` · bought ${amountOf(buyer.buyAmount, token)} · ${outcome}`, buyer.sniper ? ' · sniper' : '');
}

function initialBuyerFields(technicals: Technicals, token: Token | null): CardField[] {
  const buyers = technicals.initialBuyerStats;
  if (buyers.length === 0) return [field('Initial Buyers', 'none recorded')];
  const counts = initialBuyerCounts(buyers);
  const parts = [
    `${counts.hold} hold`,
    `${counts.sellPartial} sold part`,
    `${counts.sellAll} sold all`,
    ...(counts.other > 0 ? [`${counts.other} other`] : []),
    count(counts.snipers, 'sniper', 'snipers'),
  ];
  const boughtShare = sharePercent(technicals.tokenStats?.initialTotalBoughtSupply ?? null, token?.totalSupply ?? null);
  const summary = rich(
    bold(String(buyers.length)),
    ` ${buyers.length === 1 ? 'buyer' : 'buyers'}: ${parts.join(' · ')}`,
    boughtShare === null ? '' : `\nBought ${percent(boughtShare)} of supply at launch`,
  );
  const largest = [...buyers].sort((a, b) => compareDesc(a.buyAmount ?? 0n, b.buyAmount ?? 0n)).slice(0, LARGEST_BUYERS);
  return [
    field('Initial Buyers', summary),
    field(
      'Largest Initial Buyers',
      joinRich(
        largest.map((buyer) => buyerLine(buyer, token)),
        '\n',
      ),
    ),
  ];
}

export function buildTechnicalsCard({ address, technicals, token, now, unreadable = 0 }: TechnicalsCardInput): Card {
  const points = technicals.overtimeTechnicals;
  const supply = token?.totalSupply ?? null;
  const fields: CardField[] = [holdersField(points)];
  const concentration = concentrationField(points, supply);
  fields.push(concentration ?? field('Holder Concentration', UNKNOWN));
  fields.push(...developerFields(technicals, token), ...initialBuyerFields(technicals, token));

  const newest = points[0];
  const newestTime = newest === undefined ? null : pointTime(newest);
  const shownAddress = shortAddress(untrusted(address, 64, '?'));
  const url = explorerTokenUrl(address, token?.chainId);
  return {
    title: `Technicals · ${token === null ? shownAddress : tokenTitle(token)}`,
    ...(url === null ? {} : { url }),
    color: token === null ? 'info' : tokenColor(token),
    fields,
    footer: [
      shownAddress,
      newestTime === null ? null : `synced ${relativeTime(newestTime, now)}`,
      unreadNote(unreadable, 'entry of the answer', 'entries of the answer'),
    ]
      .filter((part) => part !== null)
      .join(' · '),
    ...(newestTime === null ? {} : { timestamp: new Date(newestTime * 1000) }),
    actions: [
      { label: 'Token', command: 'token', args: [address] },
      { label: 'Holders', command: 'holders', args: [address] },
      { label: 'Chart', command: 'chart', args: [address] },
    ],
  };
}
