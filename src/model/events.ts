/**
 * Alert events: what the detectors find, the store keeps in its outbox, and the alert cards show.
 * Plain JSON-safe data. Every event carries a stable `key`, so that the same change seen twice (on
 * a stream and by reconciliation) is one alert: the key names the subject and the change, never
 * the moment it was noticed.
 */

/** The token an event is about, as the alert card names it (untrusted text: renderers escape it). */
export interface TokenRef {
  address: string;
  symbol: string;
  name: string;
  /** Decimals of its amounts, when known (an owner balance on the card is shown in whole tokens). */
  decimals?: number | null;
  /**
   * The token's risk status as last read when the event was seen (untrusted text; null: not read):
   * the alert card is coloured by it. Absent in events made before it was carried, and for a traded
   * token the watcher does not follow; the card is then neutral.
   */
  riskStatus?: string | null;
  /** Total supply in smallest units (decimal string), when known: an owner balance is also shown as its share. */
  totalSupply?: string | null;
  /** The token's market when the event was seen, for the card's "at the time" figures. Absent in events made before it was carried. */
  market?: TokenMarket;
}

/** A token's market at one moment, as the watcher's last-seen state has it; null where unread. */
export interface TokenMarket {
  /** SOL per token (the deepest SOL pool's price), and in USD when the SOL→USD rate was known. */
  priceNative: number | null;
  priceUsd: number | null;
  /**
   * The price change in percent over the hour before, against the oldest price the watcher kept
   * within it, and how many seconds back that price was (under an hour while the token has been
   * watched for less).
   */
  changePct: number | null;
  changeSecs: number | null;
  /** Price times the total supply, in SOL. */
  marketCapSol: number | null;
  /** The SOL side of the token's pools, summed. */
  liquiditySol: number | null;
  /**
   * How many seconds before the alert the pools (and the price read from them) were last shown:
   * a stream frame may leave them out, and then they are the last known. Null or absent: shown by
   * the data the alert was built from.
   */
  poolsAgeSecs?: number | null;
}

export type RiskFlagName = 'mintAuthority' | 'freezeAuthority' | 'mutable' | 'ownerBalance';

export interface FlagChange {
  flag: RiskFlagName;
  /** As read: an authority address, 'true'/'false' for mutability, an amount for the owner balance; null when unset or unread. */
  from: string | null;
  to: string | null;
}

/** What every alert event carries, whatever its kind. */
export interface EventBase {
  /** Stable: the same change always has the same key. At most 200 characters. */
  key: string;
  /** Epoch ms when the change was seen. */
  at: number;
  token: TokenRef;
  /**
   * Epoch ms the service gave as the time of the token data that showed the change (its `syncedAt`),
   * for the footer's "seen Xs after the update"; null or absent when that data gave none (and in
   * events made before it was carried).
   */
  syncedAt?: number | null;
}

/** A risk flag as it stands, read as FlagChange's sides are. */
export interface FlagState {
  flag: RiskFlagName;
  value: string | null;
}

export interface RiskStatusEvent extends EventBase {
  kind: 'risk-status';
  from: string | null;
  to: string | null;
  /** Flags that changed with it. */
  flags: FlagChange[];
  /**
   * Every flag as it stands after the change, when the risk analysis was read: what the card names
   * as behind the new status when no flag changed. Absent in events made before it was carried.
   */
  flagsNow?: FlagState[];
}

export interface RiskFlagEvent extends EventBase {
  kind: 'risk-flag';
  changes: FlagChange[];
}

export interface PoolChange {
  poolAddress: string;
  /** Quote (SOL) reserves, smallest units, decimal strings. */
  from: string | null;
  to: string | null;
  /** The pool is no longer listed. */
  gone: boolean;
  /** Drop in percent (0–100), null when a side was unread. */
  dropPct: number | null;
}

export interface LiquidityEvent extends EventBase {
  kind: 'liquidity';
  pools: PoolChange[];
}

export interface PriceEvent extends EventBase {
  kind: 'price';
  /** SOL per token at the start of the window and now. */
  from: number;
  to: number;
  /** Signed percent change from `from` to `to`. */
  changePct: number;
  /**
   * The change at the previous price seen, against the same start of the window: a follow is told
   * when the move crosses its threshold (|previousChangePct| below it, |changePct| at or above it).
   */
  previousChangePct?: number;
  windowSecs: number;
  priceUsd: number | null;
  /** The prices of the window, [epoch ms, SOL per token] oldest first (at most one a minute), for the card's small chart. */
  points?: Array<[number, number]>;
}

export interface WalletTradeEvent extends EventBase {
  kind: 'wallet-trade';
  wallet: string;
  side: 'buy' | 'sell';
  /** Token amount in smallest units (decimal string) and the token's decimals (null when not known: the card shows the raw amount). */
  tokenAmount: string;
  decimals: number | null;
  /** SOL paid or received, in lamports (decimal string), when the other side is SOL. */
  nativeAmount: string | null;
  amountUsd: number | null;
  /** SOL per token of the trade. */
  price: number | null;
  transactionHash: string;
  /** Epoch seconds of the trade. */
  timestamp: number;
}

export interface WhaleEvent extends EventBase {
  kind: 'whale';
  wallet: string;
  direction: 'in' | 'out';
  /** Share of supply in percent, before (null when the holder was not known before) and after. */
  fromPct: number | null;
  toPct: number;
}

/**
 * Every kind of alert event, by its `kind`. An open map: a kind added beside these (its descriptor
 * in src/alerts/kinds/) adds its event here from its own file, with
 * `declare module '…/model/events' { interface AlertEventsByKind { 'my-kind': MyEvent } }`,
 * and every switch or narrowing on `kind` then knows it.
 */
export interface AlertEventsByKind {
  'risk-status': RiskStatusEvent;
  'risk-flag': RiskFlagEvent;
  liquidity: LiquidityEvent;
  price: PriceEvent;
  'wallet-trade': WalletTradeEvent;
  whale: WhaleEvent;
}

export type AlertKind = keyof AlertEventsByKind;

export type AlertEvent = AlertEventsByKind[AlertKind];
