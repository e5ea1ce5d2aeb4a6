/**
 * Tolerant primitives for reading the service's JSON (spec §1.3): the same amount, price or count
 * may arrive as a string in one endpoint and a number in another, and nullable fields may be null
 * or absent. Every primitive here accepts all plausible encodings and yields one exact type.
 */
import { z } from 'zod';

const INTEGER_TEXT = /^[+-]?\d+$/;
const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * The most digits an amount may have. The largest real supplies (18 decimals, 10^15 whole tokens)
 * take 33; 80 leaves room for any real token and refuses the megabyte-long integers a hostile
 * answer can hold, before BigInt or any formatting (both quadratic in the digits) ever sees them.
 */
export const MAX_AMOUNT_DIGITS = 80;
/** Numeric text longer than this is no number anyone sends: it is refused before any regex or parse. */
const MAX_NUMERIC_TEXT = 400;
/** The smallest number with more than MAX_AMOUNT_DIGITS digits. */
const AMOUNT_LIMIT = 10 ** MAX_AMOUNT_DIGITS;

/** Reads a decimal number from a number or numeric text; null when it is not one. */
export function readDecimal(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.length > MAX_NUMERIC_TEXT) return null;
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

/** Whether a value would be an amount of more than MAX_AMOUNT_DIGITS digits: unreadable, whatever it holds. */
export function isOverlongAmount(value: unknown): boolean {
  if (typeof value === 'number') return Math.abs(value) >= AMOUNT_LIMIT;
  if (typeof value === 'bigint') return (value < 0n ? -value : value).toString().length > MAX_AMOUNT_DIGITS;
  if (typeof value !== 'string') return false;
  if (value.length > MAX_NUMERIC_TEXT) return true;
  const trimmed = value.trim();
  // Integer text is judged by its digits (a float would round 80 nines up to 10^80).
  if (INTEGER_TEXT.test(trimmed)) return trimmed.replace(/^[+-]?0*/, '').length > MAX_AMOUNT_DIGITS;
  const decimal = readDecimal(trimmed);
  return decimal !== null && Math.abs(decimal) >= AMOUNT_LIMIT;
}

const OVERLONG = `more than ${MAX_AMOUNT_DIGITS} digits`;

function issue(ctx: z.RefinementCtx, message: string): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

/** A decimal number (price, USD value, percentage, native amount), from a string or a number. */
export const decimal = z
  .unknown()
  .optional()
  .transform((value, ctx) => {
    const parsed = readDecimal(value);
    return parsed === null ? issue(ctx, 'expected a number or numeric text') : parsed;
  });

/** A whole count or id-like integer (holders, transactions, block numbers, Unix seconds). */
export const integer = z
  .unknown()
  .optional()
  .transform((value, ctx) => {
    const parsed = readDecimal(value);
    return parsed === null ? issue(ctx, 'expected an integer or integer text') : Math.trunc(parsed);
  });

/** An amount in the smallest unit, exact; more than MAX_AMOUNT_DIGITS digits is unreadable. */
export const amount = z
  .unknown()
  .optional()
  .transform((value, ctx) => {
    if (isOverlongAmount(value)) return issue(ctx, OVERLONG);
    const parsed = readAmount(value);
    return parsed === null ? issue(ctx, 'expected an amount as integer text or number') : parsed;
  });

/** The nullable variants: null, absent and unreadable-but-empty values all become null. */
export const optionalDecimal = z
  .unknown()
  .optional()
  .transform((value) => readDecimal(value));
export const optionalInteger = z
  .unknown()
  .optional()
  .transform((value) => readOptionalInteger(value));

/** optionalInteger's reading as a plain function, for hand-written hot-path readers (readToken.ts). */
export function readOptionalInteger(value: unknown): number | null {
  const parsed = readDecimal(value);
  return parsed === null ? null : Math.trunc(parsed);
}
/** An optional amount: absent or empty is null, but an over-long one is unreadable, not absent. */
export const optionalAmount = z
  .unknown()
  .optional()
  .transform((value, ctx) => (isOverlongAmount(value) ? issue(ctx, OVERLONG) : readAmount(value)));

/** Text that may be null or absent (or, from a careless producer, a number). */
export const optionalText = z
  .unknown()
  .optional()
  .transform((value): string | null => readOptionalText(value));

/** optionalText's reading as a plain function (readToken.ts). */
export function readOptionalText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** Text the spec types as string, read leniently: a missing value becomes the empty string. */
export const text = optionalText.transform((value) => value ?? '');

/** A flag that may arrive as a boolean, "true"/"false", or 0/1; anything else is null. */
export const optionalFlag = z
  .unknown()
  .optional()
  .transform((value): boolean | null => readOptionalFlag(value));

