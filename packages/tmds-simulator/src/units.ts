/**
 * The simulated chain's constants and the conversions between its units. Amounts are kept as
 * safe integers (numbers): every supply is at most 1e15 smallest units, far below 2^53, so sums
 * of balances, reserves and lamports stay exact without bigint arithmetic.
 */

/** Solana's chain id as the service reports it. */
export const CHAIN_ID = 1399811149;

/** Wrapped SOL, the quote token of every pool. */
export const WRAPPED_SOL_MINT = 'So11111111111111111111111111111111111111112';
export const WSOL_DECIMALS = 9;
export const LAMPORTS_PER_SOL = 1_000_000_000;

/** Every simulated token has 6 decimals, as most Solana launchpad tokens do. */
export const TOKEN_DECIMALS = 6;
export const TOKEN_UNIT = 10 ** TOKEN_DECIMALS;

/** Solana produces about 2.5 slots per second; slots here are derived from time so they always increase. */
const SLOT_REFERENCE = 230_000_000;
const SLOT_REFERENCE_TIME = 1_700_000_000;
const SLOTS_PER_SECOND = 2.5;

export function slotAt(unixSeconds: number): number {
  return Math.max(1, Math.floor(SLOT_REFERENCE + (unixSeconds - SLOT_REFERENCE_TIME) * SLOTS_PER_SECOND));
}

export function isoAt(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString();
}

/**
 * A decimal string without exponent notation ("0.0000000123", never "1.23e-8"), with at most
 * `significant` significant digits and no trailing zeros.
 */
export function plainDecimal(value: number, significant = 12): string {
  if (!Number.isFinite(value) || value === 0) return '0';
  const negative = value < 0;
  const [mantissa = '0', exponentText = '0'] = Math.abs(value)
    .toExponential(significant - 1)
    .split('e');
  const exponent = Number(exponentText);
  const digits = mantissa.replace('.', '');
  let text: string;
  if (exponent < 0) {
    text = `0.${'0'.repeat(-exponent - 1)}${digits}`;
  } else if (exponent + 1 >= digits.length) {
    text = digits + '0'.repeat(exponent + 1 - digits.length);
  } else {
    text = `${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
  }
  if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
  return negative ? `-${text}` : text;
}

/** USD values: plain decimal rounded to 6 places. */
export function usdDecimalText(value: number): string {
  return plainDecimal(Math.round(value * 1e6) / 1e6, 15);
}

/** An integer amount in smallest units as a decimal string of whole units ("1500000" at 6 decimals → "1.5"). */
export function unitsText(amount: number, decimals: number): string {
  const raw = BigInt(Math.round(amount)).toString();
  const negative = raw.startsWith('-');
  const digits = (negative ? raw.slice(1) : raw).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export function lamportsText(lamports: number): string {
  return unitsText(lamports, WSOL_DECIMALS);
}

/** SOL per whole token from an exchange of `lamports` for `tokenUnits`. */
export function solPerToken(lamports: number, tokenUnits: number): number {
  if (tokenUnits <= 0) return 0;
  return lamports / LAMPORTS_PER_SOL / (tokenUnits / TOKEN_UNIT);
}

/** Integer text of a safe-integer amount. */
export function intText(amount: number): string {
  return Math.round(amount).toFixed(0);
}

/**
 * A token amount on the wire: the ledger counts every token in units of 10^-6 (TOKEN_DECIMALS);
 * a token written with `extraDecimals` more decimals (the vendor protocol's 9-decimal tokens) has
 * 10^extraDecimals raw units for each. Exact however large: past 2^53 the text keeps every digit.
 */
export function rawText(amount: number, extraDecimals: number): string {
  if (extraDecimals === 0) return intText(amount);
  return (BigInt(Math.round(amount)) * 10n ** BigInt(extraDecimals)).toString();
}

/** The same as a bigint, for wire numbers written by hand (jsonText.ts). */
export function rawBigInt(amount: number, extraDecimals: number): bigint {
  return BigInt(Math.round(amount)) * 10n ** BigInt(extraDecimals);
}

/** The same as a JSON number (the spec types some holder amounts as numbers): exact below 2^53, the nearest double above. */
export function rawNumber(amount: number, extraDecimals: number): number {
  return extraDecimals === 0 ? amount : Number(rawBigInt(amount, extraDecimals));
}
