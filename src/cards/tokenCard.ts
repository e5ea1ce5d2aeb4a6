/**
 * The /token card: everything a trader checks before buying, on one card. Pure: it reads a Token
 * (any Token, hostile or half empty), a SOL→USD rate and the price moves read from its candles,
 * and fetches nothing.
 */
import type { Token } from '../market/schemas';
import { type Card, type CardField, type RichText, type Span, bold, field, italic, joinRich, link, riskColor, text } from './card';
import { age, grouped, percent, price, relativeTime, shortAddress, sol, usd } from '../text/format';
import { explorerAccountUrl, explorerTokenUrl } from './explorer';
import { marketLinks } from './marketLinks';
import type { MarketMoves, WindowChange } from './marketMoves';
import { safeUrl } from '../text/sanitize';
import { linkUrl } from '../text/linkUrl';
import { lookAlikeField } from './lookAlike';
import {
  UNKNOWN,
  type LiquidityValue,
  type PoolFacts,
  type Valued,
  inSolAndUsd,
  poolsByLiquidity,
  poolsValue,
  riskFlagText,
  riskFlags,
  riskStatusText,
  supplyTokens,
  toUsd,
  tokenPrice,
  tokenTitle,
  top10SharePercent,
} from './tokenFacts';
import { untrusted } from '../text/sanitize';

export interface TokenCardInput {
  token: Token;
  /** USD per SOL, or null when no rate could be derived: the card then shows SOL only. */
  solUsd: number | null;
  now: Date;
  /**
   * The price changes and the day's volume from the token's candles (src/cards/marketMoves.ts);
   * null when they could not be read (the card says so), absent when not asked for.
   */
  moves?: MarketMoves | null;
}

const MAX_POOLS = 3;
const MAX_LINKS = 6;
/**
 * Characters the links may take with their URLs, under Discord's 1024 per field value: a link
 * cut in half by a renderer's truncation would be worse than one link fewer.
 */
const LINKS_BUDGET = 900;
const DESCRIPTION_MAX = 200;

/** Names people know for the usual link keys; any other key is shown cleaned. */
const LINK_LABELS: Readonly<Record<string, string>> = {
  website: 'Website',
  twitter: 'Twitter',
  x: 'X',
  telegram: 'Telegram',
  discord: 'Discord',
  github: 'GitHub',
  medium: 'Medium',
  reddit: 'Reddit',
  instagram: 'Instagram',
  youtube: 'YouTube',
  tiktok: 'TikTok',
};

/** "$1.23K · 6.15 SOL" when a rate is known, "6.15 SOL" otherwise, "—" when the SOL value is unknown. */
function solAndUsd(solValue: number | null, solUsd: number | null, format: 'price' | 'amount'): RichText {
  if (solValue === null) return [text(UNKNOWN)];
  const solText = format === 'price' ? `${price(solValue)} SOL` : sol(solValue);
  const usdValue = toUsd(solValue, solUsd);
  return usdValue === null ? [bold(solText)] : [bold(usd(usdValue)), text(` · ${solText}`)];
}

/** "$1.23K · 6.15 SOL" when known in both, "6.15 SOL" or "$1.23K" when known in one, "—" when in neither. */
function valuedText(value: Valued, format: 'price' | 'amount'): RichText {
  const solText = value.sol === null ? null : format === 'price' ? `${price(value.sol)} SOL` : sol(value.sol);
  if (value.usd === null) return solText === null ? [text(UNKNOWN)] : [bold(solText)];
  return solText === null ? [bold(usd(value.usd))] : [bold(usd(value.usd)), text(` · ${solText}`)];
}

/** The liquidity as valuedText says it; without a rate, SOL and stablecoin pools as two parts: "6.15 SOL + $1.23K". */
function liquidityText(value: LiquidityValue): RichText {
  if (value.apart && value.sol !== null && value.usd !== null) return [bold(`${sol(value.sol)} + ${usd(value.usd)}`)];
  return valuedText(value, 'amount');
}

