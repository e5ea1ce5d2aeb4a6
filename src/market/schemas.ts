/**
 * Schemas for every resource of spec §2. Each reads the wire leniently (see wire.ts) and yields
 * one exact type: smallest-unit amounts as bigint, prices, USD and native values as number,
 * counts and times as integer numbers, absent nullable fields as null. Field names stay the
 * spec's own so that a reader can follow the spec and the code side by side.
 *
 * Lists are tolerant: an unreadable element (a trade, holder, candle, initial buyer, technicals
 * point or metadata entry) is left out and the rest kept; only a wrong shape of the answer itself
 * fails it. The `…Reading` schemas, which the client uses, also report what was left out (for
 * its log and counters); the plain schemas give the value alone. Tokens and their pools are read
 * the same way but reported elsewhere: tokens one by one by tokenBatcher.ts, pools silently.
 */
import { z } from 'zod';
import {
  amount,
  decimal,
  isOverlongAmount,
  firstOf,
  integer,
  listOf,
  optionalAmount,
  optionalDecimal,
  optionalFlag,
  optionalInteger,
  optionalText,
  droppedOf,
  type Reading,
  readAmount,
  readDecimal,
  readEach,
  readEntries,
  readOptionalText,
  text,
  textList,
  textMap,
  tolerantArray,
} from './wire';

/**
 * The four figures of a pool's `protocolData` (not in the spec: the exchange's own account data,
 * passed through by the live service), which stand in for the `suspected*` figures that recorded
 * pools leave out. Relative to the positions, not to base and quote: `price0` is token1 per whole
 * token0 and `price1` token0 per whole token1 (decimal text, "NaN" when the service has none);
 * `reserve0` and `reserve1` are token0's and token1's smallest units. `token0Address` and
 * `token1Address` are the positions as protocolData names them, to check against the pool's own.
 * Nothing else of protocolData is kept: it is of no fixed shape and can be large.
 */
export interface PoolProtocolData {
  price0: number | null;
  price1: number | null;
  reserve0: bigint | null;
  reserve1: bigint | null;
  token0Address: string | null;
  token1Address: string | null;
}

/** An amount, or null when absent, unreadable or over-long: one bad figure only leaves that figure unknown. */
function protocolAmount(value: unknown): bigint | null {
  return isOverlongAmount(value) ? null : readAmount(value);
}

/**
 * `protocolData`'s figures, read the same way by the schema and by the stream's fast reader
 * (readToken.ts calls this very function); null when it is no object or gives no figure at all.
 */
export function readPoolProtocolData(value: unknown): PoolProtocolData | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const raw = value as Record<string, unknown>;
  const read: PoolProtocolData = {
    price0: readDecimal(raw.price0),
    price1: readDecimal(raw.price1),
    reserve0: protocolAmount(raw.reserve0),
    reserve1: protocolAmount(raw.reserve1),
    token0Address: readOptionalText(raw.token0Address),
    token1Address: readOptionalText(raw.token1Address),
  };
  const figures = read.price0 !== null || read.price1 !== null || read.reserve0 !== null || read.reserve1 !== null;
  return figures ? read : null;
}

/** §2.3 */
export const LiquidityPoolSchema = z.object({
  chainId: optionalInteger,
  pairId: optionalText,
  poolAddress: z.string(),
  token0Address: text,
  token1Address: text,
  token0Decimals: optionalInteger,
  token1Decimals: optionalInteger,
  protocol: text,
  syncedAt: optionalText,
  creationBlockNumber: optionalInteger,
  creationBlockTimestamp: optionalInteger,
  suspectedBaseTokenPrice: optionalDecimal,
  suspectedQuoteTokenPrice: optionalDecimal,
  suspectedBaseTokenReserves: optionalAmount,
  suspectedQuoteTokenReserves: optionalAmount,
  // Not in the spec's table, but the live service names both sides (the token is the suspected
  // base whichever of token0 and token1 it is): poolSides.ts reads the reserves by these names.
  suspectedBaseToken: optionalText,
  suspectedQuoteToken: optionalText,
  // Not in the spec either: where the live service leaves the four suspected figures out (every
  // recorded pool does), poolSides.ts reads the price and reserves from here.
  protocolData: z
    .unknown()
    .optional()
    .transform((value) => readPoolProtocolData(value)),
});
export type LiquidityPool = z.output<typeof LiquidityPoolSchema>;

