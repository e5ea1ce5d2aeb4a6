/**
 * Text on a picture. Names and symbols are written by whoever deployed a token, so they are
 * cleaned as card text is (control, bidi and zero-width characters removed, length bounded) and
 * cut with an ellipsis to the room they have; a picture has no markup, so nothing else is needed.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { cleanText } from '../text/sanitize';

/** Longest piece of untrusted text a picture shows before measuring. */
const MAX_TEXT = 80;

/**
 * Card text defuses mentions with a fullwidth ＠ (U+FF20); a picture pings no one, and the bundled
 * bold face has no such glyph, so pictures show a plain @.
 */
export function pictureText(s: string | null | undefined, fallback = ''): string {
  return cleanText(s, MAX_TEXT, fallback).replace(/\uFF20/g, '@');
}

/** `text` cut with "…" until it fits `maxWidth` pixels in the context's current font. */
export function fitText(ctx: SKRSContext2D, text: string, maxWidth: number): string {
  if (ctx.measureText(text).width <= maxWidth) return text;
  const chars = Array.from(text);
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ctx.measureText(`${chars.slice(0, mid).join('')}…`).width <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : `${chars.slice(0, lo).join('')}…`;
}
