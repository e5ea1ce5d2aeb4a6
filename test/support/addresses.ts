/** Made-up token and wallet addresses for tests: well-formed base58, 43 characters, distinct per (prefix, n). */
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** `prefix` (itself base58) then `n` in base58, padded with `z`: one address per number, none a simulated token's. */
export function fakeAddress(prefix: string, n: number): string {
  let digits = '';
  let rest = n;
  do {
    digits = (BASE58[rest % 58] ?? '1') + digits;
    rest = Math.floor(rest / 58);
  } while (rest > 0);
  return `${prefix}${digits}`.padEnd(43, 'z');
}
