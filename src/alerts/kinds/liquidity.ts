/** Liquidity pulled: a pool's SOL reserves dropped from their peak, or the pool is gone; the card names each pool, its reserves before and after, and the share pulled. */
import { field, joinRich, link, rich, type Card, type RichText } from '../../cards/card';
import { explorerAccountUrl } from '../../cards/explorer';
import type { LiquidityEvent } from '../../model/events';
import { percent, shortAddress } from '../../text/format';
import { untrusted } from '../../text/sanitize';
import { base, lamports, marketFields, tokenActions, tokenLink, tokenName } from '../cardParts';
import { detectLiquidity } from '../detectors/liquidity';
import { defineAlertKind } from '../kind';

const POOL_LINES = 5;

/** "Pool AbCd…WxYz: 120 SOL → 30 SOL, 75% pulled", the pool linked to the explorer. */
function poolLine(pool: LiquidityEvent['pools'][number]): RichText {
  const name = link(shortAddress(untrusted(pool.poolAddress, 64, '?')), explorerAccountUrl(pool.poolAddress));
  if (pool.gone) return rich('Pool ', name, `: ${lamports(pool.from)} → gone, ${pool.dropPct === null ? 'all' : percent(pool.dropPct)} pulled`);
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