/** §2.4 */
export const RiskAnalysisSchema = z.object({
  isMutable: optionalFlag,
  ownerBalance: optionalAmount,
  mintAuthority: optionalText,
  freezeAuthority: optionalText,
  updateAuthority: optionalText,
});
export type RiskAnalysis = z.output<typeof RiskAnalysisSchema>;

/** The pools of a token arrive as a map keyed by pool address (§2.2); callers get a list. */
const poolMap = z
  .union([z.record(z.string(), z.unknown()), z.array(z.unknown()), z.null()])
  .optional()
  .transform((value): LiquidityPool[] => {
    if (value === null || value === undefined) return [];
    const entries: Array<[string | null, unknown]> = Array.isArray(value) ? value.map((pool) => [null, pool]) : Object.entries(value);
    const pools: LiquidityPool[] = [];
    for (const [key, raw] of entries) {
      const withAddress =
        key !== null && raw !== null && typeof raw === 'object' && !('poolAddress' in raw) ? { ...raw, poolAddress: key } : raw;
      const parsed = LiquidityPoolSchema.safeParse(withAddress);
      // One unreadable pool must not hide the token: it is left out, the rest is kept.
      if (parsed.success) pools.push(parsed.data);
    }
    return pools;
  });

/** §2.2 */
export const TokenSchema = z.object({
  id: optionalText,
  chainId: optionalInteger,
  address: z.string().min(1),
  decimals: integer,
  name: text,
  symbol: text,
  syncedAt: optionalText,
  description: optionalText,
  isVerifiedSourceCode: optionalFlag,
  // partnerStats (third-party statistics of no fixed shape) is left out: no card shows it, and
  // kept as raw JSON it would hold whatever a hostile answer put there for the cache's lifetime.
  ownerAddress: optionalText,
  totalSupply: optionalAmount,
  logo: optionalText,
  website: optionalText,
  deployerAddress: optionalText,
  creationBlockNumber: optionalInteger,
  creationBlockTimestamp: optionalInteger,
  holdersCount: optionalInteger,
  version: optionalText,
  liquidityPools: poolMap,
  riskAnalysis: RiskAnalysisSchema.nullish().transform((value) => value ?? null),
  riskStatus: optionalText,
  links: textMap,
  /** Decision: an amount in the smallest unit held by the ten largest holders (the simulator's reading). */
  top10HoldersSupply: optionalAmount,
  origin: optionalText,
  image: optionalText,
});
export type Token = z.output<typeof TokenSchema>;

/** §2.1: the token-data envelope; tokens are parsed one by one so that one bad token cannot hide the others. */
export const TokenEnvelopeSchema = z.object({
  statusCode: optionalInteger,
  message: optionalText,
  // Checked as a plain object and kept as it is: the batcher reads only the tokens it asked for,
  // so a map of a million keys is not copied (z.record would) before they are looked up.
  data: z
    .unknown()
    .optional()
    .transform((value, ctx): Record<string, unknown> => {
      if (value === null || value === undefined) return {};
      if (typeof value !== 'object' || Array.isArray(value)) {
        ctx.addIssue({ code: 'custom', message: 'expected a map of tokens' });
        return z.NEVER;
      }
      return value as Record<string, unknown>;
    }),
});
export type TokenEnvelope = z.output<typeof TokenEnvelopeSchema>;
/** Nothing is left out here: tokenBatcher.ts reads the tokens one by one and reports an unreadable one itself. */
export const TokenEnvelopeReadingSchema = TokenEnvelopeSchema.transform(
  (value): Reading<typeof value> => ({ value, dropped: 0, examples: [] }),
);

