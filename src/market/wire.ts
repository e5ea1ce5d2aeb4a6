/**
 * Tolerant primitives for reading the service's JSON (spec §1.3): the same amount, price or count
 * may arrive as a string in one endpoint and a number in another, and nullable fields may be null
 * or absent. Every primitive here accepts all plausible encodings and yields one exact type.
 */
import { z } from 'zod';

const INTEGER_TEXT = /^[+-]?\d+$/;
const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Reads a decimal number from a number or numeric text; null when it is not one. */
export function readDecimal(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (!DECIMAL_TEXT.test(trimmed)) return null;
  const parsed = Number(trimmed);
  return Number.isFinite(parsed) ? parsed : null;
}

/**
 * Reads an amount in a token's smallest unit as an exact bigint. Integer text keeps every digit
 * (amounts beyond 2^53 are common with 18-decimal tokens); a fractional or exponent form, which
 * some endpoints send for large numbers, is truncated toward zero.
 */
export function readAmount(value: unknown): bigint | null {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'string' && INTEGER_TEXT.test(value.trim())) return BigInt(value.trim());
  const decimal = readDecimal(value);
  if (decimal === null) return null;
  return BigInt(Math.trunc(decimal));
}

function issue(ctx: z.RefinementCtx, message: string): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

/** A decimal number (price, USD value, percentage, native amount), from a string or a number. */
export const decimal = z.unknown().optional().transform((value, ctx) => {
  const parsed = readDecimal(value);
  return parsed === null ? issue(ctx, 'expected a number or numeric text') : parsed;
});

/** A whole count or id-like integer (holders, transactions, block numbers, Unix seconds). */
export const integer = z.unknown().optional().transform((value, ctx) => {
  const parsed = readDecimal(value);
  return parsed === null ? issue(ctx, 'expected an integer or integer text') : Math.trunc(parsed);
});

/** An amount in the smallest unit, exact. */
export const amount = z.unknown().optional().transform((value, ctx) => {
  const parsed = readAmount(value);
  return parsed === null ? issue(ctx, 'expected an amount as integer text or number') : parsed;
});

/** The nullable variants: null, absent and unreadable-but-empty values all become null. */
export const optionalDecimal = z.unknown().optional().transform((value) => readDecimal(value));
export const optionalInteger = z.unknown().optional().transform((value) => {
  const parsed = readDecimal(value);
  return parsed === null ? null : Math.trunc(parsed);
});
export const optionalAmount = z.unknown().optional().transform((value) => readAmount(value));

/** Text that may be null or absent (or, from a careless producer, a number). */
export const optionalText = z.unknown().optional().transform((value): string | null => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
});

/** Text the spec types as string, read leniently: a missing value becomes the empty string. */
export const text = optionalText.transform((value) => value ?? '');

/** A flag that may arrive as a boolean, "true"/"false", or 0/1; anything else is null. */
export const optionalFlag = z.unknown().optional().transform((value): boolean | null => {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 1 || value === '1') return true;
  if (value === 'false' || value === 0 || value === '0') return false;
  return null;
});

/** A list of strings; non-string members are dropped, a missing list is empty. */
export const textList = z.unknown().optional().transform((value): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [],
);

/** A map from names to strings (token links); non-string values are dropped. */
export const textMap = z.unknown().optional().transform((value): Record<string, string> => {
  const out: Record<string, string> = {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [key, item] of Object.entries(value)) if (typeof item === 'string') out[key] = item;
  return out;
});

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Any JSON value kept as is, for fields whose shape the spec does not show. */
export const json = z.unknown().optional().transform((value): JsonValue | null => (value === undefined ? null : (value as JsonValue)));

/** An element left out of a list because it failed its schema: where it was and why, for the log (never its value). */
export interface DroppedElement {
  path: string;
  reason: string;
}

/** A parsed answer, with the elements of its lists that were left out as unreadable. */
export interface Reading<T> {
  value: T;
  dropped: DroppedElement[];
}

/**
 * Reads a list element by element. An element that fails its schema is left out and reported,
 * so that one unreadable trade, holder or candle cannot hide the rest of an answer.
 */
export function readEach<T extends z.ZodType>(item: T, list: readonly unknown[], path: string): Reading<z.output<T>[]> {
  const read = readEntries(item, Object.fromEntries(list.entries()), path);
  return { value: read.value.map(([, element]) => element), dropped: read.dropped };
}

/** Reads the values of a map one by one, like readEach: an unreadable value is left out with its key. */
export function readEntries<T extends z.ZodType>(item: T, map: object, path: string): Reading<Array<[string, z.output<T>]>> {
  const value: Array<[string, z.output<T>]> = [];
  const dropped: DroppedElement[] = [];
  for (const [key, raw] of Object.entries(map)) {
    const parsed = item.safeParse(raw);
    if (parsed.success) {
      value.push([key, parsed.data]);
      continue;
    }
    // The issue's path and message name the field and what was expected, never the value itself.
    const issue = parsed.error.issues[0];
    const field = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
    dropped.push({ path: `${path}.${key}`, reason: `${field}${issue?.message ?? 'unreadable'}`.slice(0, 200) });
  }
  return { value, dropped };
}

/**
 * A list whose unreadable elements are left out (see readEach): an array, or null or absent for
 * none. Anything else is a wrong shape and fails the parse.
 */
export function tolerantArray<T extends z.ZodType>(item: T, path: string) {
  return z
    .union([z.array(z.unknown()), z.null()])
    .optional()
    .transform((value) => readEach(item, value ?? [], path));
}

/**
 * Reads an object or an array of objects as a list, leaving out unreadable elements (see
 * readEach); null and absent become an empty list. A value that is neither is a wrong shape.
 */
export function listOf<T extends z.ZodType>(item: T, path: string) {
  return z
    .union([z.array(z.unknown()), z.record(z.string(), z.unknown()), z.null()])
    .optional()
    .transform((value) => readEach(item, value === null || value === undefined ? [] : Array.isArray(value) ? value : [value], path));
}

/** Reads an object, or the first element of an array of objects; null, absent or empty become null. */
export function firstOf<T extends z.ZodType>(item: T) {
  return z
    .union([z.array(item), item, z.null()]).optional()
    .transform((value): z.output<T> | null => {
      if (value === null || value === undefined) return null;
      if (Array.isArray(value)) return value[0] ?? null;
      return value;
    });
}
