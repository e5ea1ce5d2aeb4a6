/**
 * Address checks made before any request, so that no call is spent on input that cannot be an
 * address. The service's chain is Solana (base58 public keys, 32–44 characters); EVM addresses
 * (`0x` + 40 hex digits) are accepted too, as the spec treats addresses as opaque strings.
 */
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const EVM = /^0x[0-9a-fA-F]{40}$/;

export type AddressKind = 'solana' | 'evm';

export function addressKind(value: string): AddressKind | null {
  if (BASE58.test(value)) return 'solana';
  if (EVM.test(value)) return 'evm';
  return null;
}

export function isAddress(value: string): boolean {
  return addressKind(value) !== null;
}
