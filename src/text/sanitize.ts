/**
 * Safety for text written by strangers: token names, symbols, descriptions and links come from
 * whoever deployed the token. Nothing here knows a chat platform; each renderer escapes its own
 * markup on top of this, and Discord's sender also disables mentions.
 *
 * Lengths are counted in UTF-16 code units, as Discord and Telegram count their limits, and text is
 * only ever cut between graphemes, so an emoji or an accented letter is never split in half.
 */

import { UNSAFE_CHARACTER, stripUnsafeChars } from './unsafe';
import { BLANK, KEPT, ONE_UNIT, charClass } from './charClass';

// The cleaning itself lives below the cards, where the market client and the log use it too.
export { UNSAFE_CHARACTER, stripUnsafeChars };

/** What the input is cut to before cleaning, so a megabyte of junk costs nothing. */
const RAW_LIMIT_FACTOR = 16;
const RAW_LIMIT_FLOOR = 4096;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Whether every code unit of `s` is one grapheme on its own (ONE_UNIT in charClass.ts). */
function allOneUnit(s: string): boolean {
  for (let index = 0; index < s.length; index++) {
    const code = s.charCodeAt(index);
    if (code < 0x20 || (code > 0x7e && (charClass(code) & ONE_UNIT) === 0)) return false;
  }
  return true;
}

/** Counts of short texts the segmenter had to read: the same few words (✅, ⚠️, a flag) come back on every card. */
const segmentedCounts = new Map<string, number>();
const SEGMENTED_KEPT = 2_000;
const SEGMENTED_MAX_LENGTH = 32;

/** Number of graphemes (what a reader counts as characters). */
export function graphemeCount(s: string): number {
  // The segmenter is slow, and nearly all text on a card is one grapheme per code unit.
  if (allOneUnit(s)) return s.length;
  const short = s.length <= SEGMENTED_MAX_LENGTH;
  const known = short ? segmentedCounts.get(s) : undefined;
  if (known !== undefined) return known;
  let count = 0;
  for (const _ of graphemes.segment(s)) count += 1;
  if (short) {
    // A bound, not an LRU: the map is a saving, never a requirement.
    if (segmentedCounts.size >= SEGMENTED_KEPT) segmentedCounts.clear();
    segmentedCounts.set(s, count);
  }
  return count;
}

/**
 * Cuts `s` to at most `maxLength` UTF-16 code units, at a grapheme boundary, ending with "…" when
 * anything was cut. Trailing spaces before the ellipsis are dropped.
 */
export function truncateText(s: string, maxLength: number): string {
  const max = Math.max(0, Math.floor(maxLength));
  if (s.length <= max) return s;
  if (max === 0) return '';
  let kept = '';
  for (const { segment } of graphemes.segment(s)) {
    if (kept.length + segment.length + 1 > max) break;
    kept += segment;
  }
  return `${kept.trimEnd()}…`;
}

function prepare(s: string | null | undefined, maxLength: number): string {
  if (typeof s !== 'string') return '';
  const rawLimit = Math.max(RAW_LIMIT_FLOOR, maxLength * RAW_LIMIT_FACTOR);
  return stripUnsafeChars(s.length > rawLimit ? s.slice(0, rawLimit) : s);
}

function finish(cleaned: string, maxLength: number, fallback: string, clean: (s: string) => string): string {
  const result = truncateText(cleaned, maxLength);
  if (result !== '') return result;
  return truncateText(clean(stripUnsafeChars(fallback)), maxLength);
}

function collapseLine(s: string): string {
  return s.replace(/\s+/gu, ' ').trim();
}

