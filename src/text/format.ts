/**
 * Every number, time and address a card shows, formatted in one place so all cards agree.
 * Pure functions; none throws; anything that is not a finite number shows as "—".
 *
 * Conventions:
 * - Negative numbers use the minus sign U+2212 ("−1.2K"), never a hyphen: it reads as a minus in
 *   every font and is never taken for a Markdown list item at the start of a line.
 * - Large numbers are compact with 3 significant digits: 1.23K, 45.6M, 789B, 1.2T; from 10¹⁵ up,
 *   scientific as "1.23×10¹⁵" (supplies in the quadrillions exist; "Qa" would be a guess).
 * - Tiny numbers (4 or more zeros after the decimal point) use the subscript notation traders know
 *   from DEX screeners: 0.000002867 is "0.0₅2867", the subscript counting the zeros after the
 *   point. Other numbers below 1 keep 4 significant digits ("0.001234").
 * - SOL amounts carry a " SOL" suffix (a word every font renders; ◎ is not widely known).
 * - Digits are computed from the decimal text of a number (or from the bigint itself), never by
 *   floating-point scaling, so 1e30-sized amounts and values like 1.005 round as written.
 */
const NOT_A_NUMBER = '—';
const MINUS = '\u2212';

/**
 * A decimal number as its significant digits and a power of ten: the value is
 * d₀.d₁d₂… × 10^exp. Digits carry no leading or trailing zeros; zero is digits "0", exp 0.
 */
interface Decimal {
  negative: boolean;
  digits: string;
  exp: number;
}

const ZERO: Decimal = { negative: false, digits: '0', exp: 0 };

function isZero(d: Decimal): boolean {
  return d.digits === '0';
}

/** Character code of "0". */
const ZERO_CODE = 48;

function normalized(negative: boolean, digits: string, exp: number): Decimal {
  let start = 0;
  while (start < digits.length && digits.charCodeAt(start) === ZERO_CODE) start += 1;
  let end = digits.length;
  while (end > start && digits.charCodeAt(end - 1) === ZERO_CODE) end -= 1;
  if (end === start) return ZERO;
  return { negative, digits: start === 0 && end === digits.length ? digits : digits.slice(start, end), exp: exp - start };
}

/** A finite number as a Decimal (every caller answers NaN and ±Infinity before this). */
function fromNumber(n: number): Decimal {
  if (n === 0) return ZERO;
  // String() gives the shortest text that reads back as the same double (toExponential's digits,
  // at a third of its cost): "123.45", "0.00012", or with an exponent, "1.5e-7", "1e+21".
  const written = String(Math.abs(n));
  const e = written.indexOf('e');
  const mantissa = e < 0 ? written : written.slice(0, e);
  const point = mantissa.indexOf('.');
  const digits = point < 0 ? mantissa : `${mantissa.slice(0, point)}${mantissa.slice(point + 1)}`;
  const whole = point < 0 ? mantissa.length : point;
  return normalized(n < 0, digits, whole - 1 + (e < 0 ? 0 : Number(written.slice(e + 1))));
}

function fromBigint(amount: bigint, decimals: number): Decimal {
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString();
  return normalized(negative, digits, digits.length - 1 - decimals);
}

/** Rounds half away from zero to `sig` significant digits. */
function roundSignificant(d: Decimal, sig: number): Decimal {
  if (d.digits.length <= sig) return d;
  const kept = d.digits.slice(0, sig);
  const roundUp = (d.digits[sig] ?? '0') >= '5';
  if (!roundUp) return normalized(d.negative, kept, d.exp);
  const bumped = plusOne(kept);
  return normalized(d.negative, bumped, d.exp + (bumped.length - kept.length));
}

/** Character code of "9". */
const NINE_CODE = 57;

