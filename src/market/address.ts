/**
 * Address checks made before any request, so that no call is spent on input that cannot be an
 * address. The service's chain is Solana (base58 public keys, 32–44 characters); EVM addresses
 * (`0x` + 40 hex digits) are accepted too, as the spec treats addresses as opaque strings.
 */
/** The service's chain id for Solana (the chainId of its tokens, pools and trades). */
export const SOLANA_CHAIN_ID = 1399811149;
/** Wrapped SOL's mint: the quote side of Solana pools and the SOL leg of trades. */
export const WSOL_ADDRESS = 'So11111111111111111111111111111111111111112';

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
