/**
 * JSON text as the vendor writes it, and the few constants and made-up identifiers the replay needs.
 * Written from /work/shared/spec/real-service.md alone: nothing here comes from src/ or the simulator.
 */
import { createHash } from 'node:crypto';

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** A JSON value that may hold bigints: they are written as JSON numbers of their exact digits. */
export type WireValue =
  | null
  | boolean
  | number
  | string
  | bigint
  | readonly WireValue[]
  | { readonly [key: string]: WireValue | undefined };

/** Solana's chain id, as every recorded token and pool carries it. */
export const CHAIN_ID = 1399811149;
export const SOL_MINT = 'So11111111111111111111111111111111111111112';
export const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/**
 * JSON text, built by hand so that a raw amount past 2^53 keeps every digit (`"token": 18446744073709551615`):
 * trades-live sends raw amounts as JSON numbers. Members that are `undefined` are left out, like JSON.stringify.
 */
export function toJsonText(value: WireValue): string {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (isWireArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  const members: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    if (member !== undefined) members.push(`${JSON.stringify(key)}:${toJsonText(member)}`);
  }
  return `{${members.join(',')}}`;
}

function isWireArray(value: object): value is readonly WireValue[] {
  return Array.isArray(value);
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58(bytes: Uint8Array): string {
  let number = 0n;
  for (const byte of bytes) number = number * 256n + BigInt(byte);
  let text = '';
  while (number > 0n) {
    text = BASE58.charAt(Number(number % 58n)) + text;
    number /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

/** A well-formed Solana address made from a seed: the same seed, the same address. */
export function addressFor(seed: string): string {
  return base58(createHash('sha256').update(seed).digest());
}

/** A well-formed transaction signature (64 bytes in base58) made from a seed. */
export function signatureFor(seed: string): string {
  const first = createHash('sha256').update(`${seed}/1`).digest();
  const second = createHash('sha256').update(`${seed}/2`).digest();
  return base58(Buffer.concat([first, second]));
}

/** Base58 of 32 to 44 characters: the shape of a Solana address. */
export function isSolanaAddress(text: string): boolean {
  return /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(text);
}

export function isoOfSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
