/**
 * How the simulator writes a token on the wire. `spec` (the default) follows the spec's tables:
 * the token is token0 and SOL token1 in every pool, links carry their scheme, and token-feed
 * frames carry the pools. `real` writes as the live service behind the spec does, as its public
 * recordings show:
 *
 * - token-feed frames leave the pools out (`liquidityPools: {}`); token-data answers carry them;
 * - SOL is token0 and the token token1, and the pool names the token `suspectedBaseToken` (its
 *   reserves and price stay the token's, whichever side it is on);
 * - social links without a scheme (`x.com/…`, `t.me/…`);
 * - fields the spec never names: `goplusStats`, `limits`, `searchGraphData`, a pool's `protocolData`.
 *
 * The market is the same in both styles: only the writing differs.
 */
import type { WireLiquidityPool, WireToken } from './wireTypes';
import { WRAPPED_SOL_MINT } from './units';

export const WIRE_STYLES = ['spec', 'real'] as const;
export type WireStyle = (typeof WIRE_STYLES)[number];

export function isWireStyle(value: string): value is WireStyle {
  return (WIRE_STYLES as readonly string[]).includes(value);
}

/** The pool with SOL as token0 and the token as token1, both named, as the live service lists a Raydium pool. */
function realPool(pool: WireLiquidityPool, tokenAddress: string): WireLiquidityPool {
  return {
    ...pool,
    token0Address: WRAPPED_SOL_MINT,
    token1Address: tokenAddress,
    token0Decimals: pool.token1Decimals,
    token1Decimals: pool.token0Decimals,
    suspectedBaseToken: tokenAddress,
    suspectedQuoteToken: WRAPPED_SOL_MINT,
    // The exchange's own account data, by position: reserve0 is SOL's here.
    protocolData: {
      reserve0: pool.suspectedQuoteTokenReserves,
      reserve1: pool.suspectedBaseTokenReserves,
      baseMint: WRAPPED_SOL_MINT,
      quoteMint: tokenAddress,
    },
  };
}

/** The simulated social hosts, and the real ones the live service's links name without a scheme. */
const BARE_HOSTS: ReadonlyArray<[RegExp, string]> = [
  [/^https:\/\/x\.example\//, 'x.com/'],
  [/^https:\/\/t\.example\//, 't.me/'],
];

/** Social links as people type them: `x.com/handle`. Other links (the hostile tokens' among them) stay as they are. */
export function realLinks(links: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, url] of Object.entries(links)) {
    const bare = BARE_HOSTS.find(([pattern]) => pattern.test(url));
    out[name] = bare === undefined ? url : url.replace(bare[0], bare[1]);
  }
  return out;
}

/** The token as token-data answers it in `style`. */
export function styledToken(token: WireToken, style: WireStyle): WireToken {
  if (style === 'spec') return token;
  const pools: Record<string, WireLiquidityPool> = {};
  for (const [address, pool] of Object.entries(token.liquidityPools)) pools[address] = realPool(pool, token.address);
  return { ...token, liquidityPools: pools, links: realLinks(token.links), goplusStats: null, limits: {}, searchGraphData: null };
}

/** The token as a token-feed frame carries it in `style`: in `real`, without its pools. */
export function styledFrame(token: WireToken, style: WireStyle): WireToken {
  if (style === 'spec') return token;
  return { ...styledToken(token, style), liquidityPools: {} };
}
