/**
 * The pages traders open for a token, built from its address alone: DEX Screener, Birdeye and
 * GeckoTerminal for charts, Jupiter to trade, Solscan for the chain. Solana addresses only (the
 * address is checked for its form and URL-encoded, so a hostile "address" never shapes a link);
 * other chains get none.
 */
import { addressKind, SOLANA_CHAIN_ID } from '../market/address';

export interface MarketLink {
  label: string;
  url: string;
}

export function marketLinks(address: string, chainId?: number | null): MarketLink[] {
  if (addressKind(address) !== 'solana' || (chainId !== undefined && chainId !== null && chainId !== SOLANA_CHAIN_ID)) return [];
  const id = encodeURIComponent(address);
  return [
    { label: 'DEX Screener', url: `https://dexscreener.com/solana/${id}` },
    { label: 'Birdeye', url: `https://birdeye.so/token/${id}?chain=solana` },
    { label: 'GeckoTerminal', url: `https://www.geckoterminal.com/solana/tokens/${id}` },
    { label: 'Jupiter', url: `https://jup.ag/swap/SOL-${id}` },
    { label: 'Solscan', url: `https://solscan.io/token/${id}` },
  ];
}
