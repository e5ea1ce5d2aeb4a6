/**
 * The one definition of characters that must not travel from a stranger to a reader: terminal
 * escapes, control characters, invisible and bidi characters. Card text (src/cards/sanitize.ts),
 * log lines (src/log.ts) and the market client's error texts all clean with it, so a service's
 * error message cannot reorder a log line or a chat answer any more than a token name can.
 *
 * It sits below both the market layer and the cards, and imports nothing.
 */

/**
 * Terminal escape sequences: CSI (`ESC [ … final`, and its one-byte form U+009B), terminated OSC
 * (`ESC ] … BEL` or `… ESC \`), terminated DCS/SOS/PM/APC strings, and two-character escapes.
 * Removed whole, so a hostile `ESC[31m` leaves no `[31m` behind. One alternative a line, in that
 * order, joined into one pattern.
 */
const ESCAPE_SEQUENCE = new RegExp(
  [
    /\u001b\[[0-?]*[ -/]*[@-~]/.source,
    /\u009b[0-?]*[ -/]*[@-~]/.source,
    /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/.source,
    /\u001b[PX^_][^\u001b]*\u001b\\/.source,
    /\u001b[@-_]/.source,
  ].join('|'),
  'g',
);

/** Every way of breaking a line, read as one newline. */
const LINE_BREAK = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * Characters that are invisible or reorder text, and so let a name pretend to be something else:
 * C0 and C1 controls (newline aside: it is handled above), Unicode's whole
 * Default_Ignorable_Code_Point set (soft hyphen, the Arabic letter mark, the combining grapheme
 * joiner, Hangul and Khmer fillers, the Mongolian free variation selectors, zero-width characters,
 * bidi embeddings, overrides and isolates, variation selectors, musical formatting, tag
 * characters…), interlinear annotations, and letters that are drawn as a blank though Unicode
 * calls them visible (the Braille blank U+2800). The property is read from the engine's own
 * Unicode data rather than from a list kept here, so it grows with Unicode.
 * The zero-width joiner goes too, so emoji joined with it (👨‍👩‍👧) show as their parts: a small
 * loss next to names that hide a difference between two look-alikes.
 *
 * One exception: the presentation selectors U+FE0E/U+FE0F right after a pictograph (⚠️, ✅) only
 * choose how that visible symbol is drawn, hide nothing, and are kept; after a letter or a digit
 * they are removed like every other selector.
 *
 * The pattern is built from its three alternatives (controls and blanks, a selector not after a
 * pictograph, the rest of the ignorables), one a line.
 */
export const UNSAFE_CHARACTER = new RegExp(
  [
    /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2800\ufff9-\ufffb]/u.source,
    /(?<!\p{Extended_Pictographic})[\ufe0e\ufe0f]/u.source,
    /(?![\ufe0e\ufe0f])\p{Default_Ignorable_Code_Point}/u.source,
  ].join('|'),
  'u',
);
const UNSAFE_CHARACTERS = new RegExp(UNSAFE_CHARACTER.source, 'gu');
/** Half of a surrogate pair with no other half: some platforms reject such text outright. */
const LONE_SURROGATE = /\p{Cs}/gu;
/** A quick test that lets clean text (nearly all of it) through without any replacement pass. */
const ANYTHING_TO_CLEAN = new RegExp(`${UNSAFE_CHARACTER.source}|[\\u0085\\u2028\\u2029]|\\p{Cs}`, 'u');

/**
 * Removes terminal escapes and unsafe characters (see UNSAFE_CHARACTER), turns every line break
 * into `\n` and tabs into spaces, and replaces lone surrogates with U+FFFD. Spaces are kept as they
 * are: renderers use this on pieces of rich text whose spacing still matters when joined.
 */
export function stripUnsafeChars(s: string): string {
  if (!ANYTHING_TO_CLEAN.test(s)) return s;
  return s
    .replace(ESCAPE_SEQUENCE, '')
    .replace(LINE_BREAK, '\n')
    .replace(/\t/g, ' ')
    .replace(UNSAFE_CHARACTERS, '')
    .replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * A text written by the service (an error message, a close reason) fit for one log field or one
 * line of an answer: cleaned as card text is, every line break made a space, cut to `maxLength`
 * code units with "…".
 */
export function cleanServiceText(s: string, maxLength = 300): string {
  const cut = s.length > maxLength * 4 ? s.slice(0, maxLength * 4) : s;
  const clean = stripUnsafeChars(cut).replace(/\n/g, ' ');
  return clean.length > maxLength ? `${clean.slice(0, maxLength).replace(/[\ud800-\udbff]$/, '')}…` : clean;
}
