/**
 * Reading and checking query parameters. A failed check throws ApiError, which the server turns
 * into the endpoint's error body (spec §7, design table).
 */

/** Solana base58 (32–44 characters) or EVM (0x + 40 hex), as the service accepts. */
const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Largest number of token addresses in one token-data request. */
export const MAX_TOKEN_ADDRESSES = 100;
/** Largest number of wallets in one trades-history or wallet-tracker request. */
export const MAX_WALLETS = 50;
/** Largest number of trades in one trades-history or wallet-tracker answer (the newest are kept). */
export const MAX_TRADES = 1000;

export class ApiError extends Error {
  readonly status: number;
  /** Short title, sent as `error` (holders-history sends the message as `error` instead). */
  readonly title: string;

  constructor(status: number, title: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.title = title;
  }
}

export function isWireAddress(value: string): boolean {
  return BASE58_ADDRESS.test(value) || EVM_ADDRESS.test(value);
}

/** The first value of a parameter, trimmed; null when absent or empty. */
export function param(query: URLSearchParams, name: string): string | null {
  const value = query.get(name)?.trim();
  return value ? value : null;
}

export function requireParam(query: URLSearchParams, name: string, message: string): string {
  const value = param(query, name);
  if (value === null) throw new ApiError(400, 'Missing parameter', message);
  return value;
}

/** A comma-separated list: entries trimmed, empties dropped, duplicates removed, order kept. */
export function list(raw: string | null): string[] {
  if (raw === null) return [];
  return [
    ...new Set(
      raw
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item.length > 0),
    ),
  ];
}

export function checkAddress(value: string, what: string): string {
  if (!isWireAddress(value)) {
    throw new ApiError(400, 'Invalid address', `${what} is not a valid address (base58, 32–44 characters, or 0x + 40 hex digits)`);
  }
  return value;
}

export function checkCount(items: readonly string[], max: number, what: string): void {
  if (items.length > max) throw new ApiError(400, 'Too many addresses', `At most ${max} ${what} per request (got ${items.length})`);
}

/** An integer parameter; null when absent; ApiError(title) when present but not an integer within [min, max]. */
export function integerParam(
  query: URLSearchParams,
  name: string,
  title: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | null {
  const raw = param(query, name);
  if (raw === null) return null;
  const value = /^[+-]?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ApiError(400, title, `${name} must be an integer${min > 0 ? ` ≥ ${min}` : ' ≥ 0'}`);
  }
  return value;
}
