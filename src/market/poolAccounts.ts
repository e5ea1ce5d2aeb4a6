/**
 * Accounts that hold a token for a pool, not for a person: holders-history lists them like any
 * wallet, and the largest "holder" of a young token is often one (a pump.fun bonding curve holds
 * most of the supply under the pool's own address; an AMM's reserves sit with its program's
 * authority). Such an account is shown as the pool, and is never a whale, an insider or part of
 * a top-10 share.
 *
 * Two kinds: the token's own pools (token-data lists them; the vaults of pump.fun curves,
 * PumpSwap, Raydium CLMM, Meteora DLMM and Orca Whirlpool pools belong to the pool account
 * itself, as the recordings show), and the program authorities below, which own the vaults of
 * every pool of their program. Each address here was checked against the program's own
 * derivation or the recordings; a wrong one would hide a real wallet, so none is guessed.
 */

/** A program authority that owns the vaults of every pool of its program. */
export interface PoolAuthority {
  address: string;
  /** What the holders card calls it. */
  name: string;
}

export const POOL_AUTHORITIES: readonly PoolAuthority[] = [
  // Raydium AMM v4 (program 675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8): the owner of every AMM
  // v4 pool's two vaults; the recordings show it as the vault owner of their RAYDIUM pools.
  { address: '5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1', name: 'Raydium AMM authority' },
  // Raydium CPMM (program CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C), the PDA of
  // "vault_and_lp_mint_auth_seed": the recordings show it as the vault owner of their RAYDIUM_CPMM pools.
  { address: 'GpMZbSM2GgvTKHJirzeGfMFoaZ8UR2X7F4v8vHTvxFbL', name: 'Raydium CPMM authority' },
  // Raydium LaunchLab (program LanMV9sAd7wArD4vJFi2qDdfnVhFxYSUg6eADduJ3uj), the PDA of
  // "vault_auth_seed": the owner of every LaunchLab bonding curve's vaults.
  { address: 'WLHv2UAZm6z4KyaaELi5pjdbJh6RESMva1Rnn8pJVVh', name: 'Raydium LaunchLab authority' },
  // Meteora DAMM v2 (program cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG), the PDA of
  // "pool_authority" (a fixed account in the program's IDL): the owner of every DAMM v2 pool's vaults.
  { address: 'HLnpSz9h2S4hiLQ43rnSD9XkcUThA7B8hQMKmDaiTLcC', name: 'Meteora DAMM v2 authority' },
  // Meteora Dynamic Bonding Curve (program dbcij3LWUppWqq96dh6gJWwBifmcGfLSB5D4DuSMaqN), the PDA of
  // "pool_authority": the owner of every DBC curve's vaults.
  { address: 'FhVo3mqL8PW5pH5U2CN4XE33DokiyZnUwuGpH2hmHLuM', name: 'Meteora DBC authority' },
];

const AUTHORITY_NAMES: ReadonlyMap<string, string> = new Map(POOL_AUTHORITIES.map((authority) => [authority.address, authority.name]));

/** What a holder's address is when it holds for a pool: one of the token's pools, or a program authority. */
export type PoolAccount = { kind: 'pool'; poolAddress: string; protocol: string | null } | { kind: 'authority'; name: string };

/** The pools of a token as the token's data (`poolAddress`, `protocol`) or its snapshot lists them. */
export type KnownPools = ReadonlyArray<{ poolAddress: string; protocol?: string | null }>;

/** The pool account `address` is, among `pools` and the program authorities; null when it is a wallet. */
export function poolAccountOf(address: string, pools: KnownPools): PoolAccount | null {
  const pool = pools.find((known) => known.poolAddress === address);
  if (pool !== undefined) return { kind: 'pool', poolAddress: pool.poolAddress, protocol: pool.protocol || null };
  const name = AUTHORITY_NAMES.get(address);
  return name === undefined ? null : { kind: 'authority', name };
}

/** Whether `address` holds for a pool rather than for a person (see poolAccountOf). */
export function isPoolAccount(address: string, pools: KnownPools): boolean {
  return poolAccountOf(address, pools) !== null;
}
