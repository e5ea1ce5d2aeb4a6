/**
 * Well-known Solana tokens, by their real mint addresses: the names and symbols strangers copy to
 * pass a new token off as one of them (a "USDC" that is not USDC). A token that calls itself one of
 * these at another address is flagged on its card and its alerts (src/cards/lookAlike.ts).
 *
 * Kept short on purpose: only tokens a trader would take at their word, each address checked
 * against public token lists. A wrong address here would brand the real token a copy, so a token
 * is added only with its mint confirmed.
 */
export interface KnownToken {
  symbol: string;
  /** Names it goes by besides its symbol ("USD Coin"). */
  names: readonly string[];
  address: string;
}

export const KNOWN_TOKENS: readonly KnownToken[] = [
  { symbol: 'SOL', names: ['Solana', 'Wrapped SOL', 'Wrapped Solana'], address: 'So11111111111111111111111111111111111111112' },
  { symbol: 'USDC', names: ['USD Coin'], address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' },
  { symbol: 'USDT', names: ['Tether', 'Tether USD', 'USDT'], address: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB' },
  { symbol: 'JUP', names: ['Jupiter'], address: 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN' },
  { symbol: 'BONK', names: ['Bonk'], address: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263' },
  { symbol: 'WIF', names: ['dogwifhat'], address: 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm' },
  { symbol: 'RAY', names: ['Raydium'], address: '4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R' },
  { symbol: 'PYTH', names: ['Pyth Network'], address: 'HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3' },
  { symbol: 'JTO', names: ['Jito'], address: 'jtojtomepa8beP8AuQc6eXt5FriJwfFMwQx2v2f9mCL' },
  { symbol: 'ORCA', names: ['Orca'], address: 'orcaEKTdK7LKz57vaAYr9QeNsVEPfiu6QeMU1kektZE' },
  { symbol: 'mSOL', names: ['Marinade staked SOL'], address: 'mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So' },
];
