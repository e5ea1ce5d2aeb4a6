/**
 * Scenario controls: make the simulated market do on demand what a real one does by surprise
 * (a risk flag flips, liquidity is pulled, the price jumps, a whale buys, a holder takes a share,
 * every socket drops, the REST service starts failing). One implementation serves both callers:
 * tests call `controls.risk(...)` in-process, scripts POST the same bodies to `/_control/risk`
 * when the simulator runs with `--control`. Every change goes through the market, so REST answers
 * and live streams show it alike.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { keyMatches } from './auth';
import { parseFaultConfig, type FaultConfig, type FaultInjector } from './faults';
import { LAUNCH_ORIGINS } from './launches';
import { MarketMutationError, type Market } from './market';
import { isWireAddress } from './params';
import type { SimulatorProtocol } from './protocol';
import type { RiskStatus, WireHolder, WireRiskAnalysis, WireToken, WireTrade } from './wireTypes';
import { LAMPORTS_PER_SOL, plainDecimal } from './units';

export const CONTROL_NAMES = [
  'risk',
  'liquidity',
  'price',
  'trade',
  'holder',
  'graduate',
  'developer',
  'insiders',
  'launch',
  'drop',
  'faults',
] as const;
export type ControlName = (typeof CONTROL_NAMES)[number];

/** The controls a protocol serves: `launch` belongs to the vendor protocol, whose token-feed lists new tokens. */
export function controlNames(protocol: SimulatorProtocol): readonly ControlName[] {
  return protocol === 'vendor' ? CONTROL_NAMES : CONTROL_NAMES.filter((name) => name !== 'launch');
}

/** Largest control request body; the largest real one (a fault configuration) is far smaller. */
export const MAX_CONTROL_BODY_BYTES = 64 * 1024;

/** A control that cannot run: `status` and `{error, message}` are its HTTP answer. */
export class ControlError extends Error {
  readonly status: number;
  readonly title: string;

  constructor(status: number, title: string, message: string) {
    super(message);
    this.name = 'ControlError';
    this.status = status;
    this.title = title;
  }
}

const Address = z.string().refine(isWireAddress, { error: 'must be an address (base58, 32–44 characters, or 0x + 40 hex digits)' });
/** Authorities are written by whoever deployed the token: some short text, not only an address. */
const Authority = z.string().min(1).max(100);

export const RiskBodySchema = z
  .strictObject({
    tokenAddress: Address,
    /** null returns to the status derived from the token's data. */
    riskStatus: z.enum(['SAFE', 'WARNING', 'DANGER']).nullable().optional(),
    riskAnalysis: z
      .strictObject({
        isMutable: z.boolean().optional(),
        mintAuthority: Authority.nullable().optional(),
        freezeAuthority: Authority.nullable().optional(),
        updateAuthority: Authority.optional(),
      })
      .optional(),
  })
  .refine((body) => body.riskStatus !== undefined || body.riskAnalysis !== undefined, { error: 'give riskStatus, riskAnalysis or both' });

export const LiquidityBodySchema = z
  .strictObject({
    tokenAddress: Address,
    /** Absent: every pool of the token. */
    poolAddress: Address.optional(),
    pull: z.literal(true).optional(),
    /** Multiplies the reserves at an unchanged price. */
    factor: z.number().min(0).max(1_000).optional(),
  })
  .refine((body) => (body.pull === true) !== (body.factor !== undefined), { error: 'give either pull: true or factor' });

export const PriceBodySchema = z.strictObject({
  tokenAddress: Address,
  changePct: z
    .number()
    .gt(-100)
    .max(10_000)
    .refine((value) => value !== 0, { error: 'must not be 0' }),
  /** The trading wallet; default a whale for a rise, the largest holder for a fall. */
  wallet: Address.optional(),
});

export const TradeBodySchema = z.strictObject({
  wallet: Address,
  tokenAddress: Address,
  side: z.enum(['buy', 'sell']),
  amountUSD: z.number().positive().max(1_000_000_000),
});

