/**
 * Small generic assertions for the conformance suite. Mismatches are collected and reported
 * together, each naming the request, the path inside the body and the value that came back, so one
 * run shows every disagreement instead of the first.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Conformance, Reply } from './server';

/** Unix seconds between 2001 and 5138: catches milliseconds sent where seconds are due, and the reverse. */
const SECONDS_MIN = 1e9;
const SECONDS_MAX = 1e11;
const DIGITS = /^\d+$/;
/** Plain or exponent notation: both are decimal text a consumer reads with Number(). */
const DECIMAL = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export type Kind =
  | 'string'
  | 'string|null'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'object'
  | 'array'
  | 'object|array'
  | 'string[]'
  /** string of decimal digits: an integer as text (smallest units, counts) */
  | 'digits'
  /** string holding a decimal number */
  | 'decimal'
  /** ISO 8601 date-time string that Date parses */
  | 'iso'
  /** integer Unix seconds */
  | 'unixSeconds'
  /** the key exists; any value, null included (types the spec leaves "not shown") */
  | 'present'
  /** a count whose type the spec does not show: integer or integer as text */
  | 'count'
  /** a quantity whose type the spec does not show: finite number or decimal text */
  | 'numeric';

export type FieldSpec = Record<string, Kind>;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  const json = JSON.stringify(value);
  const text = json.length > 120 ? `${json.slice(0, 117)}...` : json;
  return `${Array.isArray(value) ? 'array' : typeof value} ${text}`;
}

function isoOk(value: unknown): boolean {
  return typeof value === 'string' && ISO_8601.test(value) && !Number.isNaN(Date.parse(value));
}

const CHECKS: Record<Kind, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  'string|null': (v) => v === null || typeof v === 'string',
  integer: (v) => typeof v === 'number' && Number.isSafeInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  object: isRecord,
  array: Array.isArray,
  'object|array': (v) => isRecord(v) || Array.isArray(v),
  'string[]': (v) => Array.isArray(v) && v.every((item) => typeof item === 'string'),
  digits: (v) => typeof v === 'string' && DIGITS.test(v),
  decimal: (v) => typeof v === 'string' && DECIMAL.test(v),
  iso: isoOk,
  unixSeconds: (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= SECONDS_MIN && v < SECONDS_MAX,
  present: () => true,
  count: (v) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || (typeof v === 'string' && DIGITS.test(v)),
  numeric: (v) => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && DECIMAL.test(v)),
};

const DESCRIPTIONS: Record<Kind, string> = {
  string: 'string',
  'string|null': 'string or null',
  integer: 'integer',
  number: 'finite number',
  boolean: 'boolean',
  object: 'object',
  array: 'array',
  'object|array': 'object or array',
  'string[]': 'array of strings',
  digits: 'string of digits (integer as text)',
  decimal: 'string holding a decimal number',
  iso: 'ISO 8601 date-time string',
  unixSeconds: `integer Unix seconds (${SECONDS_MIN} ≤ n < ${SECONDS_MAX})`,
  present: 'present (any value)',
  count: 'integer ≥ 0 or integer as text',
  numeric: 'finite number or decimal text',
};

export class Problems {
  private readonly list: string[] = [];

  constructor(private readonly context: string) {}

  add(message: string): void {
    this.list.push(message);
  }

  check(condition: boolean, message: string): boolean {
    if (!condition) this.add(message);
    return condition;
  }

  /** Checks every field of `spec` on `value`; returns the value as a record when it is an object. */
  fields(value: unknown, spec: FieldSpec, where: string): Record<string, unknown> | undefined {
    if (!isRecord(value)) {
      this.add(`${where}: expected an object, got ${show(value)}`);
      return undefined;
    }
    for (const [name, kind] of Object.entries(spec)) {
      if (!(name in value)) {
        this.add(`${where}.${name}: missing (expected ${DESCRIPTIONS[kind]})`);
      } else if (!CHECKS[kind](value[name])) {
        this.add(`${where}.${name}: expected ${DESCRIPTIONS[kind]}, got ${show(value[name])}`);
      }
    }
    return value;
  }

  kind(value: unknown, kind: Kind, where: string): boolean {
    return this.check(CHECKS[kind](value), `${where}: expected ${DESCRIPTIONS[kind]}, got ${show(value)}`);
  }

  get count(): number {
    return this.list.length;
  }