/** "+1.2%", "24h: token is 3h old", "—" when nothing was there to compare. */
function changeText(change: WindowChange): RichText {
  switch (change.kind) {
    case 'change':
      return [text(`${change.label} `), bold(percent(change.pct, { signed: true }))];
    case 'younger':
      return [text(`${change.label}: token is ${age(0, change.ageSecs)} old`)];
    case 'unknown':
      return [text(`${change.label} ${UNKNOWN}`)];
  }
}

/** The change over each window and the day's volume; "unavailable" when the candles could not be read. */
function movesFields(moves: MarketMoves | null, solUsd: number | null): CardField[] {
  if (moves === null)
    return [field('Price change', 'unavailable (the chart data could not be read)'), field('Volume 24h', 'unavailable', true)];
  return [
    field('Price change', joinRich(moves.changes.map(changeText))),
    field('Volume 24h', solAndUsd(moves.volume24h.sol, solUsd, 'amount'), true),
  ];
}

function riskField(token: Token, status: string): CardField {
  const spans: RichText = [bold(status)];
  for (const flag of riskFlags(token)) spans.push(text(`\n${riskFlagText(flag)}`));
  return field('Risk', spans);
}

/** A pool's depth and price in its own quote: "62.27 SOL ($12.4K) · 0.0₅164 SOL", "$35.28K USDC · $0.1111". */
function poolFigures(pool: PoolFacts, solUsd: number | null): string {
  if (pool.quote === 'SOL') {
    const liquidityUsd = toUsd(pool.liquiditySol, solUsd);
    const liquidity = pool.liquiditySol === null ? `SOL pair, ${UNKNOWN}` : sol(pool.liquiditySol);
    const inUsd = liquidityUsd === null ? '' : ` (${usd(liquidityUsd)})`;
    return `${liquidity}${inUsd}${pool.priceSol === null ? '' : ` · ${price(pool.priceSol)} SOL`}`;
  }
  if (pool.quote !== null) {
    const liquidity = pool.liquidityUsd === null ? `${pool.quote} pair, ${UNKNOWN}` : `${usd(pool.liquidityUsd)} ${pool.quote}`;
    return `${liquidity}${pool.priceUsd === null ? '' : ` · ${usd(pool.priceUsd)}`}`;
  }
  return 'non-SOL pair';
}

function poolLine(pool: PoolFacts, solUsd: number | null, chainId: number | null): RichText {
  return [
    bold(pool.protocol),
    text(` · ${poolFigures(pool, solUsd)}`),
    text(' · '),
    link(shortAddress(untrusted(pool.address, 64, '?')), explorerAccountUrl(pool.address, chainId)),
  ];
}

function poolsField(pools: readonly PoolFacts[], solUsd: number | null, chainId: number | null): CardField {
  if (pools.length === 0) return field('Pools', 'none');
  const shown = pools.slice(0, MAX_POOLS);
  const name = pools.length > shown.length ? `Top Pools (${shown.length} of ${pools.length})` : shown.length === 1 ? 'Pool' : 'Pools';
  return field(
    name,
    joinRich(
      shown.map((pool) => poolLine(pool, solUsd, chainId)),
      '\n',
    ),
  );
}

function linkLabel(key: string): string {
  return LINK_LABELS[key.trim().toLowerCase()] ?? untrusted(key, 20, 'Link');
}

/**
 * The website and every social link that is a safe http(s) URL (or a bare host and path on a known
 * host: linkUrl), each URL once; others are dropped.
 */
function linkSpans(token: Token): Span[] {
  const entries: Array<[string, string | null]> = [['website', token.website], ...Object.entries(token.links)];
  const seen = new Set<string>();
  const spans: Span[] = [];
  let used = 0;
  for (const [key, url] of entries) {
    const safe = linkUrl(url);
    if (safe === null || seen.has(safe)) continue;
    const label = linkLabel(key);
    const cost = label.length + safe.length + 8;
    if (used + cost > LINKS_BUDGET) continue;
    seen.add(safe);
    used += cost;
    spans.push(link(label, safe));
    if (spans.length >= MAX_LINKS) break;
  }
  return spans;
}