/** A string of decimal digits plus one ("129" → "130", "99" → "100"), with no BigInt to parse and print. */
function plusOne(digits: string): string {
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === NINE_CODE) end -= 1;
  const zeros = '0'.repeat(digits.length - end);
  if (end === 0) return `1${zeros}`;
  return `${digits.slice(0, end - 1)}${String.fromCharCode(digits.charCodeAt(end - 1) + 1)}${zeros}`;
}

/** Rounds half away from zero to `places` digits after the decimal point. */
function roundPlaces(d: Decimal, places: number): Decimal {
  const sig = d.exp + 1 + places;
  if (sig > 0) return roundSignificant(d, sig);
  if (sig === 0 && (d.digits[0] ?? '0') >= '5') return { negative: d.negative, digits: '1', exp: -places };
  return ZERO;
}

function groupThousands(integer: string): string {
  if (integer.length <= 3) return integer;
  return integer.replace(/\B(?=(\d{3})+$)/g, ',');
}

/** The magnitude written out in full ("1234.5", "0.00012"), optionally with thousands commas. */
function plainDigits(d: Decimal, group = false, minPlaces = 0): string {
  let integer: string;
  let fraction: string;
  if (d.exp >= 0) {
    integer = d.digits.slice(0, d.exp + 1).padEnd(d.exp + 1, '0');
    fraction = d.digits.slice(d.exp + 1);
  } else {
    integer = '0';
    fraction = '0'.repeat(-d.exp - 1) + d.digits;
  }
  if (isZero(d)) fraction = '';
  fraction = fraction.padEnd(minPlaces, '0');
  const head = group ? groupThousands(integer) : integer;
  return fraction === '' ? head : `${head}.${fraction}`;
}

const SUBSCRIPT_DIGITS = '₀₁₂₃₄₅₆₇₈₉';
const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';

function mapDigits(n: number, glyphs: string): string {
  const written = String(n);
  let out = '';
  for (let index = 0; index < written.length; index++) {
    const code = written.charCodeAt(index) - ZERO_CODE;
    out += code >= 0 && code <= 9 ? (glyphs[code] ?? written.charAt(index)) : written.charAt(index);
  }
  return out;
}

/** First exponent whose numbers have 4 zeros after the point (0.0000x), shown with a subscript. */
const SUBSCRIPT_BELOW_EXP = -4;

/** A magnitude below 1: subscript notation from 4 zeros after the point, else written out. */
function smallDigits(d: Decimal): string {
  if (d.exp < SUBSCRIPT_BELOW_EXP) return `0.0${mapDigits(-d.exp - 1, SUBSCRIPT_DIGITS)}${d.digits}`;
  return plainDigits(d);
}

function signOf(d: Decimal): string {
  return d.negative && !isZero(d) ? MINUS : '';
}

const SUFFIXES = ['', 'K', 'M', 'B', 'T'] as const;
const COMPACT_DIGITS = 3;

/** The magnitude of an already rounded number, compact (see the module's conventions). */
function compactDigits(d: Decimal): string {
  if (isZero(d)) return '0';
  if (d.exp < 0) return smallDigits(d);
  const tier = Math.floor(d.exp / 3);
  const suffix = SUFFIXES[tier];
  if (suffix === undefined)
    return `${plainDigits({ negative: d.negative, digits: d.digits, exp: 0 })}×10${mapDigits(d.exp, SUPERSCRIPT_DIGITS)}`;
  return `${plainDigits({ negative: d.negative, digits: d.digits, exp: d.exp - 3 * tier })}${suffix}`;
}

function compactDecimal(d: Decimal): string {
  const rounded = roundSignificant(d, COMPACT_DIGITS);
  return `${signOf(rounded)}${compactDigits(rounded)}`;
}

const AMOUNT_DIGITS = 4;

/** Amounts: compact from 1000 up, else 4 significant digits (subscript when tiny). */
function amountDecimal(d: Decimal): string {
  const rounded = roundSignificant(d, AMOUNT_DIGITS);
  if (rounded.exp >= 3) return compactDecimal(d);
  return `${signOf(rounded)}${rounded.exp < 0 ? smallDigits(rounded) : plainDigits(rounded)}`;
}

