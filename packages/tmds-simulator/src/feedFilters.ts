/**
 * token-feed's filter sets in the vendor protocol: `{"type": "setFilters", "filters": {...}}`,
 * keyed by the readable labels of the vendor's page, each a range `{min, max}`, a text `{text}` or
 * a boolean (shared/spec/real-service.md). Every label of the page is honoured; an unknown label is
 * ignored, as a service that added a filter after its client was written would have it; a known
 * label with a value of the wrong form is refused, so a mistyped filter never passes silently.
 */
import type { VendorFeedToken } from './vendorWireTypes';

/** A filter set the server cannot apply; the message says which label and why. */
export class FeedFilterError extends Error {}

type Figure = (token: VendorFeedToken) => number | null;

function minutesOld(token: VendorFeedToken): number {
  return (Date.parse(token.timestamp) - Date.parse(token.createdAt)) / 60_000;
}

/** The range labels and the figure of a listed token each one bounds. */
const RANGES: Readonly<Record<string, Figure>> = {
  'Bot users': (token) => token.botsTotalCount,
  Buys: (token) => token.buys,
  'Dev holding %': (token) => token.devHoldingSupplyPerc,
  Holders: (token) => token.holders,
  'Insider wallets supply': (token) => token.insiderWalletsSupplyPerc,
  Liquidity: (token) => token.liquidityUSD,
  'Market Cap': (token) => token.marketCapUSD,
  Sells: (token) => token.sells,
  'Sniper wallets': (token) => token.sniperWalletsCount,
  'Token Age (mins)': minutesOld,
  'Top 10 Holders': (token) => token.top10HoldersSupplyPerc,
  Txns: (token) => token.totalTxns,
  Volume: (token) => token.totalVolume,
};

type Condition =
  | { kind: 'range'; figure: Figure; min: number | null; max: number | null }
  | { kind: 'search'; text: string }
  | { kind: 'exclude'; words: string[] }
  | { kind: 'social' };

/** A parsed filter set: every condition must hold. */
export type FeedFilters = readonly Condition[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A bound of a range: a number or numeric text; absent, null or empty text for none. */
function bound(label: string, side: string, value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(number)) throw new FeedFilterError(`filters["${label}"].${side} must be a number`);
  return number;
}

function range(label: string, figure: Figure, value: unknown): Condition | null {
  if (!isRecord(value)) throw new FeedFilterError(`filters["${label}"] must be a range {"min": ..., "max": ...}`);
  const min = bound(label, 'min', value.min);
  const max = bound(label, 'max', value.max);
  if (min !== null && max !== null && min > max) throw new FeedFilterError(`filters["${label}"]: min is above max`);
  return min === null && max === null ? null : { kind: 'range', figure, min, max };
}

function text(label: string, value: unknown): string {
  const raw = isRecord(value) ? value.text : value;
  if (raw === undefined || raw === null) return '';
  if (typeof raw !== 'string') throw new FeedFilterError(`filters["${label}"] must be a text {"text": "..."}`);
  return raw.trim().toLowerCase();
}

function condition(label: string, value: unknown): Condition | null {
  const figure = RANGES[label];
  if (figure !== undefined) return range(label, figure, value);
  switch (label) {
    case 'Search': {
      const wanted = text(label, value);
      return wanted === '' ? null : { kind: 'search', text: wanted };
    }
    case 'Exclude': {
      const words = text(label, value)
        .split(',')
        .map((word) => word.trim())
        .filter((word) => word.length > 0);
      return words.length === 0 ? null : { kind: 'exclude', words };
    }
    case 'With at least 1 social':
      if (typeof value !== 'boolean') throw new FeedFilterError(`filters["${label}"] must be true or false`);
      return value ? { kind: 'social' } : null;
    default:
      return null;
  }
}

/** The filter set of a setFilters message (`filters` absent: no filter). */
export function parseFeedFilters(raw: unknown): FeedFilters {
  if (raw === undefined || raw === null) return [];
  if (!isRecord(raw)) throw new FeedFilterError('filters must be an object keyed by filter labels');
  const conditions: Condition[] = [];
  for (const [label, value] of Object.entries(raw)) {
    const parsed = condition(label, value);
    if (parsed !== null) conditions.push(parsed);
  }
  return conditions;
}

function holds(token: VendorFeedToken, condition: Condition): boolean {
  switch (condition.kind) {
    case 'range': {
      const value = condition.figure(token);
      // A figure the token lacks (a hidden top-10 share) meets no bound.
      if (value === null) return false;
      return (condition.min === null || value >= condition.min) && (condition.max === null || value <= condition.max);
    }
    case 'search':
      return [token.name, token.symbol, token.address].some((field) => field.toLowerCase().includes(condition.text));
    case 'exclude':
      return !condition.words.some((word) => token.name.toLowerCase().includes(word) || token.symbol.toLowerCase().includes(word));
    case 'social':
      return token.socialsCount > 0;
  }
}

export function matchesFilters(token: VendorFeedToken, filters: FeedFilters): boolean {
  return filters.every((condition) => holds(token, condition));
}