/** §2.5 overtimeTechnicals point. topHoldersSupply and its percentage twin are keyed by top-N count. */
export const TechnicalsPointSchema = z.object({
  id: optionalText,
  contractAddress: optionalText,
  chainId: optionalInteger,
  syncedAt: optionalText,
  holdersCount: optionalInteger,
  tagsCount: z
    .unknown()
    .optional()
    .transform((value): number | null => {
      // "count of different wallet types": a number, or a map from type to count, which is summed.
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        let total = 0;
        for (const count of Object.values(value)) total += typeof count === 'number' ? count : Number(count) || 0;
        return total;
      }
      return optionalInteger.parse(value);
    }),
  topHoldersSupply: z
    .record(z.string(), optionalAmount)
    .nullish()
    .transform((value) => topNMap(value)),
  topHoldersSupplyPerc: z
    .record(z.string(), optionalDecimal)
    .nullish()
    .transform((value) => topNMap(value)),
});
export type TechnicalsPoint = z.output<typeof TechnicalsPointSchema>;

function topNMap<T>(value: Record<string, T | null> | null | undefined): Map<number, T> {
  const out = new Map<number, T>();
  if (!value) return out;
  const keys = Object.keys(value)
    .map(Number)
    .filter((key) => Number.isInteger(key) && key > 0)
    .sort((a, b) => a - b);
  for (const key of keys) {
    const item = value[String(key)];
    if (item !== null && item !== undefined) out.set(key, item);
  }
  return out;
}

/** §2.5 tokenStats (its first element). devDeployedTokens may be a list or a count. */
export const TokenStatsSchema = z
  .object({
    devDeployedTokens: z.unknown().optional(),
    devDeployedTokensCount: optionalInteger,
    isDevRug: optionalFlag,
    isDevNew: optionalFlag,
    devSoldSupply: optionalAmount,
    devSoldSupplyPerc: optionalDecimal,
    initialTotalBoughtSupply: optionalAmount,
    priceNative: optionalDecimal,
    liquidityNative: optionalDecimal,
  })
  .transform(({ devDeployedTokens, devDeployedTokensCount, ...rest }) => {
    const deployed = textList.parse(devDeployedTokens);
    const countFromField = Array.isArray(devDeployedTokens) ? devDeployedTokens.length : readCount(devDeployedTokens);
    return {
      ...rest,
      devDeployedTokens: deployed,
      devDeployedTokensCount: devDeployedTokensCount ?? countFromField,
    };
  });
export type TokenStats = z.output<typeof TokenStatsSchema>;

function readCount(value: unknown): number | null {
  return optionalInteger.parse(value);
}

/** §2.5 devMakerData. */
export const DevMakerDataSchema = z.object({
  totalBoughtAmount: optionalAmount,
  totalSoldAmount: optionalAmount,
  totalBoughtETH: optionalDecimal,
  totalSoldETH: optionalDecimal,
  totalSoldUSD: optionalDecimal,
  totalBuyTransactions: optionalInteger,
  totalSellTransactions: optionalInteger,
});
export type DevMakerData = z.output<typeof DevMakerDataSchema>;

/** §2.5 initialBuyerStats entry. initialBuyerType is HOLD, SELL_ALL or SELL_PARTIAL, read as free text. */
export const InitialBuyerSchema = z.object({
  walletAddress: z.string(),
  initialBuyerType: text,
  sniper: optionalFlag.transform((value) => value ?? false),
  buyAmount: optionalAmount,
  sellAmount: optionalAmount,
});
export type InitialBuyer = z.output<typeof InitialBuyerSchema>;

