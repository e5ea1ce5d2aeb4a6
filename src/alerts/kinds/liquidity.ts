/**
 * Liquidity pulled: a pool's SOL reserves dropped from their peak, or the pool is gone; the card
 * names each pool, its reserves before and after, and the share pulled.
 *
 * Liquidity pulled: a pool no longer listed, or its quote (SOL) reserves down by at least 30% from
 * their peak since the last alert for that pool. The peak (snapshot.ts) makes a pool drained in
 * many small steps alert once the total passes the line, and resets after an alert, so the next
 * alert needs another 30%. 30% is far beyond what ordinary sells take out of a pool in one go and
 * well short of a complete pull, which alerts too.
 *
 * Key: the token, the pools with what happened to each, and the time of the state they changed from.
 */
import { field, joinRich, link, rich, type Card, type RichText } from '../../cards/card';
import { explorerAccountUrl } from '../../cards/explorer';
import type { LiquidityEvent, PoolChange } from '../../model/events';
import { percent, shortAddress } from '../../text/format';
import { untrusted } from '../../text/sanitize';
import { base, lamports, marketFields, tokenActions, tokenLink, tokenName } from '../cardParts';
import { defineAlertKind } from '../kind';
import { LIQUIDITY_DROP_PCT } from '../snapshot';
import type { TokenSnapshot } from '../../model/snapshot';
import { eventKey, tokenChange } from '../detect/eventBase';

function dropPct(from: bigint, to: bigint): number {
  if (from <= 0n) return 0;
  return Number(((from - to) * 1_000_000n) / from) / 10_000;
}

export function detectLiquidity(last: TokenSnapshot | null, next: TokenSnapshot): LiquidityEvent[] {
  if (last === null) return [];
  // The usual push: the same pools, so the same list (snapshot.ts readPools keeps it, and keeps a
  // peak only while the drop from it is under the line). Nothing was pulled.
  if (last.pools === next.pools) return [];
  const now = new Map(next.pools.map((pool) => [pool.poolAddress, pool]));
  const changes: PoolChange[] = [];
  for (const before of last.pools) {
    const after = now.get(before.poolAddress);
    if (!after) {
      const from = before.quoteReserves;
      changes.push({ poolAddress: before.poolAddress, from, to: null, gone: true, dropPct: from === null ? null : 100 });
      continue;
    }
    const peakText = before.peakQuoteReserves ?? before.quoteReserves;
    if (peakText === null || after.quoteReserves === null) continue;
    const peak = BigInt(peakText);
    const current = BigInt(after.quoteReserves);
    if (current >= peak) continue;
    const drop = dropPct(peak, current);
    if (drop >= LIQUIDITY_DROP_PCT)
      changes.push({ poolAddress: before.poolAddress, from: peakText, to: after.quoteReserves, gone: false, dropPct: drop });
  }
  if (changes.length === 0) return [];
  const parts = changes.flatMap((change) => [change.poolAddress, change.gone ? 'gone' : 'drop', change.to]);
  return [
    {
      kind: 'liquidity',
      key: eventKey('liquidity', next.address, [...parts, last.seenAt]),
      ...tokenChange(last, next),
      pools: changes,
    },
  ];
}

const POOL_LINES = 5;

/** "Pool AbCd…WxYz: 120 SOL → 30 SOL, 75% pulled", the pool linked to the explorer. */
function poolLine(pool: LiquidityEvent['pools'][number]): RichText {
  const name = link(shortAddress(untrusted(pool.poolAddress, 64, '?')), explorerAccountUrl(pool.poolAddress));
  if (pool.gone)
    return rich('Pool ', name, `: ${lamports(pool.from)} → gone, ${pool.dropPct === null ? 'all' : percent(pool.dropPct)} pulled`);
  const pulled = pool.dropPct === null ? '' : `, ${percent(pool.dropPct)} pulled`;
  return rich('Pool ', name, `: ${lamports(pool.from)} → ${lamports(pool.to)}${pulled}`);
}

function liquidityCard(event: LiquidityEvent): Card {
  const lines = event.pools.slice(0, POOL_LINES).map(poolLine);
  if (event.pools.length > POOL_LINES) lines.push(rich(`and ${event.pools.length - POOL_LINES} more`));
  return base(
    event,
    `Liquidity pulled: ${tokenName(event.token)}`,
    [field('SOL reserves (peak → now)', joinRich(lines, '\n')), field('Token', tokenLink(event.token), true), ...marketFields(event.token)],
    tokenActions(event.token),
  );
}

export const liquidityKind = defineAlertKind({
  name: 'liquidity',
  family: 'token',
  words: [],
  describe: () => 'liquidity pulled',
  detector: { input: 'token', detect: (last, next) => detectLiquidity(last, next) },
  card: liquidityCard,
});
