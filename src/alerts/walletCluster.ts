/**
 * Wallets moving together (`/track cluster N WINDOW`, docs/alerts.md): among the trades a chat was
 * told of its followed wallets, N different wallets buying the same token within the window is one
 * alert, and N of them selling it within the window a second one. Pure: it reads the trades told
 * (the chat's wallet-trade events, which the outbox keeps, so a restart forgets none) and answers
 * with the clusters found; the key makes each one alert per token, side and setting, however often
 * it is asked.
 */
import type { EventBase, WalletTradeEvent } from '../model/events';
import { eventKey } from './detect/eventBase';

/** A chat's cluster setting: how many of its wallets, within how many seconds. */
export interface ClusterSetting {
  wallets: number;
  windowSecs: number;
}

/** A trade the chat was told of, with the chat's name for the wallet (untrusted text). */
export interface TradeTold {
  event: WalletTradeEvent;
  label: string | null;
}

/** One wallet of a cluster: its trades of the side within the window, summed. */
export interface ClusterWallet {
  wallet: string;
  label: string | null;
  trades: number;
  /** Token amount in smallest units (decimal string). */
  tokenAmount: string;
  /** SOL in lamports (decimal string), summed over the trades that had it; null when none did. */
  nativeAmount: string | null;
  amountUsd: number | null;
}

export interface WalletClusterEvent extends EventBase {
  kind: 'wallet-cluster';
  side: 'buy' | 'sell';
  /** The setting it was found for: a different setting is a different cluster. */
  required: number;
  windowSecs: number;
  /** In the order their first trade in the window came. */
  wallets: ClusterWallet[];
  decimals: number | null;
  /** Epoch seconds of the first and the last trade of the window. */
  firstTimestamp: number;
  lastTimestamp: number;
}

declare module '../model/events' {
  interface AlertEventsByKind {
    'wallet-cluster': WalletClusterEvent;
  }
}

function summed(wallet: string, label: string | null, trades: readonly WalletTradeEvent[]): ClusterWallet {
  let tokens = 0n;
  let native: bigint | null = null;
  let usd: number | null = null;
  for (const trade of trades) {
    // Amounts come from the service as decimal strings; one unreadable leaves the sum without it.
    if (/^\d{1,78}$/.test(trade.tokenAmount)) tokens += BigInt(trade.tokenAmount);
    if (trade.nativeAmount !== null && /^\d{1,78}$/.test(trade.nativeAmount)) native = (native ?? 0n) + BigInt(trade.nativeAmount);
    if (trade.amountUsd !== null && Number.isFinite(trade.amountUsd)) usd = (usd ?? 0) + trade.amountUsd;
  }
  return {
    wallet,
    label,
    trades: trades.length,
    tokenAmount: tokens.toString(),
    nativeAmount: native === null ? null : native.toString(),
    amountUsd: usd,
  };
}

/**
 * The first window in which `setting.wallets` different wallets traded the token on the side, or
 * null. `told` is one token's trades of one side, oldest first.
 */
function firstCluster(told: readonly TradeTold[], setting: ClusterSetting): readonly TradeTold[] | null {
  const windowMs = setting.windowSecs * 1000;
  let start = 0;
  const counts = new Map<string, number>();
  for (let end = 0; end < told.length; end += 1) {
    const last = told[end];
    if (last === undefined) break;
    counts.set(last.event.wallet, (counts.get(last.event.wallet) ?? 0) + 1);
    for (
      let first = told[start];
      first !== undefined && first.event.timestamp * 1000 < last.event.timestamp * 1000 - windowMs;
      first = told[start]
    ) {
      const left = (counts.get(first.event.wallet) ?? 1) - 1;
      if (left === 0) counts.delete(first.event.wallet);
      else counts.set(first.event.wallet, left);
      start += 1;
    }
    if (counts.size >= setting.wallets) return told.slice(start, end + 1);
  }
  return null;
}

/**
 * The clusters among the trades a chat was told of, at most one per token and side; `at` is when
 * they were found. The same trades always give the same keys.
 */
export function findClusters(told: readonly TradeTold[], setting: ClusterSetting, at: number): WalletClusterEvent[] {
  if (setting.wallets < 2) return [];
  const groups = new Map<string, TradeTold[]>();
  for (const trade of told) {
    const group = `${trade.event.side}:${trade.event.token.address}`;
    const list = groups.get(group);
    if (list === undefined) groups.set(group, [trade]);
    else list.push(trade);
  }
  const found: WalletClusterEvent[] = [];
  for (const list of groups.values()) {
    // The same trade told twice (to two follows of one wallet) counts once.
    const unique = [...new Map(list.map((trade) => [trade.event.key, trade])).values()].sort(
      (a, b) => a.event.timestamp - b.event.timestamp || a.event.key.localeCompare(b.event.key),
    );
    const window = firstCluster(unique, setting);
    const first = window?.[0];
    const last = window?.[window.length - 1];
    if (window === null || first === undefined || last === undefined) continue;
    const byWallet = new Map<string, TradeTold[]>();
    for (const trade of window) byWallet.set(trade.event.wallet, [...(byWallet.get(trade.event.wallet) ?? []), trade]);
    const side = first.event.side;
    found.push({
      kind: 'wallet-cluster',
      key: eventKey('wallet-cluster', first.event.token.address, [side, setting.wallets, setting.windowSecs]),
      at,
      token: last.event.token,
      side,
      required: setting.wallets,
      windowSecs: setting.windowSecs,
      wallets: [...byWallet.entries()].map(([wallet, trades]) =>
        summed(
          wallet,
          trades[0]?.label ?? null,
          trades.map((trade) => trade.event),
        ),
      ),
      decimals: last.event.decimals,
      firstTimestamp: first.event.timestamp,
      lastTimestamp: last.event.timestamp,
    });
  }
  return found;
}
