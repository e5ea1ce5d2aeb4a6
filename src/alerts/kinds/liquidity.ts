/** Liquidity pulled: a pool's SOL reserves dropped from their peak, or the pool is gone. */
import { field, type Card } from '../../cards/card';
import type { LiquidityEvent } from '../../model/events';
import { percent, shortAddress } from '../../text/format';
import { untrusted } from '../../text/sanitize';
import { base, lamports, tokenActions, tokenLink, tokenName } from '../cardParts';
import { detectLiquidity } from '../detectors/liquidity';
import { defineAlertKind } from '../kind';

const POOL_LINES = 5;

function liquidityCard(event: LiquidityEvent): Card {
  const lines = event.pools.slice(0, POOL_LINES).map((pool) => {
    const name = shortAddress(untrusted(pool.poolAddress, 64, '?'));
    if (pool.gone) return `Pool ${name}: gone (had ${lamports(pool.from)})`;
    const drop = pool.dropPct === null ? '' : ` (−${percent(pool.dropPct)})`;
    return `Pool ${name}: ${lamports(pool.from)} → ${lamports(pool.to)}${drop}`;
  });
  if (event.pools.length > POOL_LINES) lines.push(`and ${event.pools.length - POOL_LINES} more`);
  return base(event, `Liquidity pulled: ${tokenName(event.token)}`, [field('Pools', lines.join('\n')), field('Token', tokenLink(event.token), true)], tokenActions(event.token));
}

export const liquidityKind = defineAlertKind({
  name: 'liquidity',
  family: 'token',
  words: [],
  describe: () => 'liquidity pulled',
  detector: { input: 'token', detect: (last, next) => detectLiquidity(last, next) },
  card: liquidityCard,
});
