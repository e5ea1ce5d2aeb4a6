/**
 * Address checks made before any request, so that no call is spent on input that cannot be an
 * address. The service's chain is Solana (base58 public keys, 32–44 characters): SERVICE_CHAIN
 * says so, once, and what a person types is checked against it (addressRefusal), so a `0x`
 * address is refused at once, with the reason, instead of coming back "not found" after a call.
 * EVM addresses (`0x` + 40 hex digits) are still told apart (addressKind), for links and for
 * that reason.
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

/** The chain the service reads, and so the only addresses a person may ask about. */
export const SERVICE_CHAIN: AddressKind = 'solana';

/** Each chain as a refusal names it: its name, an address of it, and the form of its addresses. */
const CHAIN_WORDS: Record<AddressKind, { chain: string; anAddress: string; form: string }> = {
  solana: { chain: 'Solana', anAddress: 'a Solana address', form: 'base58, 32–44 letters and digits' },
  evm: { chain: 'EVM', anAddress: 'an EVM (0x) address', form: '0x and 40 hex digits' },
};

/** "Solana (base58, 32–44 letters and digits)": what the bot reads, for help and error texts. */
export const SERVICE_ADDRESS_FORM = `${CHAIN_WORDS[SERVICE_CHAIN].chain} (${CHAIN_WORDS[SERVICE_CHAIN].form})`;

/**
 * Why an address typed by a person cannot be asked of the service, as a problem and what to do
 * instead; null when it can. `shown` is the address as the message may quote it (shortened).
 */
export function addressRefusal(value: string, shown: string): { problem: string; advice: string } | null {
  const kind = addressKind(value);
  if (kind === SERVICE_CHAIN) return null;
  const served = CHAIN_WORDS[SERVICE_CHAIN];
  if (kind !== null) {
    return {
      problem: `${shown} is ${CHAIN_WORDS[kind].anAddress}`,
      advice: `TokenWatch reads ${served.chain} tokens and wallets only: ${served.form}.`,
    };
  }
  return { problem: `${shown} is not ${served.anAddress}`, advice: `Paste the whole address: ${served.form}.` };
}
