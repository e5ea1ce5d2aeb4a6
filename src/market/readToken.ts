/**
 * TokenSchema's reading (schemas.ts) written out by hand, for the stream's hot path: every pushed
 * token-feed frame is one Token, and a zod run per field (25 fields, 15 per pool) was the largest
 * cost of the alert path after SQLite, in time and in garbage. Each field is read by the very
 * function its schema uses (wire.ts), so the result is the schema's to the key order.
 *
 * Safety is the schema's: the same string types, the same 80-digit amount cap. Anything this
 * reader does not accept, or whose shape it does not expect, gives null, and parseToken then runs
 * TokenSchema, which either accepts it after all or says why not (so the reason of an unreadable
 * frame is always zod's own). test/market/readToken.test.ts holds the two side by side.
 */
import { type LiquidityPool, type RiskAnalysis, type Token, type TokenEnvelope, TokenSchema, readPoolProtocolData } from './schemas';
import { isPlainObject, optionalAmount, SHORT_DIGITS, UNREAD, Unread } from './fastRead';
import {
  isOverlongAmount,
  readAmount,
  readDecimal,
  readOptionalFlag,
  readOptionalInteger,
  readOptionalText,
  readTextMap,
  type Reading,
} from './wire';

/** optionalAmount, but an over-long amount is undefined (the pool is left out) rather than the token unread. */
function poolAmount(value: unknown): bigint | null | undefined {
  if (typeof value === 'string' && SHORT_DIGITS.test(value)) return BigInt(value);
  if (isOverlongAmount(value)) return undefined;
  return readAmount(value);
}

function readPool(raw: Record<string, unknown>, key: string | null): LiquidityPool | null {
  // The map's key stands in for a missing poolAddress, as in schemas.ts poolMap.
  const poolAddress = key !== null && !('poolAddress' in raw) ? key : raw.poolAddress;
  if (typeof poolAddress !== 'string') return null;
  const baseReserves = poolAmount(raw.suspectedBaseTokenReserves);
  const quoteReserves = poolAmount(raw.suspectedQuoteTokenReserves);
  // An over-long amount fails the pool's schema: the pool is left out, the token kept.
  if (baseReserves === undefined || quoteReserves === undefined) return null;
  return {
    chainId: readOptionalInteger(raw.chainId),
    pairId: readOptionalText(raw.pairId),
    poolAddress,
    token0Address: readOptionalText(raw.token0Address) ?? '',
    token1Address: readOptionalText(raw.token1Address) ?? '',
    token0Decimals: readOptionalInteger(raw.token0Decimals),
    token1Decimals: readOptionalInteger(raw.token1Decimals),
    protocol: readOptionalText(raw.protocol) ?? '',
    syncedAt: readOptionalText(raw.syncedAt),
    creationBlockNumber: readOptionalInteger(raw.creationBlockNumber),
    creationBlockTimestamp: readOptionalInteger(raw.creationBlockTimestamp),
    suspectedBaseTokenPrice: readDecimal(raw.suspectedBaseTokenPrice),
    suspectedQuoteTokenPrice: readDecimal(raw.suspectedQuoteTokenPrice),
    suspectedBaseTokenReserves: baseReserves,
    suspectedQuoteTokenReserves: quoteReserves,
    suspectedBaseToken: readOptionalText(raw.suspectedBaseToken),
    suspectedQuoteToken: readOptionalText(raw.suspectedQuoteToken),
    protocolData: readPoolProtocolData(raw.protocolData),
  };
}

function readPools(value: unknown): LiquidityPool[] {
  if (value === null || value === undefined) return [];
  const pools: LiquidityPool[] = [];
  if (Array.isArray(value)) {
    for (const raw of value) {
      if (!isPlainObject(raw)) continue;
      const pool = readPool(raw, null);
      if (pool) pools.push(pool);
    }
    return pools;
  }
  if (typeof value !== 'object') throw UNREAD;
  // Own keys in Object.keys' order, without its list (every pushed token has this map).
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const raw: unknown = (value as Record<string, unknown>)[key];
    // A non-object pool is left out by the schema too; an array one takes the schema's own path.
    if (Array.isArray(raw)) throw UNREAD;
    if (!isPlainObject(raw)) continue;
    const pool = readPool(raw, key);
    if (pool) pools.push(pool);
  }
  return pools;
}

