/**
 * Payloads in the style of the live service's own answers, as public recordings of it show them
 * (a Solana token on Raydium), beyond the spec's tables:
 *
 * - token-feed frames (the service's `token_updates`) carry `liquidityPools: {}`: the pools come by
 *   REST (token-data) and by another channel, never in these frames;
 * - a pool names the token `suspectedBaseToken` on whatever side it sits: in the recorded Raydium
 *   pool SOL is token0 and the token token1, with 59.641293545 SOL against 285,205,577 tokens;
 * - links without a scheme (`x.com/…`), extra fields (`goplusStats`, `limits`, `searchGraphData`,
 *   a pool's `protocolData`), numbers where the spec says strings (maker totals, `amountUSD`), a
 *   `logIndex` in the millions, a block number as text, and `tokensMetadata: {}`.
 *
 * The addresses are made up; the shapes and magnitudes are the recordings'.
 */
export const WSOL = 'So11111111111111111111111111111111111111112';
export const RECORDED_TOKEN = 'Hq4kR8mVcT2yXw9Lb3NfZsJd6PaGe5Uu7Ct1Rn2vpump';
export const RECORDED_POOL = '8Vz3kTfQw2MxNc6Hd9Jb5Ls4Pr7Gy1Ae3Wq5Ut8Yn2Ko';
export const RECORDED_DEPLOYER = 'E5nh4cVpTxQ8mRw2Zb7Ky9Lf3Gd6Ja1Hs4Nu8Pt3Wq5X';
export const RECORDED_MAKER = 'At7mQ2xNp9Kc4Rv6Lb8Hd3Fw5Gj1Sz2Ty7Ue4Yn9Pq6M';

/** SOL in the recorded pool (smallest units), and the token's side of it. */
export const RECORDED_SOL_RESERVES = '59641293545';
export const RECORDED_TOKEN_RESERVES = '285205577648238';
/** SOL per whole token, as the service wrote it; and its inverse, tokens per SOL. */
export const RECORDED_PRICE = '0.00000020911685541634';
export const RECORDED_INVERSE_PRICE = '4782015.29001122806221246719';

export interface RecordedPoolOptions {
  /** Where the token sits: 'token1' (as recorded, SOL is token0) or 'token0'. */
  tokenSide?: 'token0' | 'token1';
  /** Writes `suspectedBaseToken` and `suspectedQuoteToken` (the live service does; the spec's table has neither). */
  names?: boolean;
  solReserves?: string;
  tokenReserves?: string;
  poolAddress?: string;
  syncedAt?: string;
}

/** One Raydium pool of RECORDED_TOKEN against SOL, as token-data answers it. */
export function recordedPool(options: RecordedPoolOptions = {}): Record<string, unknown> {
  const tokenSide = options.tokenSide ?? 'token1';
  const poolAddress = options.poolAddress ?? RECORDED_POOL;
  const sol = options.solReserves ?? RECORDED_SOL_RESERVES;
  const tokens = options.tokenReserves ?? RECORDED_TOKEN_RESERVES;
  const sides =
    tokenSide === 'token1'
      ? { token0Address: WSOL, token0Decimals: 9, token1Address: RECORDED_TOKEN, token1Decimals: 6 }
      : { token0Address: RECORDED_TOKEN, token0Decimals: 6, token1Address: WSOL, token1Decimals: 9 };
  return {
    blockUpdatedAt: 317048366,
    chainId: 1399811149,
    factoryAddress: '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8',
    id: `${poolAddress}_1399811149`,
    pairId: `${RECORDED_TOKEN}_${WSOL}`,
    poolAddress,
    protocol: 'RAYDIUM',
    // The exchange's own account data, passed through: reserves by position, nested accounts.
    protocolData: {
      baseDecimal: tokenSide === 'token1' ? 9 : 6,
      baseMint: tokenSide === 'token1' ? WSOL : RECORDED_TOKEN,
      quoteMint: tokenSide === 'token1' ? RECORDED_TOKEN : WSOL,
      reserve0: tokenSide === 'token1' ? sol : tokens,
      reserve1: tokenSide === 'token1' ? tokens : sol,
      baseInfo: {
        isNative: tokenSide === 'token1',
        tokenAmount: { amount: tokenSide === 'token1' ? sol : tokens, decimals: tokenSide === 'token1' ? 9 : 6, uiAmount: 59.641293545 },
      },
      padding: ['0', '733', '0'],
      lpMintInfo: { decimals: 9, freezeAuthority: null, isInitialized: true, supply: '0' },
    },
    ...(options.names === false ? {} : { suspectedBaseToken: RECORDED_TOKEN, suspectedQuoteToken: WSOL }),
    suspectedBaseTokenPrice: RECORDED_PRICE,
    suspectedBaseTokenReserves: tokens,
    suspectedQuoteTokenPrice: RECORDED_INVERSE_PRICE,
    suspectedQuoteTokenReserves: sol,
    syncedAt: options.syncedAt ?? '2025-01-29T03:15:26.615Z',
    ...sides,
  };
}