/** optionalFlag's reading as a plain function (readToken.ts). */
export function readOptionalFlag(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 1 || value === '1') return true;
  if (value === 'false' || value === 0 || value === '0') return false;
  return null;
}

/** A list of strings; non-string members are dropped, a missing list is empty. */
export const textList = z
  .unknown()
  .optional()
  .transform((value): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []));

/** A map from names to strings (token links); non-string values are dropped. */
export const textMap = z
  .unknown()
  .optional()
  .transform((value): Record<string, string> => readTextMap(value));

/** textMap's reading as a plain function (readToken.ts). */
export function readTextMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return out;
  // Own keys in Object.entries' order, without its list of pairs: every pushed token has this map.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item === 'string') out[key] = item;
  }
  return out;
}

/** An element left out of a list because it failed its schema: where it was and why, for the log (never its value). */
export interface DroppedElement {
  path: string;
  reason: string;
}

/** Elements named in a Reading's examples; the count says how many were left out in all. */
export const DROPPED_EXAMPLES = 5;

/** A parsed answer, with how many elements of its lists were left out as unreadable, and the first few of them. */
export interface Reading<T> {
  value: T;
  dropped: number;
  examples: DroppedElement[];
}

/** The dropped counts and examples of several readings, as one. */
export function droppedOf(
  ...readings: Array<Pick<Reading<unknown>, 'dropped' | 'examples'>>
): Pick<Reading<unknown>, 'dropped' | 'examples'> {
  let dropped = 0;
  const examples: DroppedElement[] = [];
  for (const reading of readings) {
    dropped += reading.dropped;
    for (const example of reading.examples) if (examples.length < DROPPED_EXAMPLES) examples.push(example);
  }
  return { dropped, examples };
}

/**
 * Reads a list element by element. An element that fails its schema is left out and counted,
 * so that one unreadable trade, holder or candle cannot hide the rest of an answer.
 */
export function readEach<T extends z.ZodType>(item: T, list: readonly unknown[], path: string): Reading<z.output<T>[]> {
  const value: z.output<T>[] = [];
  const sink = dropSink(path);
  for (let index = 0; index < list.length; index += 1) {
    const parsed = readOne(item, list[index], sink, String(index));
    if (parsed !== DROPPED) value.push(parsed);
  }
  return { value, dropped: sink.count, examples: sink.examples };
}

/** Reads the values of a map one by one, like readEach: an unreadable value is left out with its key. */
export function readEntries<T extends z.ZodType>(item: T, map: object, path: string): Reading<Array<[string, z.output<T>]>> {
  const value: Array<[string, z.output<T>]> = [];
  const sink = dropSink(path);
  for (const [key, raw] of Object.entries(map)) {
    const parsed = readOne(item, raw, sink, key);
    if (parsed !== DROPPED) value.push([key, parsed]);
  }
  return { value, dropped: sink.count, examples: sink.examples };
}

const DROPPED: unique symbol = Symbol('dropped');

interface DropSink {
  count: number;
  examples: DroppedElement[];
  add(key: string, reason: string): void;
}

function dropSink(path: string): DropSink {
  const sink: DropSink = {
    count: 0,
    examples: [],
    add(key, reason) {
      sink.count += 1;
      if (sink.examples.length < DROPPED_EXAMPLES) sink.examples.push({ path: `${path}.${key}`, reason: reason.slice(0, 200) });
    },
  };
  return sink;
}

/**
 * One element. Every element schema here reads an object, so anything else (or an empty object,
 * which has none of the required fields) is dropped on sight: a hostile answer of a million `0`s
 * or `{}`s costs a type check each, not a schema run and its error report each.
 */
function readOne<T extends z.ZodType>(item: T, raw: unknown, sink: DropSink, key: string): z.output<T> | typeof DROPPED {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    sink.add(key, 'not an object');
    return DROPPED;
  }
  if (isEmpty(raw)) {
    sink.add(key, 'an empty object');
    return DROPPED;
  }
  const parsed = item.safeParse(raw);
  if (parsed.success) return parsed.data;
  // The issue's path and message name the field and what was expected, never the value itself.
  const issue = parsed.error.issues[0];
  const field = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
  sink.add(key, `${field}${issue?.message ?? 'unreadable'}`);
  return DROPPED;
}

function isEmpty(value: object): boolean {
  for (const _ in value) return false;
  return true;
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
    .union([z.array(item), item, z.null()])
    .optional()
    .transform((value): z.output<T> | null => {
      if (value === null || value === undefined) return null;
      if (Array.isArray(value)) return value[0] ?? null;
      return value;
    });
}
