/**
 * The last-seen state of a followed token or wallet: what the detectors compare new data with, and
 * what the store keeps so that a restart neither repeats old alerts nor misses new ones. Plain
 * JSON-safe data (amounts as decimal strings), so any store can keep it as it is. The builders
 * that read the service's data into it live with the watcher (src/watch/snapshot.ts).
 */

export interface PoolSnapshot {
  poolAddress: string;
  /** The quote side (SOL) reserves, smallest units, as a decimal string; null when unread. */
  quoteReserves: string | null;
  /**
   * Highest quote reserves seen since the last liquidity alert for this pool (decimal string): a
   * pool drained in many small steps still alerts once the total drop passes the threshold.
   * Absent in snapshots written before it existed: the current reserves stand in.
   */
  peakQuoteReserves?: string | null;
  /** The pool's exchange protocol as the service names it (untrusted text); null or absent when not shown. */
  protocol?: string | null;
}

/**
 * The holdings of the wallets the service tags as snipers, bots or insiders, as holders-live
 * showed them: what the insiders-selling kind compares (src/alerts/insiders.ts).
 */
export interface InsiderState {
  /** Each tagged wallet's holding, smallest units (decimal string). */
  holdings: Record<string, string>;
  /** Their total at most once a minute within the window, [epoch ms, decimal string] oldest first. */
  totals: Array<[number, string]>;
  /** Epoch ms each tagged wallet's holding last went down. */
  soldAt: Record<string, number>;
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
  /** Total supply, smallest units (decimal string): the whale share is a share of it. Absent in older snapshots. */
  totalSupply?: string | null;
  /** Epoch ms when holders-live first told this token's holders: before it, a whale list is a baseline, not a change. */
  holdersSeenAt?: number | null;
  /** Decimals of the token, for amounts on cards. */
  decimals?: number | null;
  /** Epoch ms of the newest token data applied (the service's `syncedAt`): older inputs are stale. */
  syncedAt?: number | null;
  /**
   * Epoch ms (the watcher's clock, as `seenAt`) of the newest data that showed the pools: a
   * token-data answer, or a frame that listed them. A stream frame may leave the pools out; then
   * `pools` and `priceNative` are the last known, as of this time. Absent in older snapshots:
   * `seenAt` stands in.
   */
  poolsShownAt?: number | null;
  /**
   * Whether the newest token data applied was a stream frame that left the pools out: a
   * reconciliation's answer that this frame overtook still brings the pools. Absent: false.
   */
  poolsLeftOut?: boolean;
  /** The deployer's address (token data's `deployerAddress`); null or absent when not shown. */
  deployer?: string | null;
  /** Epoch seconds of the token's creation block; null or absent when not shown. */
  createdAt?: number | null;
  /** The highest developer-sold line (25, 50 or 100 percent) the deployer's sales have reached; 0 or absent: none. */
  devSoldLine?: number;
  /** Tagged holders' holdings (insiders-selling); absent until one is seen. */
  insiders?: InsiderState;
}

export interface WalletSnapshot {
  address: string;
  /** Transaction hash and log index of the newest trade seen, as `hash:logIndex`; null before any. */
  newestTrade: string | null;
  /** Epoch seconds of that trade. */
  newestTimestamp: number | null;
  seenAt: number;
  /**
   * Every trade seen at `newestTimestamp` (`hash:logIndex`): trades of the same second are told
   * apart by these, not by time. Absent in older snapshots (then only `newestTrade` is known).
   */
  newestIds?: string[];
}