function syncedAt(token: Token): Date | null {
  if (token.syncedAt === null) return null;
  const time = Date.parse(token.syncedAt);
  return Number.isNaN(time) ? null : new Date(time);
}

/** DEX Screener, Birdeye, GeckoTerminal, Jupiter and Solscan, from the address (src/cards/marketLinks.ts). */
function marketField(token: Token): CardField | null {
  const links = marketLinks(token.address, token.chainId);
  return links.length === 0 ? null : field('Trade & charts', joinRich(links.map((entry) => link(entry.label, entry.url))));
}

export function buildTokenCard({ token, solUsd, now, moves }: TokenCardInput): Card {
  const pools = poolsByLiquidity(token, solUsd);
  const tokenPriced = tokenPrice(pools, solUsd);
  const supply = supplyTokens(token);
  const marketCap = tokenPriced === null || supply === null ? null : tokenPriced.price * supply;
  const top10 = top10SharePercent(token);
  const deployer = token.deployerAddress;
  const synced = syncedAt(token);
  // The status as shown gives the colour too (tokenColor), so the two never disagree.
  const status = riskStatusText(token);

  const lookAlike = lookAlikeField(token);
  const fields: CardField[] = [
    // First, before any figure: a copy of a well-known token's name is the one thing to know.
    ...(lookAlike === null ? [] : [lookAlike]),
    field('Price', valuedText(inSolAndUsd(tokenPriced?.price ?? null, tokenPriced?.unit ?? 'SOL', solUsd), 'price'), true),
    field('Market Cap', valuedText(inSolAndUsd(marketCap, tokenPriced?.unit ?? 'SOL', solUsd), 'amount'), true),
    field('Liquidity', liquidityText(poolsValue(pools, solUsd)), true),
    ...(moves === undefined ? [] : movesFields(moves, solUsd)),
    field('Holders', token.holdersCount === null ? UNKNOWN : grouped(token.holdersCount), true),
    field('Top 10 Holders', top10 === null ? UNKNOWN : percent(top10), true),
    field('Age', token.creationBlockTimestamp === null ? UNKNOWN : age(token.creationBlockTimestamp, now), true),
    field(
      'Deployer',
      deployer === null || deployer.trim() === ''
        ? UNKNOWN
        : link(shortAddress(untrusted(deployer, 64, '?')), explorerAccountUrl(deployer, token.chainId)),
      true,
    ),
    riskField(token, status),
  ];
  fields.push(poolsField(pools, solUsd, token.chainId));
  const market = marketField(token);
  if (market !== null) fields.push(market);
  const links = linkSpans(token);
  if (links.length > 0) fields.push(field('Links', joinRich(links)));

  // One line only: a description written as "Risk: SAFE ✅" lines must not pass for the card's own fields.
  const description = untrusted(token.description, DESCRIPTION_MAX);
  const url = explorerTokenUrl(token.address, token.chainId);
  const thumbnail = safeUrl(token.logo) ?? safeUrl(token.image);
  const address = untrusted(token.address, 64, '?');
  const footer = synced === null ? shortAddress(address) : `${shortAddress(address)} · synced ${relativeTime(synced, now)}`;

  return {
    title: tokenTitle(token),
    ...(url === null ? {} : { url }),
    ...(description === '' ? {} : { description: [italic(description)] }),
    color: riskColor(status),
    fields,
    ...(thumbnail === null ? {} : { thumbnailUrl: thumbnail }),
    footer,
    ...(synced === null ? {} : { timestamp: synced }),
    actions: [
      { label: 'Chart', command: 'chart', args: [token.address] },
      { label: 'Holders', command: 'holders', args: [token.address] },
      { label: 'Technicals', command: 'technicals', args: [token.address] },
      { label: 'Track', command: 'track', args: ['token', token.address] },
    ],
  };
}