function readRisk(value: unknown): RiskAnalysis | null {
  if (value === null || value === undefined) return null;
  if (!isPlainObject(value)) throw UNREAD;
  return {
    isMutable: readOptionalFlag(value.isMutable),
    ownerBalance: optionalAmount(value.ownerBalance),
    mintAuthority: readOptionalText(value.mintAuthority),
    freezeAuthority: readOptionalText(value.freezeAuthority),
    updateAuthority: readOptionalText(value.updateAuthority),
  };
}

/** The Token TokenSchema would give, or null when the schema must be asked (see the file's head). */
export function readTokenFast(value: Record<string, unknown>): Token | null {
  const address = value.address;
  if (typeof address !== 'string' || address.length === 0) return null;
  const decimals = readDecimal(value.decimals);
  if (decimals === null) return null;
  try {
    return {
      id: readOptionalText(value.id),
      chainId: readOptionalInteger(value.chainId),
      address,
      decimals: Math.trunc(decimals),
      name: readOptionalText(value.name) ?? '',
      symbol: readOptionalText(value.symbol) ?? '',
      syncedAt: readOptionalText(value.syncedAt),
      description: readOptionalText(value.description),
      isVerifiedSourceCode: readOptionalFlag(value.isVerifiedSourceCode),
      ownerAddress: readOptionalText(value.ownerAddress),
      totalSupply: optionalAmount(value.totalSupply),
      logo: readOptionalText(value.logo),
      website: readOptionalText(value.website),
      deployerAddress: readOptionalText(value.deployerAddress),
      creationBlockNumber: readOptionalInteger(value.creationBlockNumber),
      creationBlockTimestamp: readOptionalInteger(value.creationBlockTimestamp),
      holdersCount: readOptionalInteger(value.holdersCount),
      version: readOptionalText(value.version),
      liquidityPools: readPools(value.liquidityPools),
      riskAnalysis: readRisk(value.riskAnalysis),
      riskStatus: readOptionalText(value.riskStatus),
      links: readTextMap(value.links),
      top10HoldersSupply: optionalAmount(value.top10HoldersSupply),
      origin: readOptionalText(value.origin),
      image: readOptionalText(value.image),
    };
  } catch (error) {
    if (error instanceof Unread) return null;
    throw error;
  }
}

/**
 * A Token from whatever the service sent: by the hand-written reading when it takes it, else by
 * TokenSchema, whose verdict (and its reasons, for the log) stand. Every reader of a token calls
 * this: the stream, the look-up batcher and the reconciliation.
 */
export function parseToken(raw: unknown): ReturnType<typeof TokenSchema.safeParse> {
  const fast = isPlainObject(raw) ? readTokenFast(raw) : null;
  return fast !== null ? { success: true, data: fast } : TokenSchema.safeParse(raw);
}

/**
 * TokenEnvelopeReadingSchema's reading by hand, for every token-data answer: the envelope around
 * the tokens, whose map is kept as it is (the batcher reads the tokens it asked for one by one).
 * Null when the schema must judge: an answer that is not an object, or whose `data` is no map.
 */
export function readTokenEnvelopeFast(value: unknown): Reading<TokenEnvelope> | null {
  if (!isPlainObject(value)) return null;
  const data = value.data;
  if (data !== null && data !== undefined && !isPlainObject(data)) return null;
  return {
    value: { statusCode: readOptionalInteger(value.statusCode), message: readOptionalText(value.message), data: data ?? {} },
    dropped: 0,
    examples: [],
  };
}
