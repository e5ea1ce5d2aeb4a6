/**
 * Tokens as the vendor's token-data answers them: loaded verbatim from the recordings beside the spec,
 * or built in the recordings' shape (pools WITHOUT the four `suspected*` price and reserve fields;
 * price and reserves in `protocolData`, relative to `token0Address`/`token1Address`; nulls where the
 * recordings have them; `goplusStats` where the spec says `partnerStats`).
 */
import { readFileSync } from 'node:fs';
import { CHAIN_ID, SOL_MINT, USDC_MINT, addressFor, isJsonObject, type JsonObject, type JsonValue } from './wire';

export interface VendorPool extends JsonObject {
  poolAddress: string;
  protocol: string;
  token0Address: string;
  token1Address: string;
}

/** One member of token-data's `data`: the Token of a recording, or one built by makeToken. */
export interface VendorToken extends JsonObject {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  riskStatus: string;
  liquidityPools: { [poolAddress: string]: VendorPool };
}

export const RECORDING_NAMES = [
  'token-data-3-pools.json',
  'token-data-46-pools-usdc.json',
  'token-data-pool-time-null.json',
  'token-data-pump-curve-and-amm.json',
] as const;
export type RecordingName = (typeof RECORDING_NAMES)[number];

/** The recordings sit in shared/spec/recordings/, and shared/ is checked out beside the repository. */
const RECORDINGS = new URL('../../../../shared/spec/recordings/', import.meta.url);

/** A recording's whole answer, parsed: `{statusCode, message, data: {address: Token}}`. */
export function loadRecordingEnvelope(name: RecordingName): JsonObject {
  const parsed: unknown = JSON.parse(readFileSync(new URL(name, RECORDINGS), 'utf8'));
  if (!isJsonObject(parsed)) throw new Error(`${name}: not a token-data answer`);
  return parsed;
}

/** The one Token of a recording, verbatim (a fresh copy at each call). */
export function loadRecording(name: RecordingName): VendorToken {
  const data = loadRecordingEnvelope(name).data;
  const token = isJsonObject(data) ? Object.values(data)[0] : undefined;
  if (!isVendorToken(token)) throw new Error(`${name}: its data holds no Token`);
  return token;
}

export function isVendorToken(value: JsonValue | undefined): value is VendorToken {
  if (!isJsonObject(value)) return false;
  const pools = value.liquidityPools;
  return (
    typeof value.address === 'string' &&
    typeof value.symbol === 'string' &&
    typeof value.name === 'string' &&
    typeof value.decimals === 'number' &&
    typeof value.riskStatus === 'string' &&
    isJsonObject(pools) &&
    Object.values(pools).every(
      (pool) =>
        isJsonObject(pool) &&
        typeof pool.poolAddress === 'string' &&
        typeof pool.protocol === 'string' &&
        typeof pool.token0Address === 'string' &&
        typeof pool.token1Address === 'string',
    )
  );
}

export interface PoolInput {
  poolAddress?: string;
  /** Default PUMP_AMM. */
  protocol?: string;
  /** Default SOL. A USDC pool's price is priceSol × solUsd. */
  quote?: 'SOL' | 'USDC';
  /** Which side the token is on; default true (token0). */
  tokenIsToken0?: boolean;
  /** Raw units; default 1,000,000 whole tokens and the quote that prices them at the pool's price. */
  tokenReserve?: bigint;
  quoteReserve?: bigint;
  /** Unix seconds, or null as one recorded pool has it; default the token's creation. */
  creationBlockTimestamp?: number | null;
}

export interface TokenInput {
  address: string;
  symbol: string;
  name?: string;
  /** Default 6, as every recorded token. */
  decimals?: number;
  /** SOL per whole token, written into each SOL pool's protocolData. */
  priceSol: number;
  /** USD per SOL, for USDC pools; default 150. */
  solUsd?: number;
  /** Default SAFE. */
  riskStatus?: string;
  /** Default one PUMP_AMM pool against SOL. */
  pools?: PoolInput[];
  /** Unix seconds; default 2025-01-10. */
  createdAt?: number;
  holdersCount?: number;
}

const WHOLE_TOKENS_IN_POOL = 1_000_000;

