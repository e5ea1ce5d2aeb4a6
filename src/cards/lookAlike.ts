/**
 * A token that copies a well-known token's symbol or name (src/market/knownTokens.ts) from another
 * address: its card and its alerts say plainly that it is not the real one.
 *
 * Names are compared as a reader sees them, not as they are spelled: invisible characters are
 * removed (the card's own cleaning), compatibility forms folded (full-width `ＵＳＤＣ`), case,
 * spaces, `$` and punctuation ignored, and the Cyrillic and Greek letters drawn like Latin ones read
 * as those (`USDС` with a Cyrillic С). Only the whole name or symbol counts: "Bonk Cat" is its own
 * token, "BONK" at another address is a copy.
 */
import { KNOWN_TOKENS, type KnownToken } from '../market/knownTokens';
import { stripUnsafeChars } from '../text/unsafe';
import { type CardField, bold, field, text } from './card';

/** Cyrillic and Greek letters drawn like Latin ones, as a reader would read them. */
const LOOKS_LATIN: Readonly<Record<string, string>> = {
  а: 'a',
  в: 'b',
  с: 'c',
  е: 'e',
  һ: 'h',
  і: 'i',
  ј: 'j',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  ѕ: 's',
  т: 't',
  у: 'y',
  х: 'x',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
};

/** How a name reads: folded, lower case, letters and digits only. */
export function readAs(name: string): string {
  let read = '';
  for (const char of stripUnsafeChars(name).normalize('NFKC').toLowerCase()) {
    const latin = LOOKS_LATIN[char] ?? char;
    if (/[\p{L}\p{N}]/u.test(latin)) read += latin;
  }
  return read;
}

const BY_READING = new Map<string, KnownToken>();
for (const known of KNOWN_TOKENS) for (const name of [known.symbol, ...known.names]) BY_READING.set(readAs(name), known);

/** The well-known token this one passes itself off as, or null (none, or it is the real one). */
export function lookAlikeOf(token: { address: string; symbol: string | null; name: string | null }): KnownToken | null {
  for (const name of [token.symbol, token.name]) {
    if (name === null) continue;
    const known = BY_READING.get(readAs(name));
    if (known !== undefined && known.address !== token.address) return known;
  }
  return null;
}

/** The card's warning field for a copy, or null. */
export function lookAlikeField(token: { address: string; symbol: string | null; name: string | null }): CardField | null {
  const known = lookAlikeOf(token);
  if (known === null) return null;
  return field(`⚠️ Not the real ${known.symbol}`, [
    text('This token takes the name of '),
    bold(known.symbol),
    text(` but its address is not ${known.symbol}'s. Check the address before you trade.`),
  ]);
}