/**
 * Compact number: 3 significant digits with K, M, B, T (1.23K, 45.6M); below 1000 written plainly
 * with 3 significant digits (999, 12.3, 0.5, 0.0₅287); 0 is "0"; NaN and ±Infinity are "—".
 */
export function compact(n: number): string {
  if (!Number.isFinite(n)) return NOT_A_NUMBER;
  return compactDecimal(fromNumber(n));
}

/**
 * A price (in USD or SOL, without the unit): 4 significant digits, and every digit before the
 * point from 1000 up ("67,234"); tiny prices in subscript notation: 0.000002867 → "0.0₅2867".
 * From 10¹⁵ up, compact.
 */
export function price(n: number): string {
  if (!Number.isFinite(n)) return NOT_A_NUMBER;
  const d = fromNumber(n);
  if (d.exp >= 15) return compactDecimal(d);
  const rounded = d.exp >= 3 ? roundPlaces(d, 0) : roundSignificant(d, AMOUNT_DIGITS);
  if (rounded.exp >= 3) return `${signOf(rounded)}${plainDigits(roundPlaces(rounded, 0), true)}`;
  return `${signOf(rounded)}${rounded.exp < 0 ? smallDigits(rounded) : plainDigits(rounded)}`;
}

/**
 * US dollars: "$1.2M" from 1000 up (compact), "$12.30" from 1 up, 4 significant digits below
 * ("$0.50", "$0.1234", "$0.0₅2867"); "−$4.50" when negative, "$0" for zero.
 */
export function usd(n: number): string {
  if (!Number.isFinite(n)) return NOT_A_NUMBER;
  const d = fromNumber(n);
  if (isZero(d)) return '$0';
  const sign = signOf(d);
  const magnitude: Decimal = { negative: false, digits: d.digits, exp: d.exp };
  if (d.exp < 0) {
    const small = roundSignificant(magnitude, AMOUNT_DIGITS);
    if (small.exp < SUBSCRIPT_BELOW_EXP) return `${sign}$${smallDigits(small)}`;
    if (small.exp < 0) return `${sign}$${plainDigits(small, false, 2)}`;
  }
  const cents = roundPlaces(magnitude, 2);
  if (cents.exp < 3) return `${sign}$${plainDigits(cents, false, 2)}`;
  return `${sign}$${compactDecimal(magnitude)}`;
}

/** SOL: as token amounts (compact from 1000 up, 4 significant digits below), then " SOL". */
export function sol(n: number): string {
  if (!Number.isFinite(n)) return NOT_A_NUMBER;
  return `${amountDecimal(fromNumber(n))} SOL`;
}

/** SOL from lamports (10⁻⁹ SOL), the service's native balances. */
export function solFromLamports(lamports: bigint): string {
  return `${formatTokenAmount(lamports, 9)} SOL`;
}

export interface PercentOptions {
  /** Show "+" on positive values, for changes. */
  signed?: boolean;
}

/**
 * A percentage, given in percent (12.3 → "12.3%"): 2 decimals below 10, 1 decimal below 1000,
 * whole percent with thousands commas from 1000 up ("+2,470%"), trailing zeros dropped; from 10¹⁵
 * up, compact. A K or M suffix on a percentage ("+2.47K%") reads as a typo to most people, so a
 * large move is written out in full, as a price is. Non-zero values under 0.01 show as "<0.01%"
 * (with their sign: "−<0.01%", or "+<0.01%" when signed). Zero is "0%", never signed. Every
 * percentage a card, an alert or a picture shows comes from here.
 */