/** §2.5: the technicals payload. Points are sorted most recent first. */
export const TechnicalsReadingSchema = z
  .object({
    overtimeTechnicals: listOf(TechnicalsPointSchema, 'overtimeTechnicals'),
    tokenStats: firstOf(TokenStatsSchema),
    devMakerData: firstOf(DevMakerDataSchema),
    initialBuyerStats: listOf(InitialBuyerSchema, 'initialBuyerStats'),
  })
  .transform(({ overtimeTechnicals, tokenStats, devMakerData, initialBuyerStats }) => ({
    value: {
      overtimeTechnicals: [...overtimeTechnicals.value].sort((a, b) => timeOf(b.syncedAt) - timeOf(a.syncedAt)),
      tokenStats,
      devMakerData,
      initialBuyerStats: initialBuyerStats.value,
    },
    ...droppedOf(overtimeTechnicals, initialBuyerStats),
  }));
export const TechnicalsSchema = TechnicalsReadingSchema.transform((reading) => reading.value);
export type Technicals = z.output<typeof TechnicalsSchema>;

/** The technicals payload with or without its envelope. */
export const TechnicalsEnvelopeReadingSchema = z
  .unknown()
  .optional()
  .transform((value, ctx): Reading<Technicals> => {
    const inner = value !== null && typeof value === 'object' && 'data' in value ? value.data : value;
    const parsed = TechnicalsReadingSchema.safeParse(inner);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: parsed.error.message });
      return z.NEVER;
    }
    return parsed.data;
  });
export const TechnicalsEnvelopeSchema = TechnicalsEnvelopeReadingSchema.transform((reading) => reading.value);

function timeOf(iso: string | null): number {
  const time = iso === null ? NaN : Date.parse(iso);
  return Number.isNaN(time) ? 0 : time;
}

/** §2.6 */
export const HolderSchema = z.object({
  chainId: optionalInteger,
  tokenAddress: optionalText,
  address: z.string(),
  currentlyHoldingAmount: amount,
  holderSince: optionalInteger,
  totalBoughtAmount: optionalAmount,
  totalBoughtETH: optionalDecimal,
  totalBuyTransactions: optionalInteger,
  totalSellTransactions: optionalInteger,
  totalSoldAmount: optionalAmount,
  totalBoughtUSD: optionalDecimal,
  totalSoldUSD: optionalDecimal,
  totalSoldETH: optionalDecimal,
  sent: optionalAmount,
  received: optionalAmount,
  tags: textList,
  syncedAt: optionalText,
  nativeBalance: optionalAmount,
});
export type Holder = z.output<typeof HolderSchema>;

/** holders-history answers a bare array; an envelope with `data` is read too. Anything else is the wrong shape. */
export const HoldersReadingSchema = z
  .unknown()
  .optional()
  .transform((value, ctx): Reading<Holder[]> => {
    if (Array.isArray(value)) return readEach(HolderSchema, value, 'holders');
    if (value !== null && typeof value === 'object' && 'data' in value && Array.isArray(value.data)) {
      return readEach(HolderSchema, value.data, 'data');
    }
    ctx.addIssue({ code: 'custom', message: 'expected an array of holders' });
    return z.NEVER;
  });
export const HoldersSchema = HoldersReadingSchema.transform((reading) => reading.value);

/** §2.7 MakerData */
export const MakerDataSchema = z.object({
  chainId: optionalInteger,
  address: z.string(),
  tokenAddress: optionalText,
  currentlyHoldingAmount: optionalAmount,
  holderSince: optionalInteger,
  totalBoughtAmount: optionalAmount,
  totalBoughtUSD: optionalDecimal,
  totalBoughtETH: optionalDecimal,
  totalBuyTransactions: optionalInteger,
  totalSellTransactions: optionalInteger,
  totalSoldAmount: optionalAmount,
  totalSoldUSD: optionalDecimal,
  totalSoldETH: optionalDecimal,
  sent: optionalAmount,
  received: optionalAmount,
  tags: textList,
});
export type MakerData = z.output<typeof MakerDataSchema>;

