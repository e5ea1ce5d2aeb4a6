/**
 * The one API key check shared by REST, the streams and the controls: constant-time, so a
 * caller cannot learn the key a character at a time from response timings.
 */
import { timingSafeEqual } from 'node:crypto';

export function keyMatches(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
