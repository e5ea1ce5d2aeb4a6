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
 * Removed whole, so a hostile `ESC[31m` leaves no `[31m` behind.
 */
const ESCAPE_SEQUENCE =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[PX^_][^\u001b]*\u001b\\|\u001b[@-_]/g;

/** Every way of breaking a line, read as one newline. */
const LINE_BREAK = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * Characters that are invisible or reorder text, and so let a name pretend to be something else:
 * C0 and C1 controls (newline aside: it is handled above), soft hyphen, the Arabic letter mark,
 * Hangul fillers (used to make "blank" names), the Mongolian vowel separator, zero-width
 * characters (U+200B–U+200F, U+2060–U+2064, U+FEFF), bidi embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069) and the deprecated format characters after them, interlinear
 * annotations, and tag characters (invisible text riding along with a visible one).
 * The zero-width joiner goes too, so emoji joined with it (👨‍👩‍👧) show as their parts: a small
 * loss next to names that hide a difference between two look-alikes.
 */
export const UNSAFE_CHARACTER =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\u{e0000}-\u{e007f}]/u;
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