export function percent(n: number, options: PercentOptions = {}): string {
  if (!Number.isFinite(n)) return NOT_A_NUMBER;
  const d = fromNumber(n);
  if (isZero(d)) return '0%';
  const sign = d.negative ? MINUS : options.signed ? '+' : '';
  const magnitude: Decimal = { negative: false, digits: d.digits, exp: d.exp };
  if (Math.abs(n) < 0.01) return `${sign}<0.01%`;
  if (magnitude.exp >= 15) return `${sign}${compactDecimal(magnitude)}%`;
  const places = magnitude.exp < 1 ? 2 : 1;
  const rounded = roundPlaces(magnitude, places);
  const body = rounded.exp >= 3 ? plainDigits(roundPlaces(magnitude, 0), true) : plainDigits(rounded);
  return `${sign}${body}%`;
}

/**
 * Exact decimal text of an amount in smallest units, for machines rather than readers (ASCII minus,
 * no grouping): (123456789n, 6) → "123.456789".
 */
export function toDecimalString(amount: bigint, decimals: number): string {
  if (!validDecimals(decimals)) return NOT_A_NUMBER;
  const d = fromBigint(amount, decimals);
  return `${d.negative ? '-' : ''}${plainDigits(d)}`;
}

/** An amount in smallest units as a number of whole tokens (approximate beyond 15–17 digits). */
export function fromSmallestUnit(amount: bigint, decimals: number): number {
  if (!validDecimals(decimals)) return Number.NaN;
  // An amount of at most 2⁵³ and a power of ten of at most 10²² are exact doubles, and one
  // division rounds their exact quotient once, to the double nearest to it: the same double that
  // reading the exact decimal text gives. Most amounts are that small; the others go by the text.
  if (decimals <= MAX_EXACT_POWER && amount <= MAX_EXACT_INTEGER && amount >= -MAX_EXACT_INTEGER)
    return Number(amount) / (EXACT_POWERS_OF_TEN[decimals] ?? 1);
  return Number(toDecimalString(amount, decimals));
}

const MAX_EXACT_INTEGER = 2n ** 53n;
/** 10⁰ to 10²², each written out so that each is read exactly (Math.pow need not be exact). */
const EXACT_POWERS_OF_TEN = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];
const MAX_EXACT_POWER = EXACT_POWERS_OF_TEN.length - 1;

const MAX_DECIMALS = 255;

function validDecimals(decimals: number): boolean {
  return Number.isInteger(decimals) && decimals >= 0 && decimals <= MAX_DECIMALS;
}

/**
 * An amount given in smallest units, shown in whole tokens: compact from 1000 up ("1.23B"), 4
 * significant digits below ("12.35", "0.0₅1234"). Exact for any bigint: digits come from the
 * integer itself. Decimals outside 0..255 (a malformed token) show as "—".
 */
export function formatTokenAmount(amount: bigint, decimals: number): string {
  if (!validDecimals(decimals)) return NOT_A_NUMBER;
  return amountDecimal(fromBigint(amount, decimals));
}

const EN_US_NUMBER = new Intl.NumberFormat('en-US');

/**
 * A count with thousands commas ("12,345"), as Number.prototype.toLocaleString('en-US') writes
 * it, from one formatter made once: toLocaleString builds a new one on every call.
 */
export function grouped(n: number): string {
  // Whole numbers, nearly every count, are grouped here as the formatter would: its call costs microseconds.
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) return n < 0 ? `-${groupThousands(String(-n))}` : groupThousands(String(n));
  return EN_US_NUMBER.format(n);
}

type Instant = Date | number;

