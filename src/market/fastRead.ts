/**
 * What the hand-written readers of the stream's hot path share (readToken.ts, readHolder.ts): the
 * signal that a value must go to its schema after all, and wire.ts's amount reading with a
 * shortcut for what the service nearly always sends.
 */
import { isOverlongAmount, readAmount } from './wire';

/** Unreadable by hand: the caller falls back to the schema, whose verdict and reasons stand. */
export class Unread extends Error {}
export const UNREAD = new Unread();

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Plain digits within the cap: what the service sends for nearly every amount. */
export const SHORT_DIGITS = /^\d{1,80}$/;

/**
 * wire.ts's optional amount (isOverlongAmount, then readAmount), with a shortcut for plain digit
 * text of at most 80 characters (which is never over-long and which readAmount would read as
 * BigInt(value) too): one test instead of the trims, regexes and zero-stripping of the general
 * path. An over-long amount throws UNREAD: the schema refuses it.
 */
export function optionalAmount(value: unknown): bigint | null {
  if (typeof value === 'string' && SHORT_DIGITS.test(value)) return BigInt(value);
  if (isOverlongAmount(value)) throw UNREAD;
  return readAmount(value);
}