export const HolderBodySchema = z.strictObject({
  tokenAddress: Address,
  wallet: Address,
  supplyPct: z.number().min(0).max(100),
});

/** A pool on another protocol opens: the token graduates from its launch protocol. */
export const GraduateBodySchema = z.strictObject({
  tokenAddress: Address,
  /** Default: a protocol none of the token's pools is on. */
  protocol: z.string().min(1).max(40).optional(),
  liquiditySol: z.number().positive().max(1_000_000).optional(),
});

/** The deployer sells a share of what it holds now. */
export const DeveloperBodySchema = z.strictObject({
  tokenAddress: Address,
  sellPct: z.number().gt(0).max(100),
});

/** The token's tagged holders (snipers, bots, insiders; at most `wallets`, largest first) each sell a share of what they hold. */
export const InsidersBodySchema = z.strictObject({
  tokenAddress: Address,
  sellPct: z.number().gt(0).max(100),
  wallets: z.number().int().positive().max(1_000).optional(),
});

/** A new token launches now (vendor protocol); its launchpad drawn from the seed unless given. */
export const LaunchBodySchema = z.strictObject({
  origin: z.enum(LAUNCH_ORIGINS).optional(),
});

export const DropBodySchema = z.strictObject({});

export type RiskControl = z.input<typeof RiskBodySchema>;
export type LiquidityControl = z.input<typeof LiquidityBodySchema>;
export type PriceControl = z.input<typeof PriceBodySchema>;
export type TradeControl = z.input<typeof TradeBodySchema>;
export type HolderControl = z.input<typeof HolderBodySchema>;
export type GraduateControl = z.input<typeof GraduateBodySchema>;
export type DeveloperControl = z.input<typeof DeveloperBodySchema>;
export type InsidersControl = z.input<typeof InsidersBodySchema>;
export type LaunchControl = z.input<typeof LaunchBodySchema>;

/** The token's state after a control, small enough to read in a terminal. */
export interface TokenSummary {
  address: string;
  symbol: string;
  riskStatus: RiskStatus;
  riskAnalysis: WireRiskAnalysis;
  holdersCount: string;
  top10HoldersSupply: string | null;
  /** SOL per whole token in the deepest pool (decimal text; "0" without liquidity). */
  priceSol: string;
  /** SOL across every pool (decimal text). */
  liquiditySol: string;
  pools: Array<{
    poolAddress: string;
    protocol: string;
    suspectedBaseTokenPrice: string;
    suspectedBaseTokenReserves: string;
    suspectedQuoteTokenReserves: string;
  }>;
}

export interface Controls {
  risk(input: RiskControl): { token: TokenSummary };
  liquidity(input: LiquidityControl): { token: TokenSummary };
  price(input: PriceControl): { trade: WireTrade; token: TokenSummary };
  trade(input: TradeControl): { trade: WireTrade; token: TokenSummary };
  holder(input: HolderControl): { holder: WireHolder; token: TokenSummary };
  graduate(input: GraduateControl): { token: TokenSummary };
  developer(input: DeveloperControl): { trade: WireTrade; token: TokenSummary };
  insiders(input: InsidersControl): { trades: WireTrade[]; token: TokenSummary };
  /** Vendor protocol only (409 in the spec protocol): a new token launches, and token-feed lists it. */
  launch(input?: LaunchControl): { token: TokenSummary };
  drop(input?: Record<string, never>): { dropped: number };
  faults(input: FaultConfig): { faults: FaultConfig };
}

export interface ControlTargets {
  market: Market;
  faults: FaultInjector;
  /** Cuts every WebSocket; returns how many. */
  dropSockets(): number;
}

