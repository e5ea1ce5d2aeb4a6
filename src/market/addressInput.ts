/**
 * The address a person gave where a command wants one: the address as typed, or the one a link
 * carries (DEX Screener, Birdeye, GeckoTerminal, Jupiter, pump.fun, Solscan and every other form
 * the paste reader knows, src/market/pastedAddress.ts). One reading for every command and every
 * chat, so a link that works pasted works after `/token`, `/track token` or `/wallet` too.
 *
 * The link is read, never followed: it is a stranger's text, and only its characters count.
 */
import { addressKind } from './address';
import { detectAddress, isLink } from './pastedAddress';

/** Longer than any link a site makes; past it the text is not read as one (it is refused as typed). */
const MAX_LINK_LENGTH = 2048;
/** An EVM address inside a link (dexscreener.com/ethereum/0x…): found so the refusal can name its chain. */
const EVM_IN_LINK = /(?:^|[^0-9a-zA-Z])(0x[0-9a-fA-F]{40})(?![0-9a-zA-Z])/;

export type AddressInput =
  /** `address` as the service is asked for it; `fromLink` when a link carried it. */
  | { kind: 'address'; address: string; fromLink: boolean }
  /** A link, but with no address in it that the bot could read. */
  | { kind: 'link-without-address' }
  /** Neither an address nor a link. */
  | { kind: 'other' };

export function readAddressInput(typed: string): AddressInput {
  const text = typed.trim();
  if (addressKind(text) !== null) return { kind: 'address', address: text, fromLink: false };
  if (text.length > MAX_LINK_LENGTH || !isLink(text)) return { kind: 'other' };
  const found = detectAddress(text);
  if (found !== null) return { kind: 'address', address: found.address, fromLink: true };
  // Another chain's link still names its address: the refusal then says which chain it is.
  const evm = EVM_IN_LINK.exec(text)?.[1];
  return evm === undefined ? { kind: 'link-without-address' } : { kind: 'address', address: evm, fromLink: true };
}

/** The address in what was typed (see readAddressInput), or null when there is none. */
export function addressOf(typed: string): string | null {
  const input = readAddressInput(typed);
  return input.kind === 'address' ? input.address : null;
}
