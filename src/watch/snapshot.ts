/**
 * The last-seen state of a followed token or wallet: what the detectors compare new data with, and
 * what the store keeps so that a restart neither repeats old alerts nor misses new ones. Plain
 * JSON-safe data (amounts as decimal strings), so any store can keep it as it is.
 */

export interface PoolSnapshot {
  poolAddress: string;
  /** The quote side (SOL) reserves, smallest units, as a decimal string; null when unread. */
  quoteReserves: string | null;
}

export interface TokenSnapshot {
  address: string;
  symbol: string;
  name: string;
  riskStatus: string | null;
  mintAuthority: string | null;
  freezeAuthority: string | null;
  isMutable: boolean | null;
  /** Smallest units, decimal string. */
  ownerBalance: string | null;
  pools: PoolSnapshot[];
  /** SOL per token, the price the cards show. */
  priceNative: number | null;
  priceUsd: number | null;
  holdersCount: number | null;
  /** Recent prices for the price-move window: [epoch ms, price] oldest first. */
  priceHistory: Array<[number, number]>;
  /** Holders at or above the whale share, with their balance (decimal string). */
  whales: Record<string, string>;
  /** Epoch ms of the data this snapshot was built from. */
  seenAt: number;
}

export interface WalletSnapshot {
  address: string;
  /** Transaction hash and log index of the newest trade seen, as `hash:logIndex`; null before any. */
  newestTrade: string | null;
  /** Epoch seconds of that trade. */
  newestTimestamp: number | null;
  seenAt: number;
}
