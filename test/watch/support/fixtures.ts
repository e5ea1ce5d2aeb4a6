/** Tokens, trades and snapshots for the detector and watcher tests, parsed by the client's own schemas. */
import { TokenSchema, TradeSchema, type Token, type Trade } from '../../../src/market/schemas';
import { address, WSOL, wireToken, wireTrade } from '../../market/stream/support/samples';

export const T1 = address('T', 1);
export const T2 = address('T', 2);
export const POOL_A = address('T', 500);
export const POOL_B = address('T', 501);
export const W1 = address('W', 1);
export const W2 = address('W', 2);

export interface TokenShape {
  riskStatus?: string | null;
  mintAuthority?: string | null;
  freezeAuthority?: string | null;
  isMutable?: boolean;
  ownerBalance?: string;
  /** Pool address → quote (SOL) reserves in lamports. */
  pools?: Record<string, string>;
  /** SOL per token in every pool. */
  price?: number;
  totalSupply?: string;
  address?: string;
  name?: string;
  /** The service's stamp of the data (ISO time); the samples' fixed one by default. */
  syncedAt?: string;
}

export function makeToken(shape: TokenShape = {}): Token {
  const tokenAddress = shape.address ?? T1;
  const pools: Record<string, unknown> = {};
  for (const [poolAddress, quote] of Object.entries(shape.pools ?? { [POOL_A]: '100000000000' })) {
    pools[poolAddress] = {
      poolAddress,
      token0Address: tokenAddress,
      token1Address: WSOL,
      token0Decimals: 6,
      token1Decimals: 9,
      protocol: 'raydium',
      suspectedBaseTokenPrice: String(shape.price ?? 0.001),
      suspectedBaseTokenReserves: '100000000000000',
      suspectedQuoteTokenReserves: quote,
    };
  }
  return TokenSchema.parse(
    wireToken(tokenAddress, {
      name: shape.name ?? 'Fixture Token',
      ...(shape.syncedAt === undefined ? {} : { syncedAt: shape.syncedAt }),
      riskStatus: shape.riskStatus === undefined ? 'SAFE' : shape.riskStatus,
      totalSupply: shape.totalSupply ?? '1000000000000000',
      liquidityPools: pools,
      riskAnalysis: {
        isMutable: shape.isMutable ?? false,
        ownerBalance: shape.ownerBalance ?? '0',
        mintAuthority: shape.mintAuthority ?? null,
        freezeAuthority: shape.freezeAuthority ?? null,
        updateAuthority: null,
      },
    }),
  );
}

export function makeTrade(options: {
  token?: string;
  maker?: string;
  hash: string;
  timestamp?: number;
  side?: 'buy' | 'sell';
  usd?: number;
  logIndex?: number;
}): Trade {
  const token = options.token ?? T1;
  const wire = wireTrade(token, options.maker ?? W1, options.hash);
  const side = options.side ?? 'buy';
  return TradeSchema.parse({
    ...wire,
    timestamp: options.timestamp ?? 1_700_000_100,
    logIndex: options.logIndex ?? 0,
    tokenIn: side === 'buy' ? WSOL : token,
    tokenOut: side === 'buy' ? token : WSOL,
    amountUSD: String(options.usd ?? 150.5),
  });
}