export function summarize(token: WireToken): TokenSummary {
  const pools = Object.values(token.liquidityPools);
  let deepest: (typeof pools)[number] | undefined;
  let lamports = 0;
  for (const pool of pools) {
    const quote = Number(pool.suspectedQuoteTokenReserves);
    lamports += quote;
    if (!deepest || quote > Number(deepest.suspectedQuoteTokenReserves)) deepest = pool;
  }
  return {
    address: token.address,
    symbol: token.symbol,
    riskStatus: token.riskStatus,
    riskAnalysis: token.riskAnalysis,
    holdersCount: token.holdersCount,
    top10HoldersSupply: token.top10HoldersSupply,
    priceSol: deepest?.suspectedBaseTokenPrice ?? '0',
    liquiditySol: plainDecimal(lamports / LAMPORTS_PER_SOL),
    pools: pools.map((pool) => ({
      poolAddress: pool.poolAddress,
      protocol: pool.protocol,
      suspectedBaseTokenPrice: pool.suspectedBaseTokenPrice,
      suspectedBaseTokenReserves: pool.suspectedBaseTokenReserves,
      suspectedQuoteTokenReserves: pool.suspectedQuoteTokenReserves,
    })),
  };
}

function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; ');
  throw new ControlError(400, 'Bad Request', detail);
}

/** A market refusal as the control's answer: the caller named something absent (404) or asked the impossible (409). */
function fromMarket<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof MarketMutationError)) throw error;
    switch (error.code) {
      case 'unknown-token':
        throw new ControlError(404, 'Not Found', 'Token not found');
      case 'unknown-pool':
        throw new ControlError(404, 'Not Found', 'Pool not found for this token');
      case 'invalid-input':
        throw new ControlError(400, 'Bad Request', error.message);
      case 'nothing-to-sell':
      case 'not-fillable':
        throw new ControlError(409, 'Conflict', error.message);
    }
  }
}

export function createControls(targets: ControlTargets): Controls {
  const { market } = targets;
  const tokenOf = (address: string): TokenSummary => {
    const token = market.token(address);
    if (!token) throw new ControlError(404, 'Not Found', 'Token not found');
    return summarize(token);
  };
  const requireToken = (address: string): void => {
    if (!market.hasToken(address)) throw new ControlError(404, 'Not Found', 'Token not found');
  };

  return {
    risk(input) {
      const body = parse(RiskBodySchema, input);
      requireToken(body.tokenAddress);
      fromMarket(() =>
        market.setRisk(body.tokenAddress, {
          ...(body.riskStatus !== undefined ? { riskStatus: body.riskStatus } : {}),
          ...(body.riskAnalysis ? { riskAnalysis: body.riskAnalysis } : {}),
        }),
      );
      return { token: tokenOf(body.tokenAddress) };
    },

    liquidity(input) {
      const body = parse(LiquidityBodySchema, input);
      requireToken(body.tokenAddress);
      const factor = body.pull ? 0 : (body.factor ?? 1);
      const pools =
        body.poolAddress !== undefined ? [body.poolAddress] : Object.keys(market.token(body.tokenAddress)?.liquidityPools ?? {});
      for (const poolAddress of pools) fromMarket(() => market.changeLiquidity(body.tokenAddress, { poolAddress, factor }));
      return { token: tokenOf(body.tokenAddress) };
    },

    price(input) {
      const body = parse(PriceBodySchema, input);
      requireToken(body.tokenAddress);
      const trade = fromMarket(() => market.movePrice(body.tokenAddress, body.changePct, body.wallet));
      return { trade, token: tokenOf(body.tokenAddress) };
    },

    trade(input) {
      const body = parse(TradeBodySchema, input);
      requireToken(body.tokenAddress);
      const trade = fromMarket(() => market.executeTrade(body));
      return { trade, token: tokenOf(body.tokenAddress) };
    },

    holder(input) {
      const body = parse(HolderBodySchema, input);
      requireToken(body.tokenAddress);
      const holder = fromMarket(() => market.setHolderShare(body.tokenAddress, body.wallet, body.supplyPct));
      return { holder, token: tokenOf(body.tokenAddress) };
    },

    graduate(input) {
      const body = parse(GraduateBodySchema, input);
      requireToken(body.tokenAddress);
      fromMarket(() => market.graduate(body.tokenAddress, body.protocol, body.liquiditySol));
      return { token: tokenOf(body.tokenAddress) };
    },

    developer(input) {
      const body = parse(DeveloperBodySchema, input);
      requireToken(body.tokenAddress);
      const trade = fromMarket(() => market.developerSells(body.tokenAddress, body.sellPct));
      return { trade, token: tokenOf(body.tokenAddress) };
    },

    insiders(input) {
      const body = parse(InsidersBodySchema, input);
      requireToken(body.tokenAddress);
      const trades = fromMarket(() => market.insidersSell(body.tokenAddress, body.sellPct, body.wallets));
      return { trades, token: tokenOf(body.tokenAddress) };
    },

    launch(input = {}) {
      const body = parse(LaunchBodySchema, input);
      if (market.protocol !== 'vendor') {
        throw new ControlError(409, 'Conflict', 'New tokens launch in the vendor protocol only (--protocol vendor)');
      }
      const address = fromMarket(() => market.launchToken(body.origin));
      return { token: tokenOf(address) };
    },

    drop(input = {}) {
      parse(DropBodySchema, input);
      return { dropped: targets.dropSockets() };
    },

    faults(input) {
      let config: FaultConfig;
      try {
        config = parseFaultConfig(input);
      } catch (error) {
        throw new ControlError(400, 'Bad Request', error instanceof Error ? error.message : 'invalid fault configuration');
      }
      targets.faults.set(config);
      return { faults: targets.faults.current() };
    },
  };
}

