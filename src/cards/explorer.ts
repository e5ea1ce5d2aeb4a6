/**
 * Links to block explorers for the addresses and transactions cards show: Solscan for Solana,
 * Etherscan and its siblings for 0x ids on chains with well-known ids; anything else gets no link.
 * Every id is checked for its form and URL-encoded, so a hostile "address" never shapes a link.
 */
import { addressKind, SOLANA_CHAIN_ID } from '../market/address';

/** Block explorers of EVM chains with well-known ids; other chains get no link. */
const EVM_EXPLORERS: Readonly<Record<number, string>> = {
  1: 'https://etherscan.io',
  10: 'https://optimistic.etherscan.io',
  56: 'https://bscscan.com',
  137: 'https://polygonscan.com',
  8453: 'https://basescan.org',
  42161: 'https://arbiscan.io',
};
const SOLSCAN = 'https://solscan.io';

const SOLANA_SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;
const EVM_TX_HASH = /^0x[0-9a-fA-F]{64}$/;

type ChainId = number | null | undefined;

/** The explorer for an id of that kind on that chain; a Solana id with no chain id means Solana. */
function explorerFor(kind: 'solana' | 'evm' | null, chainId: ChainId): { base: string; kind: 'solana' | 'evm' } | null {
  if (kind === 'solana' && (chainId === undefined || chainId === null || chainId === SOLANA_CHAIN_ID)) {
    return { base: SOLSCAN, kind };
  }
  if (kind === 'evm' && typeof chainId === 'number') {
    const base = EVM_EXPLORERS[chainId];
    return base === undefined ? null : { base, kind };
  }
  return null;
}

/** Explorer page of a token: Solscan for Solana, Etherscan and its siblings for 0x addresses. */
export function explorerTokenUrl(address: string, chainId?: ChainId): string | null {
  const explorer = explorerFor(addressKind(address), chainId);
  return explorer && `${explorer.base}/token/${encodeURIComponent(address)}`;
}

/** Explorer page of a wallet or any account. */
export function explorerAccountUrl(address: string, chainId?: ChainId): string | null {
  const explorer = explorerFor(addressKind(address), chainId);
  if (!explorer) return null;
  const path = explorer.kind === 'solana' ? 'account' : 'address';
  return `${explorer.base}/${path}/${encodeURIComponent(address)}`;
}

/** Explorer page of a transaction (a Solana signature or a 0x hash). */
export function explorerTxUrl(hash: string, chainId?: ChainId): string | null {
  const kind = SOLANA_SIGNATURE.test(hash) ? 'solana' : EVM_TX_HASH.test(hash) ? 'evm' : null;
  const explorer = explorerFor(kind, chainId);
  return explorer && `${explorer.base}/tx/${encodeURIComponent(hash)}`;
}