function collapseParagraphs(s: string): string {
  return s
    .split('\n')
    .map((line) => line.replace(/[^\S\n]+/gu, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Whether cleanText would return `s` as it is: words of characters that are one grapheme each,
 * kept by stripUnsafeChars and not white space, joined by single spaces, with no space at either
 * end. Nearly all card text (figures, addresses, plain names, "0.0₅2867 SOL") is.
 */
function isCleanLine(s: string): boolean {
  const last = s.length - 1;
  if (last < 0) return false;
  let previous = 0x20;
  for (let index = 0; index <= last; index++) {
    const code = s.charCodeAt(index);
    if (code === 0x20) {
      if (previous === 0x20 || index === last) return false;
    } else if (code < 0x21 || (code > 0x7e && (charClass(code) & (ONE_UNIT | KEPT | BLANK)) !== (ONE_UNIT | KEPT))) return false;
    previous = code;
  }
  return true;
}

/**
 * Untrusted text made fit for one line (names, symbols, labels): unsafe characters and terminal
 * escapes removed, every run of whitespace (newlines included) made one space, trimmed, and cut
 * to `maxLength` with "…". Empty results become `fallback` (for instance "(unnamed)").
 * Idempotent: cleaning a cleaned text changes nothing.
 */
export function cleanText(s: string | null | undefined, maxLength: number, fallback = ''): string {
  // Most card text is already clean (isCleanLine) and within the length: cleaning would return it unchanged.
  if (typeof s === 'string' && s.length <= maxLength && isCleanLine(s)) return s;
  return finish(collapseLine(prepare(s, maxLength)), maxLength, fallback, collapseLine);
}

/**
 * As cleanText, for descriptions: newlines are kept (at most one blank line in a row), each line's
 * spaces collapsed and trimmed.
 */
export function cleanMultilineText(s: string | null | undefined, maxLength: number, fallback = ''): string {
  return finish(collapseParagraphs(prepare(s, maxLength)), maxLength, fallback, collapseParagraphs);
}

export const MAX_URL_LENGTH = 512;

/** Host names after the URL parser has lower-cased and punycoded them, or a bracketed IPv6. */
const SAFE_HOST = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])$/;

/**
 * A link fit to show: an absolute http: or https: URL with a host name (a dotted name or an IP),
 * no user name or password, at most MAX_URL_LENGTH characters, returned in the URL parser's
 * normal form (ASCII only: the host punycoded, spaces, quotes and angle brackets percent-encoded).
 * Anything else is null: javascript:, data:, file:, relative or malformed links, and links with
 * whitespace, control, invisible or bidi characters or backslashes anywhere inside, since parsers
 * silently drop or reinterpret those (`java\tscript:`, `https:\\evil`). Spaces at either end are
 * forgiven, as metadata often carries them.
 */
export function safeUrl(input: string | null | undefined): string | null {
  if (typeof input !== 'string') return null;
  // Every link is checked where a card is built and again by each renderer: the answer for the
  // same text is the same, so a recent one is reused.
  const known = checkedUrls.get(input);
  if (known !== undefined) return known;
  const checked = checkUrl(input);
  if (input.length <= MAX_URL_LENGTH + 64) {
    // A bound, not an LRU: the map is a saving, never a requirement.
    if (checkedUrls.size >= CHECKED_URLS_KEPT) checkedUrls.clear();
    checkedUrls.set(input, checked);
  }
  return checked;
}

/** Recent answers of safeUrl, by the text given. */
const checkedUrls = new Map<string, string | null>();
const CHECKED_URLS_KEPT = 1_000;

function checkUrl(input: string): string | null {
  const s = input.replace(/^ +| +$/g, '');
  if (s.length === 0 || s.length > MAX_URL_LENGTH) return null;
  if (/[\s\p{Cc}\p{Cf}\p{Cs}\\]/u.test(s) || UNSAFE_CHARACTER.test(s)) return null;
  // The parser also accepts `http:example.com` and `https:/x`; only the plain form is taken.
  if (!/^https?:\/\/[^/]/i.test(s)) return null;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  const host = url.hostname;
  if (!SAFE_HOST.test(host) || !(host.includes('.') || host.startsWith('['))) return null;
  const href = url.href;
  return href.length <= MAX_URL_LENGTH ? href : null;
}

/**
 * Makes mentions inert: `@everyone`, `@here` and `<@id>`, `<@!id>`, `<@&id>`, `<#id>` get a
 * full-width sign (＠, ＃) in place of `@` and `#`. They read the same but ping no one, and, unlike
 * a zero-width space, the fix contains no invisible character, so cleanText cannot undo it and a
 * card stays free of invisible characters. Idempotent. Discord's sender also sets allowed_mentions
 * to none; this is defence in depth for any path where that setting is missing.
 */
export function defuseMentions(s: string): string {
  if (!s.includes('@') && !s.includes('<')) return s;
  return s.replace(/@(?=everyone|here)/gi, '＠').replace(/<([@#])/g, (_, sign: string) => `<${sign === '@' ? '＠' : '＃'}`);
}

/**
 * Text written by strangers (token names, symbols, tags, link labels) fit for one line of a card:
 * cleaned and cut by cleanText, then with mentions made inert.
 */
export function untrusted(value: string | null | undefined, maxLength: number, fallback = ''): string {
  return defuseMentions(cleanText(value, maxLength, fallback));
}
