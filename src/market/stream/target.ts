/**
 * Subscription targets: checked before any socket opens (input that cannot be an address never
 * costs a connection), turned into the wire's subscribe and unsubscribe messages, and reduced to
 * routing keys so that pushed events find their subscription.
 */
import { isAddress } from '../address';
import type { StreamName } from '../endpoints';
import type { StreamProtocol, StreamTarget } from './types';

/** A target after validation: addresses kept as given, wallets de-duplicated. */
export type CheckedTarget = { kind: 'token'; tokenAddress: string; intervalSecs: number | null } | { kind: 'wallets'; wallets: string[] };

/**
 * Throws a clear Error for a target the stream can never take: the server would refuse it at every
 * attempt, so it must not cost a connection. What only the server can judge (a token it does not
 * know) is refused by the server and reported through subscribe's onRejected.
 */
export function checkTarget(stream: StreamName, target: StreamTarget): CheckedTarget {
  if (target === null || typeof target !== 'object' || Array.isArray(target)) {
    throw new Error(`${stream}: a subscription needs {tokenAddress} or {wallets}`);
  }
  const given = target as { tokenAddress?: unknown; wallets?: unknown; intervalSecs?: unknown };
  if (given.tokenAddress !== undefined && given.wallets !== undefined) {
    throw new Error(`${stream}: give either tokenAddress or wallets, not both`);
  }
  if (given.wallets !== undefined) return checkWallets(stream, given.wallets, given.intervalSecs);
  const { tokenAddress, intervalSecs } = given;
  if (typeof tokenAddress !== 'string' || !isAddress(tokenAddress)) {
    throw new Error(`${stream}: "${shown(tokenAddress)}" is not a token address`);
  }
  if (intervalSecs !== undefined) {
    if (stream !== 'chart-live') throw new Error(`${stream}: intervalSecs applies to chart-live only`);
    if (typeof intervalSecs !== 'number' || !Number.isSafeInteger(intervalSecs) || intervalSecs < 1) {
      throw new Error('chart-live: intervalSecs must be a whole number of seconds, at least 1');
    }
  }
  return { kind: 'token', tokenAddress, intervalSecs: intervalSecs ?? null };
}

function checkWallets(stream: StreamName, wallets: unknown, intervalSecs: unknown): CheckedTarget {
  if (stream !== 'trades-live') throw new Error(`${stream}: only trades-live follows wallets; subscribe with {tokenAddress}`);
  if (intervalSecs !== undefined) throw new Error('trades-live: intervalSecs applies to chart-live token subscriptions only');
  if (!Array.isArray(wallets) || wallets.length === 0) {
    throw new Error('trades-live: wallets must be a non-empty list of wallet addresses');
  }
  // One spelling per wallet (EVM addresses differ in case only): two would share one routing key.
  const byKey = new Map<string, string>();
  for (const wallet of wallets as unknown[]) {
    if (typeof wallet !== 'string' || !isAddress(wallet)) throw new Error(`trades-live: "${shown(wallet)}" is not a wallet address`);
    if (!byKey.has(addressKey(wallet))) byKey.set(addressKey(wallet), wallet);
  }
  return { kind: 'wallets', wallets: [...byKey.values()] };
}

/** A caller's value in an error message: short, whatever it is. */
function shown(value: unknown): string {
  const text = String(value);
  return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}

/**
 * The subscription message. The key travels here (spec §5.3) as well as in the upgrade's
 * `x-api-key` header (the vendor's pages), never in the URL. A chart-live interval is the spec
 * reading's `intervalSecs` or the vendor's `timeframe`.
 */
export function subscribeMessage(target: CheckedTarget, apiKey: string, protocol: StreamProtocol = 'spec'): string {
  if (target.kind === 'wallets') return JSON.stringify({ wallets: target.wallets, apiKey });
  if (target.intervalSecs === null) return JSON.stringify({ tokenAddress: target.tokenAddress, apiKey });
  return JSON.stringify(
    protocol === 'vendor'
      ? { tokenAddress: target.tokenAddress, timeframe: target.intervalSecs, apiKey }
      : { tokenAddress: target.tokenAddress, intervalSecs: target.intervalSecs, apiKey },
  );
}

export function unsubscribeMessage(target: CheckedTarget): string {
  return JSON.stringify(
    target.kind === 'wallets'
      ? { action: 'unsubscribe', wallets: target.wallets }
      : { action: 'unsubscribe', tokenAddress: target.tokenAddress },
  );
}

/** EVM addresses are case-insensitive, base58 ones are not: one spelling per address for lookups. */
export function addressKey(address: string): string {
  return address.startsWith('0x') ? address.toLowerCase() : address;
}

/** The keys an event may carry to reach this target: its token, or each of its wallets. */
export function routingKeys(target: CheckedTarget): string[] {
  return target.kind === 'token' ? [addressKey(target.tokenAddress)] : target.wallets.map(addressKey);
}

/** A checked target in the shape callers give (for reports back to them). */
export function publicTarget(target: CheckedTarget): StreamTarget {
  if (target.kind === 'wallets') return { wallets: [...target.wallets] };
  return target.intervalSecs === null
    ? { tokenAddress: target.tokenAddress }
    : { tokenAddress: target.tokenAddress, intervalSecs: target.intervalSecs };
}

/** For logs: a target without anything secret, short enough for one line. */
export function describeTarget(target: CheckedTarget): string {
  if (target.kind === 'token') return target.tokenAddress;
  const [first] = target.wallets;
  return target.wallets.length === 1 ? `wallet ${first}` : `${target.wallets.length} wallets`;
}