function isControlName(value: string): value is ControlName {
  return (CONTROL_NAMES as readonly string[]).includes(value);
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The body as text, or null when it is larger than the limit (the rest is not read). */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_CONTROL_BODY_BYTES) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * `POST /_control/<name>` with a JSON body and the API key in x-api-key. Only reached when the
 * simulator runs with controls on; without them the server answers 404 before calling this.
 */
export async function serveControl(
  controls: Controls,
  apiKey: string,
  name: string,
  req: IncomingMessage,
  res: ServerResponse,
  names: readonly ControlName[] = CONTROL_NAMES,
): Promise<void> {
  if (req.method !== 'POST') {
    reply(res, 405, { error: 'Method Not Allowed', message: 'Controls take POST with a JSON body' }, { Allow: 'POST' });
    return;
  }
  if (!keyMatches(req.headers['x-api-key'], apiKey)) {
    reply(res, 401, { error: 'Unauthorized', message: 'A valid API key is required in the x-api-key header' });
    return;
  }
  if (!isControlName(name) || !names.includes(name)) {
    reply(res, 404, { error: 'Not Found', message: `No control named "${name.slice(0, 40)}"; controls: ${names.join(', ')}` });
    return;
  }
  const text = await readBody(req);
  if (text === null) {
    const message = `A control body is at most ${MAX_CONTROL_BODY_BYTES} bytes`;
    reply(res, 413, { error: 'Payload Too Large', message }, { Connection: 'close' });
    return;
  }
  let body: unknown = {};
  if (text.trim().length > 0) {
    try {
      body = JSON.parse(text);
    } catch {
      reply(res, 400, { error: 'Bad Request', message: 'The body is not JSON' });
      return;
    }
  }
  try {
    // The HTTP answer is exactly what the in-process call returns; each control checks its own body.
    const result = (controls[name] as (input: unknown) => unknown)(body);
    reply(res, 200, result);
  } catch (error) {
    if (error instanceof ControlError) {
      reply(res, error.status, { error: error.title, message: error.message });
      return;
    }
    reply(res, 500, { error: 'Internal Server Error', message: 'Internal server error' });
  }
}