/** §2.7 Trade */
export const TradeSchema = z.object({
  chainId: optionalInteger,
  blockTimestamp: optionalInteger,
  timestamp: integer,
  blockNumber: optionalInteger,
  transactionHash: z.string(),
  logIndex: optionalInteger,
  transactionIndex: optionalInteger,
  tokenIn: z.string(),
  tokenOut: z.string(),
  amountIn: amount,
  amountOut: amount,
  amountUSD: optionalDecimal,
  suspectedBaseTokenPrice: optionalDecimal,
  suspectedBaseTokenPriceUSD: optionalDecimal,
  poolAddress: optionalText,
  makerData: MakerDataSchema.nullish().transform((value) => value ?? null),
  nativeBalance: optionalAmount,
});
export type Trade = z.output<typeof TradeSchema>;

/** Token metadata attached to trade responses; its content is not shown by the spec, so every field is optional. */
export const TokenMetadataSchema = z.object({
  address: optionalText,
  name: optionalText,
  symbol: optionalText,
  decimals: optionalInteger,
  logo: optionalText,
});
export type TokenMetadata = z.output<typeof TokenMetadataSchema>;

/** Token metadata, keyed by token address in a map or naming its token in a list; its shape is not shown by the spec. */
const metadataMap = z
  .unknown()
  .optional()
  .transform((value): Reading<Map<string, TokenMetadata>> => {
    const out = new Map<string, TokenMetadata>();
    if (value === null || typeof value !== 'object') return { value: out, dropped: 0, examples: [] };
    if (Array.isArray(value)) {
      const read = readEach(TokenMetadataSchema, value, 'tokensMetadata');
      for (const metadata of read.value) if (metadata.address) out.set(metadata.address, metadata);
      return { value: out, ...droppedOf(read) };
    }
    const read = readEntries(TokenMetadataSchema, value, 'tokensMetadata');
    for (const [address, metadata] of read.value) out.set(address, { ...metadata, address });
    return { value: out, ...droppedOf(read) };
  });

/** §2.7 / §4.6: trades newest first (sorted here whatever order they came in); metadata may be absent. */
export const TradeHistoryReadingSchema = z
  .object({
    tradeHistory: tolerantArray(TradeSchema, 'tradeHistory'),
    tokensMetadata: metadataMap,
  })
  .transform(({ tradeHistory, tokensMetadata }) => ({
    value: {
      tradeHistory: [...tradeHistory.value].sort((a, b) => b.timestamp - a.timestamp),
      tokensMetadata: tokensMetadata.value,
    },
    ...droppedOf(tradeHistory, tokensMetadata),
  }));
export const TradeHistorySchema = TradeHistoryReadingSchema.transform((reading) => reading.value);
export type TradeHistory = z.output<typeof TradeHistorySchema>;

/** §2.8 Candle */
export const CandleSchema = z.object({
  time: optionalText,
  timestamp: integer,
  open: decimal,
  high: decimal,
  low: decimal,
  close: decimal,
  volume: optionalDecimal.transform((value) => value ?? 0),
});
export type Candle = z.output<typeof CandleSchema>;

/** §4.5: `{candles}` or a bare array of candles, sorted oldest first whatever order they came in. */
export const CandlesReadingSchema = z
  .union([
    z.object({ candles: tolerantArray(CandleSchema, 'candles') }).transform(({ candles }) => candles),
    z.array(z.unknown()).transform((candles) => readEach(CandleSchema, candles, 'candles')),
  ])
  .transform(({ value, dropped, examples }) => ({ value: [...value].sort((a, b) => a.timestamp - b.timestamp), dropped, examples }));
export const CandlesSchema = CandlesReadingSchema.transform((reading) => reading.value);

/** The error body of §7: `{error, message}` or `{error}`, or anything else. */
export const ErrorBodySchema = z.object({ error: optionalText, message: optionalText }).partial().catch({});
export type ErrorBody = z.output<typeof ErrorBodySchema>;