export interface RecordedTokenOptions {
  syncedAt?: string;
  /** The pool map as sent; a token_updates frame sends `{}`. */
  liquidityPools?: Record<string, unknown>;
  riskStatus?: string;
  links?: Record<string, string>;
}

/** RECORDED_TOKEN as a token_updates frame carries it: no pools. */
export function recordedTokenFrame(options: RecordedTokenOptions = {}): Record<string, unknown> {
  return {
    address: RECORDED_TOKEN,
    chainId: 1399811149,
    creationBlockNumber: 300283506,
    creationBlockTimestamp: 1731114410,
    decimals: 6,
    deployerAddress: RECORDED_DEPLOYER,
    description: null,
    goplusStats: null,
    holdersCount: '344',
    id: `${RECORDED_TOKEN}_1399811149`,
    isVerifiedSourceCode: null,
    limits: {},
    links: options.links ?? { twitter: 'x.com/recordedtoken', website: 'https://en.wikipedia.org/wiki/Solana_(blockchain_platform)' },
    liquidityPools: options.liquidityPools ?? {},
    logo: 'https://ipfs.io/ipfs/QmbG5scUzEAt9XP5Sk1UcLumsCqoUxfLn5aTDGamyozMQS',
    name: 'Recorded Token',
    origin: 'PUMP',
    ownerAddress: null,
    riskAnalysis: {
      freezeAuthority: null,
      isMutable: false,
      mintAuthority: null,
      ownerBalance: '0',
      updateAuthority: 'TSLvdd1pWpHVjahSpsvCXUbgwsL3JAcvokwaKt1eokM',
    },
    riskStatus: options.riskStatus ?? 'SAFE',
    searchGraphData: null,
    symbol: 'RECORD',
    syncedAt: options.syncedAt ?? '2025-01-29T03:21:39.946Z',
    top10HoldersSupply: null,
    totalSupply: '999999095808852',
    version: '1',
    website: null,
  };
}

/** RECORDED_TOKEN as token-data answers it: the same token with its pool. */
export function recordedTokenAnswer(options: RecordedTokenOptions & { pool?: RecordedPoolOptions } = {}): Record<string, unknown> {
  const pool = recordedPool(options.pool);
  return recordedTokenFrame({ liquidityPools: { [String(pool.poolAddress)]: pool }, ...options });
}

/** A swap of RECORDED_TOKEN for SOL as the live service writes it, maker totals as JSON numbers. */
export function recordedTrade(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amountIn: '51759515938',
    amountOut: '14987275',
    amountUSD: 3.448871723,
    baseTokenLpPriceNative: null,
    baseTokenLpPriceUSD: null,
    blockNumber: '317050116',
    blockTimestamp: 1738121222,
    chainId: 1399811149,
    contractInteractedWith: '9RYJ3qr5eU5xAooqVcbmdeusjcViL5Nkiq7Gske3tiKq',
    logIndex: 5000000,
    makerData: {
      address: RECORDED_MAKER,
      chainId: 1399811149,
      tokenAddress: RECORDED_TOKEN,
      currentlyHoldingAmount: 0,
      holderSince: 1738120000,
      totalBoughtAmount: 14987275,
      totalBoughtUSD: 3.448871723,
      totalBoughtETH: 0.014987275,
      totalBuyTransactions: 1,
      totalSellTransactions: 1,
      totalSoldAmount: 14987275,
      totalSoldUSD: 3.51,
      totalSoldETH: 0.0152,
      sent: 0,
      received: 14987275,
      tags: [],
    },
    nativeBalance: '33076625',
    poolAddress: RECORDED_POOL,
    protocol: 'RAYDIUM',
    suspectedBaseTokenPrice: '0.00000028955593437065',
    suspectedBaseTokenPriceUSD: '0.00006663261161737336',
    timestamp: 1738121222,
    tokenIn: RECORDED_TOKEN,
    tokenOut: WSOL,
    transactionHash: 'deagma1fmwQwpihPi7yypnJKp87A1KaS6H9AddWWVXo565YDQYXrLNcv83RHi7sPFM2m8BKrLQuwVJfCwuyXGQ4',
    transactionIndex: 0,
    ...overrides,
  };
}

/** trades-history as the live service answers it: metadata an empty map. */
export function recordedTradeHistory(): Record<string, unknown> {
  return { tradeHistory: [recordedTrade(), recordedTrade({ logIndex: 5000001, timestamp: 1738121223 })], tokensMetadata: {} };
}
