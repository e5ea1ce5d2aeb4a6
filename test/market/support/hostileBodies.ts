/**
 * The biggest hostile answers the client's caps allow, per endpoint: bodies just under the
 * endpoint's byte cap (MARKET_CLIENT_DEFAULTS.maxBodyBytes) whose JSON costs the most heap to
 * parse per byte, or the most to read:
 *
 * - `empty`: lists (or, for token-data, a map) of empty objects, `{}` three bytes each, about ten
 *   times their size once parsed;
 * - `digits`: readable elements whose every amount has 80 digits (the most a schema accepts), so
 *   the answer is kept and cached;
 * - `overlong`: elements whose amounts have 81 digits and more, unreadable, dropped.
 */
import { MARKET_CLIENT_DEFAULTS } from '../../../src/market/client';
import type { EndpointName } from '../../../src/market/endpoints';

export type HostileVariant = 'empty' | 'digits' | 'overlong';

export const HOSTILE_VARIANTS: readonly HostileVariant[] = ['empty', 'digits', 'overlong'];

/** Left under the cap for the envelope around the list. */
const SLACK = 256;

function fill(budget: number, element: (n: number) => string): string {
  const parts: string[] = [];
  let used = 0;
  for (let n = 0; ; n += 1) {
    const next = element(n);
    if (used + next.length + 1 > budget) break;
    parts.push(next);
    used += next.length + 1;
  }
  return parts.join(',');
}

const d80 = '9'.repeat(80);
const d81 = '9'.repeat(81);

function element(endpoint: EndpointName, variant: HostileVariant, n: number): string {
  if (variant === 'empty') return '{}';
  const amount = variant === 'digits' ? d80 : d81;
  const id = `W${n.toString(36)}`.padEnd(43, 'z');
  switch (endpoint) {
    case 'token-data':
      return `"${id}":{"address":"${id}","decimals":6,"name":"N","symbol":"S","totalSupply":"${amount}"}`;
    case 'holders-history':
      return `{"address":"${id}","currentlyHoldingAmount":"${amount}","totalBoughtAmount":"${amount}","totalSoldAmount":"${amount}"}`;
    case 'trades-history':
    case 'wallet-tracker':
      return `{"timestamp":${n},"transactionHash":"${id}","tokenIn":"${id}","tokenOut":"${id}","amountIn":"${amount}","amountOut":"${amount}"}`;
    case 'chart-history':
      return `{"timestamp":${n},"open":1,"high":1,"low":1,"close":1,"volume":"${amount}"}`;
    case 'token-technicals':
      return `{"walletAddress":"${id}","initialBuyerType":"HOLD","buyAmount":"${amount}","sellAmount":"${amount}"}`;
  }
}

/** One hostile body for `endpoint`, just under `maxBytes`. */
export function hostileBody(
  endpoint: EndpointName,
  variant: HostileVariant,
  maxBytes: number = MARKET_CLIENT_DEFAULTS.maxBodyBytes[endpoint],
): Buffer {
  const budget = maxBytes - SLACK;
  const list =
    variant === 'empty' && endpoint !== 'token-data'
      ? `{},`.repeat(Math.floor(budget / 3)).slice(0, -1)
      : fill(budget, (n) =>
          // A map needs distinct keys, even for empty objects.
          endpoint === 'token-data' && variant === 'empty' ? `"${n.toString(36)}":{}` : element(endpoint, variant, n),
        );
  switch (endpoint) {
    case 'token-data':
      return Buffer.from(`{"statusCode":200,"data":{${list}}}`);
    case 'holders-history':
      return Buffer.from(`[${list}]`);
    case 'trades-history':
    case 'wallet-tracker':
      return Buffer.from(`{"tradeHistory":[${list}],"tokensMetadata":{}}`);
    case 'chart-history':
      return Buffer.from(`{"candles":[${list}]}`);
    case 'token-technicals':
      return Buffer.from(`{"data":{"overtimeTechnicals":[],"initialBuyerStats":[${list}]}}`);
  }
}