  /** One assertion listing every problem (the first 50), so a failure reads as a checklist. */
  assertNone(): void {
    const shown = this.list.slice(0, 50);
    if (this.list.length > shown.length) shown.push(`... and ${this.list.length - shown.length} more`);
    expect(shown, `${this.context}: ${this.list.length} problem(s)`).toEqual([]);
  }
}

export function expectStatus(reply: Reply, status: number): void {
  expect(reply.status, `${reply.request} → ${reply.status} ${reply.text.slice(0, 200)}; expected ${status}`).toBe(status);
}

/**
 * For errors whose status the spec leaves "not shown": the design guide's status against the
 * simulator, any 4xx against another server.
 */
export function expectClientError(ctx: Conformance, reply: Reply, designStatus: number): void {
  if (ctx.simulator) {
    expectStatus(reply, designStatus);
  } else {
    expect(reply.status, `${reply.request} → ${reply.status} ${reply.text.slice(0, 200)}; expected a 4xx`).toBeGreaterThanOrEqual(400);
    expect(reply.status, `${reply.request} → ${reply.status}; expected a 4xx`).toBeLessThan(500);
  }
}

/** §7: token-data and chart-history errors are `{error: short string, message: string}`. */
export function expectErrorMessageBody(reply: Reply, mentions?: RegExp): void {
  const problems = new Problems(`${reply.request} → ${reply.status} error body`);
  const body = problems.fields(reply.body, { error: 'string', message: 'string' }, 'body');
  if (body) {
    problems.check(
      typeof body.error === 'string' && body.error.trim().length > 0,
      `body.error: expected a non-empty string, got ${show(body.error)}`,
    );
    problems.check(
      typeof body.message === 'string' && body.message.trim().length > 0,
      `body.message: expected a non-empty string, got ${show(body.message)}`,
    );
    if (mentions && typeof body.message === 'string') {
      problems.check(
        mentions.test(body.message),
        `body.message should say which parameter to supply (${mentions}), got ${show(body.message)}`,
      );
    }
  }
  problems.assertNone();
}

/** §2.1/§2.5 envelope: statusCode is the HTTP status, message a string or null, data an object. */
export function expectEnvelope(reply: Reply, options: { messageMayBeAbsent?: boolean } = {}): Record<string, unknown> {
  expectStatus(reply, 200);
  const problems = new Problems(`${reply.request} envelope`);
  const body = problems.fields(reply.body, { statusCode: 'integer', data: 'object' }, 'body');
  if (body) {
    problems.check(
      body.statusCode === reply.status,
      `body.statusCode: expected the HTTP status ${reply.status}, got ${show(body.statusCode)}`,
    );
    if (!(options.messageMayBeAbsent && !('message' in body))) {
      problems.fields(body, { message: 'string|null' }, 'body');
    }
  }
  problems.assertNone();
  return (reply.body as { data: Record<string, unknown> }).data;
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let out = '';
  while (value > 0n) {
    out = BASE58_ALPHABET[Number(value % 58n)] + out;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** A well-formed address of the same family as the known ones, which no server knows. */
export function unknownAddress(known: readonly { address: string }[] | readonly string[]): string {
  const addresses = known.map((entry) => (typeof entry === 'string' ? entry : entry.address));
  const evm = addresses.length > 0 && addresses.every((address) => address.startsWith('0x'));
  for (;;) {
    const candidate = evm ? `0x${randomBytes(20).toString('hex')}` : base58(randomBytes(32));
    if (!addresses.includes(candidate) && (evm || candidate.length >= 43)) return candidate;
  }
}

/** Neither base58 nor 0x-hex: underscores and a length no chain uses. */
export const MALFORMED_ADDRESS = 'not_an_address!';

/**
 * The wallets to ask about at once: all of them would make a URL longer than servers commonly
 * accept, and a few dozen active wallets already cover many tokens.
 */
export function someWallets(wallets: readonly string[], count = 40): string[] {
  return wallets.slice(0, count);
}

/** Indexes where `items[i]` and `items[i+1]` break the order; empty when ordered. */
export function orderBreaks<T>(items: readonly T[], inOrder: (a: T, b: T) => boolean): number[] {
  const breaks: number[] = [];
  for (let i = 0; i + 1 < items.length; i += 1) {
    if (!inOrder(items[i] as T, items[i + 1] as T)) breaks.push(i);
  }
  return breaks;
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
