/**
 * The chart card: a token's price over a range as candles summarise it (spec §4.5): open, high,
 * low, close, change and volume, with the candlestick picture as its image when one was drawn
 * (src/charts/). Prices are in SOL per token, the quote of the pools (§2.8). Candles the answer
 * held beyond the request (outside the range, repeated, past countBack) were left out before this
 * card is built, and it says how many, so nothing is shown as read that was not asked for. The
 * change is over what is drawn, and the Range names that: the range asked for, or where the
 * candles start when that is elsewhere (a young token, candles longer than the range).
 */
import type { Candle } from '../market/schemas';
import { bold, field, joinRich, text, type Card, type CardAction, type CardAttachment, type RichText } from './card';
import { cardTime, duration, grouped, percent, price, sol, usd } from '../text/format';
import { explorerTokenUrl } from './explorer';
import { tokenSymbol, tokenTitle, type TokenInfo } from './tradeFacts';
import { unreadNote } from './unread';

export interface CandleSummary {
  /** Open of the first candle. */
  open: number;
  /** Highest high and lowest low of all candles. */
  high: number;
  low: number;
  /** Close of the last candle. */
  close: number;
  /** From the first open to the last close, in percent; NaN when the open is 0. */
  changePct: number;
  /** Sum of the candles' volumes, in whole base tokens. */
  volume: number;
  /** The volume in SOL: each candle's volume at its close, summed (as the token card's Volume 24h). */
  volumeSol: number;
  count: number;
}

/** Summary of candles given oldest first; null when there are none. */
export function summarizeCandles(candles: readonly Candle[]): CandleSummary | null {
  const first = candles[0];
  const last = candles[candles.length - 1];
  if (first === undefined || last === undefined) return null;
  let high = -Infinity;
  let low = Infinity;
  let volume = 0;
  let volumeSol = 0;
  for (const candle of candles) {
    high = Math.max(high, candle.high);
    low = Math.min(low, candle.low);
    volume += candle.volume;
    volumeSol += candle.volume * candle.close;
  }
  const changePct = first.open === 0 ? Number.NaN : ((last.close - first.open) / first.open) * 100;
  return { open: first.open, high, low, close: last.close, changePct, volume, volumeSol, count: candles.length };
}

/**
 * Where what is drawn, and the change over it, starts when that is not the range asked for (Unix
 * seconds of the first candle's start), and why: the token is younger than the range, or its
 * candles reach back well before the range (1d candles over the last hour).
 */
export interface ChartSince {
  secs: number;
  why: 'younger' | 'long-candles';
}

/** The span a chart draws, as its card and picture name it: "24h", or "since 2026-11-23 00:00 UTC" (cardTime, as every card dates). */
export function spanLabel(rangeLabel: string, since: ChartSince | null | undefined): string {
  return since === null || since === undefined ? rangeLabel : `since ${cardTime(new Date(since.secs * 1000))}`;
}

/** One line saying why the span drawn is not the range asked for; null when it is. */
export function spanNote(rangeLabel: string, intervalSecs: number, since: ChartSince | null | undefined): string | null {
  if (since === null || since === undefined) return null;
  return since.why === 'younger'
    ? `Younger than ${rangeLabel}: drawn from its first candle`
    : `${duration(intervalSecs)} candles reach past the last ${rangeLabel}: measured from the first one's start`;
}

export interface ChartCardInput {
  token: TokenInfo;
  /** Oldest first, as the client returns them. */
  candles: readonly Candle[];
  /** The candle width used. */
  intervalSecs: number;
  /** The width asked for, when the query had to widen it to stay under the candle cap. */
  requestedIntervalSecs: number;
  rangeSecs: number;
  /** The range as the reader named it ("24h"); duration() of rangeSecs when not given. */
  rangeLabel?: string;
  now: Date;
  /** USD per SOL, when known: the volume is then in USD too, as on the token card. */
  solUsd?: number | null;
  /** The candlestick picture, when drawn. */
  image?: CardAttachment;
  /** True when drawing the picture failed: the card says the picture is missing. */
  pictureFailed?: boolean;
  /** Readable candles the answer held that were left out, and how many candles it held in all (unreadable ones too). */
  dropped?: number;
  received?: number;
  /** Candles the client could not read (left out before `candles`). */
  unreadable?: number;
  /** Where what is drawn starts, when not at the range's start (chartSpan in src/query/chartQuery.ts). */
  since?: ChartSince | null;
}

