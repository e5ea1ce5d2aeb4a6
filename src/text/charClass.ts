/**
 * What card text code needs to know of one UTF-16 code unit, read from a table rather than worked
 * out per character: whether it is white space, one grapheme on its own, and left alone by
 * stripUnsafeChars. Card text is scanned character by character when it is cleaned, measured and
 * cut into words; a lookup per character costs less than range tests and regular expressions
 * there. Each code unit is classified the first time it is seen, so the table costs nothing at
 * start-up and only the parts of it that text uses are ever touched.
 */
import { stripUnsafeChars } from './unsafe';

/**
 * Characters that never join a neighbour into one grapheme and take one UTF-16 unit: printable
 * ASCII, Latin-1 and Latin extended letters (not the combining marks from U+0300), punctuation
 * (not the zero-width and bidi controls U+200B–U+200F, U+202A–U+202E, U+2060–U+206F), sub- and
 * superscripts, currency signs, arrows, box drawing and geometric shapes.
 */
const ONE_UNIT_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x20, 0x7e],
  [0xa0, 0x2ff],
  [0x2010, 0x2027],
  [0x2030, 0x205e],
  [0x2070, 0x20bf],
  [0x2190, 0x21ff],
  [0x2500, 0x25ff],
];

/** What `\s` matches, a line feed aside (tab, the space separators, U+2028, U+2029, U+FEFF…). */
export const BLANK = 1;
/** One of ONE_UNIT_RANGES' characters. */
export const ONE_UNIT = 2;
/**
 * A character stripUnsafeChars keeps as it is, in any text: not unsafe, not a line break other
 * than the line feed, not a tab, not half of a surrogate pair.
 */
export const KEPT = 4;
/** Set on every classified code unit, so that 0 means "not read yet". */
const KNOWN = 8;

const classes = new Uint8Array(0x10000);

function isOneUnit(code: number): boolean {
  for (const [from, to] of ONE_UNIT_RANGES) if (code >= from && code <= to) return true;
  return false;
}

function isBlank(code: number): boolean {
  return code !== 0x0a && /\s/.test(String.fromCharCode(code));
}

/** Whether stripUnsafeChars leaves the character as it is (a lone surrogate half becomes U+FFFD). */
function isKept(code: number): boolean {
  const char = String.fromCharCode(code);
  return stripUnsafeChars(char) === char;
}

function classify(code: number): number {
  return KNOWN | (isBlank(code) ? BLANK : 0) | (isOneUnit(code) ? ONE_UNIT : 0) | (isKept(code) ? KEPT : 0);
}

/** The classes of a UTF-16 code unit (0 to 0xFFFF): BLANK, ONE_UNIT and KEPT, or'ed. */
export function charClass(code: number): number {
  const known = classes[code] ?? 0;
  if (known !== 0) return known;
  const found = classify(code);
  classes[code] = found;
  return found;
}

/** Printable ASCII but the space: one grapheme, kept, not blank. Tested first, with no lookup. */
export function isPrintableAscii(code: number): boolean {
  return code > 0x20 && code < 0x7f;
}
