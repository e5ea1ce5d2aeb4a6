/**
 * A chat's calls as CSV (RFC 4180: comma-separated, CRLF lines, every text cell quoted), one row per
 * call, for `/calls export`. Names and symbols are written by strangers: every text cell passes the
 * cards' own cleaning (terminal escapes, NUL and other control characters, bidi and zero-width
 * characters removed, line breaks and runs of spaces made one space), and a cell that a spreadsheet
 * would run as a formula (starting, after any leading whitespace or control character, with = + -
 * @) is written with a leading apostrophe.
 */
import type { Call } from '../store/calls';
import { cleanText } from '../text/sanitize';
import { nowMultiple, peakMultiple } from './callText';

export const CSV_HEADER = [
  'called_at',
  'token',
  'symbol',
  'name',
  'caller_id',
  'caller_name',
  'entry_price_sol',
  'entry_price_usd',
  'entry_mcap_usd',
  'sol_usd',
  'peak_price_sol',
  'peak_at',
  'peak_multiple',
  'last_price_sol',
  'last_multiple',
] as const;

/** The longest text cell written: a name or symbol is far shorter; past it the text is cut with "…". */
const MAX_CELL = 500;
/** What a spreadsheet may start a formula with, behind any whitespace or control character it skips. */
const FORMULA_START = /^[\s\p{Cc}]*[=+\-@]/u;

function cell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const clean = cleanText(value, MAX_CELL);
  // The raw text is checked too: whatever the cleaning took away, no formula sign leads the cell.
  const inert = FORMULA_START.test(clean) || FORMULA_START.test(value) ? `'${clean}` : clean;
  return `"${inert.replaceAll('"', '""')}"`;
}

export function callsCsv(calls: readonly Call[]): string {
  const lines = [CSV_HEADER.join(',')];
  for (const call of calls) {
    lines.push(
      [
        cell(call.calledAt.toISOString()),
        cell(call.address),
        cell(call.symbol),
        cell(call.name),
        cell(call.userId),
        cell(call.userName),
        cell(call.priceSol),
        cell(call.priceUsd),
        cell(call.mcapUsd),
        cell(call.solUsd),
        cell(call.peakSol),
        cell(call.peakAt.toISOString()),
        cell(Math.round(peakMultiple(call) * 1000) / 1000),
        cell(call.lastSol),
        cell(Math.round(nowMultiple(call) * 1000) / 1000),
      ].join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