/** The wider view offered as a button, unless the chart already covers a week or more. */
const WIDER_RANGE = { range: '7d', interval: '4h', secs: 7 * 86_400 } as const;

/** "$1.23K · 8.2 SOL" with a rate, "8.2 SOL" without: the token card's units for a volume. */
function volumeText(volumeSol: number, solUsd: number | null): string {
  return solUsd === null ? sol(volumeSol) : `${usd(volumeSol * solUsd)} · ${sol(volumeSol)}`;
}

function solPrice(n: number): string {
  return `${price(n)} SOL`;
}

function actionsFor(address: string, rangeSecs: number): CardAction[] {
  const actions: CardAction[] = [{ label: 'Token', command: 'token', args: [address] }];
  if (rangeSecs < WIDER_RANGE.secs) {
    actions.push({ label: `Chart ${WIDER_RANGE.range}`, command: 'chart', args: [address, WIDER_RANGE.interval, WIDER_RANGE.range] });
  }
  return actions;
}

export function buildChartCard(input: ChartCardInput): Card {
  const { token, candles, intervalSecs, requestedIntervalSecs, rangeSecs, now } = input;
  const title = tokenTitle(token);
  const symbol = tokenSymbol(token);
  const url = explorerTokenUrl(token.address) ?? undefined;
  const range = input.rangeLabel ?? duration(rangeSecs);
  const interval = duration(intervalSecs);
  const summary = summarizeCandles(candles);
  const dropped = input.dropped ?? 0;
  const unread = unreadNote(input.unreadable ?? 0, 'candle');
  const leftOutNote: RichText = joinRich(
    [
      dropped > 0
        ? `The service sent ${grouped(input.received ?? dropped)} candle${(input.received ?? dropped) === 1 ? '' : 's'} for the ` +
          `last ${range}; ${grouped(dropped)} outside that range, repeated or beyond the number asked for were left out.`
        : [],
      unread === null ? [] : `${unread}.`,
    ],
    ' ',
  );

  if (summary === null) {
    return {
      title: `No chart for ${title}`,
      url,
      // With candles left out or unreadable, "no trades" would be a claim the answer did not make.
      description:
        leftOutNote.length > 0
          ? [text(`No ${interval} candles of ${title} in the last ${range} could be shown.\n`), ...leftOutNote]
          : [text(`No trades of ${title} in the last ${range}, so there are no ${interval} candles to show.`)],
      color: 'neutral',
      fields: [],
      timestamp: now,
      actions: actionsFor(token.address, rangeSecs),
    };
  }

  const notes = [`Prices in SOL per ${symbol}`];
  if (intervalSecs !== requestedIntervalSecs) {
    notes.push(`${duration(requestedIntervalSecs)} candles over ${range} would be too many; shown at ${interval}`);
  }
  const sinceNote = spanNote(range, intervalSecs, input.since);
  if (sinceNote !== null) notes.push(sinceNote);
  if (input.pictureFailed) notes.push('The picture could not be drawn');
  return {
    title: `Chart of ${title}`,
    url,
    ...(leftOutNote.length > 0 ? { description: leftOutNote } : {}),
    color: 'info',
    fields: [
      field('Open', solPrice(summary.open), true),
      field('High', solPrice(summary.high), true),
      field('Low', solPrice(summary.low), true),
      field('Close', bold(solPrice(summary.close)), true),
      field('Change', bold(percent(summary.changePct, { signed: true })), true),
      // In SOL (and USD with a rate), as the token card gives it: a count of tokens reads as neither.
      field('Volume', volumeText(summary.volumeSol, input.solUsd ?? null), true),
      field('Candles', `${summary.count} × ${interval}`, true),
      // The change above is over what is drawn: the range, or from where the candles start.
      field('Range', input.since === null || input.since === undefined ? `last ${range}` : spanLabel(range, input.since), true),
    ],
    ...(input.image === undefined ? {} : { image: input.image }),
    footer: notes.join(' · '),
    timestamp: now,
    actions: actionsFor(token.address, rangeSecs),
  };
}