/** Unix seconds of a Date or of a number already in Unix seconds; NaN when invalid. */
function unixSeconds(t: Instant): number {
  return t instanceof Date ? t.getTime() / 1000 : t;
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;
const WEEK = 7 * DAY;
const YEAR = 365 * DAY;

const JUST_NOW_SECS = 45;

function largestUnit(secs: number): string {
  if (secs < HOUR) return `${Math.max(1, Math.floor(secs / MINUTE))}m`;
  if (secs < DAY) return `${Math.floor(secs / HOUR)}h`;
  if (secs < YEAR) return `${Math.floor(secs / DAY)}d`;
  return `${Math.floor(secs / YEAR)}y`;
}

/**
 * How long ago (or how far ahead) `then` is from `now`: "just now" within 45 s, then "5m ago",
 * "3h ago", "2d ago", "1y ago", or "in 5m" for the future. Numbers are Unix seconds.
 */
export function relativeTime(then: Instant, now: Instant): string {
  const diff = unixSeconds(now) - unixSeconds(then);
  if (!Number.isFinite(diff)) return NOT_A_NUMBER;
  if (Math.abs(diff) < JUST_NOW_SECS) return 'just now';
  return diff > 0 ? `${largestUnit(diff)} ago` : `in ${largestUnit(-diff)}`;
}

const AGE_UNITS: ReadonlyArray<readonly [string, number]> = [
  ['y', YEAR],
  ['d', DAY],
  ['h', HOUR],
  ['m', MINUTE],
];

/**
 * Age of something created at `createdUnixSecs`, in its two largest units: "2y 15d", "3d 4h",
 * "4h 12m", "12m"; "<1m" under a minute (or when the creation time is ahead of `now`).
 */
export function age(createdUnixSecs: number, now: Instant): string {
  const secs = Math.floor(unixSeconds(now) - createdUnixSecs);
  if (!Number.isFinite(secs)) return NOT_A_NUMBER;
  if (secs < MINUTE) return '<1m';
  let index = 0;
  while (index < AGE_UNITS.length - 1 && secs < (AGE_UNITS[index]?.[1] ?? MINUTE)) index += 1;
  const [unit, size] = AGE_UNITS[index] ?? ['m', MINUTE];
  const largest = `${Math.floor(secs / size)}${unit}`;
  const next = AGE_UNITS[index + 1];
  if (next === undefined) return largest;
  const count = Math.floor((secs % size) / next[1]);
  return count > 0 ? `${largest} ${count}${next[0]}` : largest;
}

const DURATION_UNITS: ReadonlyArray<readonly [string, number]> = [
  ['d', DAY],
  ['h', HOUR],
  ['m', MINUTE],
  ['s', 1],
];

/**
 * A length of time as chart intervals are written: "1m", "15m", "1h", "4h", "1d", "2w" (weeks
 * only when whole), mixed units when uneven ("1h30m"), "0s" for zero; "—" for negative or
 * non-finite values. Fractions of a second are dropped.
 */
export function duration(secs: number): string {
  if (!Number.isFinite(secs) || secs < 0) return NOT_A_NUMBER;
  let rest = Math.floor(secs);
  if (rest === 0) return '0s';
  if (rest % WEEK === 0) return `${rest / WEEK}w`;
  const parts: string[] = [];
  for (const [unit, size] of DURATION_UNITS) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
  }
  return parts.join('');
}

/**
 * The span a change is measured over, in whole minutes ("5m", "1h", "1h30m"; "1m" at least): what
 * an alert card and its picture both say, so the two never name different windows for one move.
 */
export function changeWindow(secs: number): string {
  if (!Number.isFinite(secs) || secs < 0) return NOT_A_NUMBER;
  return duration(Math.max(MINUTE, Math.round(secs / MINUTE) * MINUTE));
}

/**
 * A moment as every card writes it, in UTC to the minute: "2024-05-01 12:00 UTC". The chats'
 * renderers date their cards with it and cards that name a moment in their text use it too, so
 * one card never reads "2024-05-01T12:00:00Z" beside another's "Nov 23 00:00".
 */
export function cardTime(date: Date): string {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) return NOT_A_NUMBER;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const SURROGATE = /[\ud800-\udfff]/;

/** Shortens a long address to its first and last 4 characters: "So11…1112". */
export function shortAddress(address: string): string {
  // Without surrogates every code unit is one code point: no array of characters is needed.
  if (!SURROGATE.test(address)) return address.length <= 12 ? address : `${address.slice(0, 4)}…${address.slice(-4)}`;
  const chars = Array.from(address);
  if (chars.length <= 12) return address;
  return `${chars.slice(0, 4).join('')}…${chars.slice(-4).join('')}`;
}