/** A Token in the shape of the recordings. */
export function makeToken(input: TokenInput): VendorToken {
  if (!Number.isFinite(input.priceSol) || input.priceSol <= 0)
    throw new RangeError(`makeToken: priceSol must be positive, not ${input.priceSol}`);
  const decimals = input.decimals ?? 6;
  const createdAt = input.createdAt ?? 1736528044;
  const pools: { [poolAddress: string]: VendorPool } = {};
  (input.pools ?? [{}]).forEach((pool, index) => {
    const made = makePool(input, decimals, createdAt, pool, index);
    pools[made.poolAddress] = made;
  });
  const syncedAt = new Date(createdAt * 1000).toISOString();
  return {
    id: `${input.address}_${CHAIN_ID}`,
    chainId: CHAIN_ID,
    address: input.address,
    decimals,
    name: input.name ?? input.symbol,
    symbol: input.symbol,
    syncedAt,
    description: null,
    isVerifiedSourceCode: null,
    goplusStats: null,
    ownerAddress: null,
    totalSupply: (1_000_000_000n * 10n ** BigInt(decimals)).toString(),
    logo: null,
    website: null,
    deployerAddress: null,
    creationBlockNumber: 313127296,
    creationBlockTimestamp: createdAt,
    holdersCount: String(input.holdersCount ?? 428),
    version: '1',
    liquidityPools: pools,
    riskAnalysis: {
      isMutable: false,
      ownerBalance: '0',
      mintAuthority: null,
      freezeAuthority: null,
      updateAuthority: addressFor(`${input.address}:authority`),
    },
    limits: {},
    searchGraphData: null,
    riskStatus: input.riskStatus ?? 'SAFE',
    links: {},
    top10HoldersSupply: null,
    origin: null,
    image: `https://token-media.example/${CHAIN_ID}_${input.address}_small.png`,
  };
}

function makePool(token: TokenInput, decimals: number, createdAt: number, input: PoolInput, index: number): VendorPool {
  const quoteMint = input.quote === 'USDC' ? USDC_MINT : SOL_MINT;
  const quoteDecimals = input.quote === 'USDC' ? 6 : 9;
  const price = input.quote === 'USDC' ? token.priceSol * (token.solUsd ?? 150) : token.priceSol;
  const tokenReserve = input.tokenReserve ?? BigInt(WHOLE_TOKENS_IN_POOL) * 10n ** BigInt(decimals);
  const quoteReserve = input.quoteReserve ?? BigInt(Math.round(WHOLE_TOKENS_IN_POOL * price * 10 ** quoteDecimals));
  const poolAddress = input.poolAddress ?? addressFor(`${token.address}:pool:${index}`);
  const tokenFirst = input.tokenIsToken0 ?? true;
  const [token0Address, token1Address] = tokenFirst ? [token.address, quoteMint] : [quoteMint, token.address];
  // price0 is token1 per whole token0 and price1 its reciprocal, as in every recorded pool.
  const [price0, price1] = tokenFirst ? [price, 1 / price] : [1 / price, price];
  const [reserve0, reserve1] = tokenFirst ? [tokenReserve, quoteReserve] : [quoteReserve, tokenReserve];
  const created = input.creationBlockTimestamp === undefined ? createdAt : input.creationBlockTimestamp;
  return {
    chainId: CHAIN_ID,
    // The two mints sorted, not base then quote (real-service.md).
    pairId: [token.address, quoteMint].sort().join('_'),
    poolAddress,
    token0Address,
    token1Address,
    token0Decimals: tokenFirst ? decimals : quoteDecimals,
    token1Decimals: tokenFirst ? quoteDecimals : decimals,
    protocol: input.protocol ?? 'PUMP_AMM',
    syncedAt: new Date(createdAt * 1000).toISOString(),
    creationBlockNumber: created === null ? null : 313127296 + index,
    creationBlockTimestamp: created,
    dex: null,
    protocolData: {
      id: `${poolAddress}_${CHAIN_ID}`,
      price0: String(price0),
      price1: String(price1),
      reserve0: reserve0.toString(),
      reserve1: reserve1.toString(),
      token0Address,
      token1Address,
    },
    version: '1',
    suspectedBaseToken: token.address,
    factoryAddress: addressFor(`factory:${input.protocol ?? 'PUMP_AMM'}`),
    initialReserve0: null,
    initialReserve1: null,
    deployerAddress: null,
  };
}

/** What wallet-tracker's `tokensMetadata` says of a token (its content is not shown anywhere: our choice). */
export function tokenMetadataOf(token: VendorToken): JsonObject {
  return { address: token.address, name: token.name, symbol: token.symbol, decimals: token.decimals, logo: token.logo ?? null };
}

export interface FeedTokenInput {
  address: string;
  symbol: string;
  name?: string;
  priceUsd: number;
  /** ISO 8601; default now. */
  createdAt?: string;
}

/** One token of a token-feed `{"event":"token","data":[...]}` list, with the fields the vendor's page lists. */
export function makeFeedToken(input: FeedTokenInput): JsonObject {
  const createdAt = input.createdAt ?? new Date().toISOString();
  return {
    address: input.address,
    name: input.name ?? input.symbol,
    symbol: input.symbol,
    buys: 12,
    sells: 3,
    totalTxns: 15,
    buyVolume: 1520.5,
    sellVolume: 310.25,
    totalVolume: 1830.75,
    // A string with a dollar sign, as the page shows it.
    price: `$${input.priceUsd}`,
    timestamp: createdAt,
    createdAt,
    type: 'PUMP',
    protocol: 'PUMP',
    isDevRug: false,
    holders: 40,
    socialsCount: 1,
    botsTotalCount: 2,
    sniperWalletsCount: 1,
    buyTax: 0,
    sellTax: 0,
    links: {},
    liquidityUSD: 9000,
    devHoldingSupplyPerc: 2.5,
    top10HoldersSupplyPerc: null,
    insiderWalletsSupplyPerc: 4.2,
  };
}
