/**
 * Settings, read once from the environment (and an optional `.env` file, loaded by main) through a
 * schema. A wrong value stops start-up with one line that names the variable and what it expects.
 * Every variable is listed, with its default, in `.env.example` and the README.
 */
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import cron from 'node-cron';
import { z } from 'zod';
import { parseDurationMs } from './duration';
import { ENDPOINTS, isEndpointName, type EndpointName } from './market/endpoints';
import type { RateLimit } from './market/limiter';
import { AUTO_SUBSCRIPTIONS_PER_SOCKET, type PackingSetting } from './market/stream/packing';
import type { StreamProtocol } from './market/stream/types';
import { rolesOf, type Role } from './model/roles';
import { WIRE_STYLES, isWireStyle, type WireStyle } from 'tmds-simulator';

export type { RateLimit };

export interface Config {
  /**
   * Null: the embedded simulator is started, and every card and alert says "simulated data". That
   * is the console's quick start (no chat token, no TMDS_BASE_URL) or TMDS_BASE_URL=simulator.
   */
  market: {
    baseUrl: string;
    wsUrl: string;
    apiKey: string;
  } | null;
  simulatorSeed: number;
  /**
   * How the built-in simulator writes tokens: `spec` (default) or `real`, as the live service does
   * (packages/tmds-simulator/src/wireStyle.ts).
   */
  simulatorStyle: WireStyle;
  /** The protocol the built-in simulator's streams speak: the spec's reading (default) or the vendor's (SIMULATOR_PROTOCOL). */
  simulatorProtocol: StreamProtocol;
  /**
   * TMDS_PROTOCOL: the protocol of the service's streams, `auto` (asked of the service at start,
   * src/market/stream/protocolProbe.ts), or pinned to `spec` or `vendor` (docs/streams.md).
   */
  streamProtocol: StreamProtocol | 'auto';
  /** On the vendor's protocol: how often followed tokens' token-data is read (TOKEN_POLL_INTERVAL). */
  tokenPollMs: number;
  /** On the vendor's protocol: how often followed wallets' wallet-tracker is read (WALLET_POLL_INTERVAL). */
  walletPollMs: number;
  tokenBatchSize: number;
  connectTimeoutMs: number;
  timeoutMs: number;
  maxRetries: number;
  rateLimits: Partial<Record<EndpointName, RateLimit>>;
  /** Longest wait a call accepts for a rate limit (the client's own queue, or the service's Retry-After) before failing. */
  rateLimitMaxWaitMs: number;
  cacheTtlMs: Partial<Record<EndpointName, number>>;
  /** One REST call, every attempt and wait between them included. */
  callDeadlineMs: number;
  /** The most bytes an answer may have, per endpoint (the others keep the client's defaults). */
  bodyLimits: Partial<Record<EndpointName, number>>;
  /** Bytes the REST response caches may hold together. */
  cacheMaxBytes: number;
  /** The largest stream frame accepted; a larger one closes the socket (1009). */
  wsMaxFrameBytes: number;
  /** Bytes of events that may wait for a slow consumer, per subscription. */
  wsQueueMaxBytes: number;
  /** Stream subscriptions one socket carries: 'auto' packs while the service takes it (src/market/stream/packing.ts). */
  wsSubscriptionsPerSocket: PackingSetting;
  logLevel: string;
  /** When the alert reconciliation runs: a cron expression in UTC (src/jobs/reconcile.ts). */
  reconcileCron: string;
  /**
   * The SQLite file of follows, last-seen state and the outbox; its folder is created at start.
   * Unset, the built-in simulator's is data/tokenwatch-simulator.db and a service's data/tokenwatch.db.
   */
  databasePath: string;
  /** STORE_MARKET_RESET: a store made on another market is moved to this one instead of refused (src/store/storeMarket.ts). */
  storeMarketReset: boolean;
  /** How long a chat platform that does not answer at start is retried before start-up stops (CHAT_START_TIMEOUT). */
  chatStartTimeoutMs: number;
  /** A PostgreSQL database (`DATABASE_URL`) instead of the SQLite file; null: the file at databasePath. */
  databaseUrl: string | null;
  /** The operators' HTTP server (/healthz, /readyz, /metrics); null: HTTP_PORT unset, no server. */
  http: { host: string; port: number } | null;
  /** How long a stop waits for the sends and answers under way before it closes the rest anyway. */
  shutdownTimeoutMs: number;
  /**
   * The parts this process runs (TOKENWATCH_ROLES); every role by default. `clustered` is true when
   * the roles were named: the process is one of several over PostgreSQL (src/cluster/), and takes
   * its share of the work under leases, even with every role.
   */
  roles: { set: ReadonlySet<Role>; clustered: boolean };
  /** What one chat may take of the budgets every chat shares (docs/pipeline.md, "Fair shares"). */
  shares: ShareSettings;
  /**
   * Calls (docs/calls.md): the milestones told (CALL_MILESTONES) and the peak job's chart-history
   * requests a minute (CALL_PEAK_REQUESTS_PER_MINUTE).
   */
  /** minLiquidityUsd: a token with less liquidity makes no call (CALL_MIN_LIQUIDITY_USD). */
  calls: { milestones: number[]; peakRequestsPerMinute: number; minLiquidityUsd: number };
  /**
   * The environment these settings were read from. Each chat platform reads its own section from
   * it (src/chats/<name>/settings.ts), checked against the settings above, so that a section and the
   * settings it is checked against come from one reading.
   */
  env: SettingsEnv;
}

/** Environment variables, as the settings are read from them. */
export type SettingsEnv = Readonly<Record<string, string | undefined>>;

export interface ShareSettings {
  /** Follows of one chat, every forum topic together (MAX_FOLLOWS_PER_CHAT). */
  followsPerChat: number;
  /** Follows of one Discord server, every channel together (MAX_FOLLOWS_PER_SERVER). */
  followsPerServer: number;
  /**
   * Tokens and wallets one chat or server may have watched live: a count, or a percent of the
   * stream sockets the open-files limit allows (MAX_STREAM_SHARE_PER_CHAT).
   */
  streamSharePerChat: { targets: number } | { percent: number };
  /** /technicals one chat may run a minute, of the bot's token-technicals budget (TECHNICALS_PER_CHAT_PER_MINUTE). */
  technicalsPerChatPerMinute: number;
  /** Button keys kept for one person, and for one chat, the oldest dropped first (ACTION_KEYS_PER_PERSON, ACTION_KEYS_PER_CHAT). */
  actionKeysPerPerson: number;
  actionKeysPerChat: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly expected: string,
  ) {
    super(`Invalid configuration: ${variable} ${expected}`);
    this.name = 'ConfigError';
  }
}

const DURATION_FORM = 'a duration with a unit, ms, s, m or h (e.g. 500ms, 10s, 5m)';

/** Plain decimal digits only: `1e1`, `0x10`, `+5` or `12.0` are refused, not reinterpreted. */
const PLAIN_INTEGER = /^\d+$/;

const SIZE = /^(\d+)(B|KB|MB)$/i;
const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 * 1024 };
const SIZE_FORM = 'a whole number with a unit, B, KB or MB (1 KB = 1024 B; e.g. 512KB, 4MB)';

/** "512KB", "4MB", "2048B": bytes, in units of 1024. */
function parseSizeBytes(text: string): number | null {
  const match = SIZE.exec(text.trim());
  if (!match) return null;
  const bytes = Number(match[1]) * (SIZE_UNITS[(match[2] ?? '').toLowerCase()] ?? Number.NaN);
  return Number.isSafeInteger(bytes) ? bytes : null;
}

function size(variable: string, minBytes: number, maxBytes: number, fallbackBytes: number) {
  return bounded(
    variable,
    parseSizeBytes,
    minBytes,
    maxBytes,
    fallbackBytes,
    `${SIZE_FORM}, from ${minBytes / 1024}KB to ${maxBytes / (1024 * 1024)}MB`,
  );
}

/** A plain non-negative integer, or null. */
export function parsePlainInteger(text: string): number | null {
  const trimmed = text.trim();
  if (!PLAIN_INTEGER.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : null;
}

/** Parses "endpoint=value,endpoint=value" with a reader for each value. */
function parseEndpointMap<T>(
  variable: string,
  text: string,
  expected: string,
  readValue: (value: string) => T | null,
): Partial<Record<EndpointName, T>> {
  const out: Partial<Record<EndpointName, T>> = {};
  for (const part of text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const [name = '', value = ''] = part.split('=').map((item) => item.trim());
    const parsed = readValue(value);
    if (!isEndpointName(name) || parsed === null) {
      // The wrong entry is named (these settings hold no secret) so that it can be found among six.
      throw new ConfigError(
        variable,
        `must be a comma-separated list of endpoint=VALUE with endpoints among ${ENDPOINTS.join(', ')} and each ` +
          `VALUE ${expected}; "${part.slice(0, 60)}" is not`,
      );
    }
    out[name] = parsed;
  }
  return out;
}

function readRateLimit(value: string): RateLimit | null {
  const [count = '', window = ''] = value.split('/');
  const limit = parsePlainInteger(count);
  const windowMs = parseDurationMs(window);
  if (limit === null || limit < 1 || windowMs === null || windowMs < 1) return null;
  return { limit, windowMs };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * An optional setting read by `parse` and kept within [min, max]; blank or absent gives the
 * fallback, anything else out of form or range stops start-up naming what is expected.
 */
function bounded(variable: string, parse: (text: string) => number | null, min: number, max: number, fallback: number, expected: string) {
  return z
    .string()
    .optional()
    .transform((value) => {
      if (value === undefined || value.trim() === '') return fallback;
      const parsed = parse(value);
      if (parsed === null || parsed < min || parsed > max) throw new ConfigError(variable, `must be ${expected}`);
      return parsed;
    });
}

/** A whole number in plain digits within [min, max]; blank or absent: the fallback. For a settings schema. */
export function wholeNumber(variable: string, min: number, max: number, fallback: number) {
  return bounded(variable, parsePlainInteger, min, max, fallback, `a whole number from ${min} to ${max}, written in plain digits`);
}

/** The protocols a service's streams may speak (src/market/stream/types.ts StreamProtocol). */
const STREAM_PROTOCOLS = ['spec', 'vendor'] as const satisfies readonly StreamProtocol[];

/** One word of `words`, in any case; unset or empty: `fallback`. */
function wordOf<const W extends string>(variable: string, words: readonly W[], fallback: W) {
  return z
    .string()
    .optional()
    .transform((value): W => {
      const word = (value ?? '').trim().toLowerCase() || fallback;
      const found = words.find((candidate) => candidate === word);
      if (found === undefined) throw new ConfigError(variable, `must be one of ${words.join(', ')}`);
      return found;
    });
}

function duration(variable: string, minMs: number, maxMs: number, fallbackMs: number) {
  const range = `from ${minMs === 0 ? '0' : `${minMs}ms`} to ${maxMs / 60_000}m`;
  return bounded(variable, parseDurationMs, minMs, maxMs, fallbackMs, `${DURATION_FORM}, ${range}`);
}

/** A URL with one of `protocols` and no credentials, without its trailing slashes. */
function readHttpUrl(variable: string, protocols: string[], value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ConfigError(variable, `must be a URL starting with ${protocols.join(' or ')}`);
  }
  if (!protocols.includes(url.protocol) || url.username || url.password) {
    throw new ConfigError(variable, `must be a URL starting with ${protocols.join(' or ')} and without credentials`);
  }
  return url.toString().replace(/\/+$/, '');
}

/** An optional URL with one of `protocols`, no credentials and no trailing slash; blank or absent: undefined. For a settings schema. */
export function httpUrl(variable: string, protocols: string[]) {
  return z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? undefined : readHttpUrl(variable, protocols, value)));
}

/** The default SQLite files: the built-in simulator's apart from a real service's, so switching never mixes their prices. */
export const DEFAULT_DATABASE_PATH = 'data/tokenwatch.db';
export const DEFAULT_SIMULATOR_DATABASE_PATH = 'data/tokenwatch-simulator.db';

/** The value of TMDS_BASE_URL that asks for the built-in simulator by name. */
export const SIMULATOR_BASE_URL = 'simulator';

/** The service's address, or the word `simulator`; blank or absent is undefined. */
function serviceUrl(variable: string) {
  return z
    .string()
    .optional()
    .transform((value) => {
      if (value === undefined || value.trim() === '') return undefined;
      if (value.trim().toLowerCase() === SIMULATOR_BASE_URL) return SIMULATOR_BASE_URL;
      return readHttpUrl(variable, ['http:', 'https:'], value);
    });
}

/** Packed subscriptions a socket may carry when set by hand: the simulator takes 1,000 a socket. */
const MAX_SUBSCRIPTIONS_PER_SOCKET = 1_000;

const RATE_LIMIT_FORM = 'COUNT/WINDOW, a whole count and a window with a unit, ms, s, m or h (e.g. 100/60s)';
const TTL_FORM = `${DURATION_FORM}, or 0 to disable`;
const DEFAULT_RATE_LIMITS = 'token-technicals=100/60s';
const DEFAULT_CACHE_TTL = 'token-data=10s,token-technicals=60s,holders-history=30s,trades-history=10s,chart-history=15s,wallet-tracker=10s';

const EnvSchema = z.object({
  TMDS_BASE_URL: serviceUrl('TMDS_BASE_URL'),
  TMDS_WS_URL: httpUrl('TMDS_WS_URL', ['ws:', 'wss:']),
  TMDS_API_KEY: z.string().optional(),
  TMDS_TOKEN_BATCH_SIZE: wholeNumber('TMDS_TOKEN_BATCH_SIZE', 1, 100, 30),
  TMDS_CONNECT_TIMEOUT_MS: wholeNumber('TMDS_CONNECT_TIMEOUT_MS', 100, 120_000, 5_000),
  TMDS_TIMEOUT_MS: wholeNumber('TMDS_TIMEOUT_MS', 100, 120_000, 10_000),
  TMDS_MAX_RETRIES: wholeNumber('TMDS_MAX_RETRIES', 0, 10, 3),
  TMDS_RATE_LIMITS: z.string().optional(),
  // 0 refuses every wait; beyond ten minutes nobody in a chat is still waiting for the answer.
  TMDS_RATE_LIMIT_MAX_WAIT: duration('TMDS_RATE_LIMIT_MAX_WAIT', 0, 600_000, 30_000),
  TMDS_CACHE_TTL: z.string().optional(),
  // Bounds that hold against a misbehaving service (README, "When the service misbehaves").
  TMDS_CALL_DEADLINE: duration('TMDS_CALL_DEADLINE', 1_000, 600_000, 30_000),
  TMDS_BODY_LIMITS: z.string().optional(),
  TMDS_CACHE_MAX_SIZE: size('TMDS_CACHE_MAX_SIZE', 64 * 1024, 1024 * 1024 * 1024, 48 * 1024 * 1024),
  TMDS_WS_MAX_FRAME: size('TMDS_WS_MAX_FRAME', 1024, 256 * 1024 * 1024, 1024 * 1024),
  TMDS_WS_QUEUE_MAX_SIZE: size('TMDS_WS_QUEUE_MAX_SIZE', 64 * 1024, 1024 * 1024 * 1024, 4 * 1024 * 1024),
  TMDS_WS_SUBSCRIPTIONS_PER_SOCKET: z
    .string()
    .optional()
    .transform((value): PackingSetting => {
      const text = (value ?? '').trim().toLowerCase();
      if (text === '' || text === 'auto') return 'auto';
      const count = parsePlainInteger(text);
      if (count === null || count < 1 || count > MAX_SUBSCRIPTIONS_PER_SOCKET) {
        throw new ConfigError(
          'TMDS_WS_SUBSCRIPTIONS_PER_SOCKET',
          `must be auto (pack up to ${AUTO_SUBSCRIPTIONS_PER_SOCKET} while the service takes them) or a whole number from 1 ` +
            `to ${MAX_SUBSCRIPTIONS_PER_SOCKET}, written in plain digits`,
        );
      }
      return count;
    }),
  // The simulator's --seed flag takes the same range (packages/tmds-simulator/src/cli/args.ts).
  SIMULATOR_SEED: wholeNumber('SIMULATOR_SEED', 0, 2 ** 32 - 1, 42),
  // The simulator's --style flag takes the same words.
  SIMULATOR_STYLE: z
    .string()
    .optional()
    .transform((value): WireStyle => {
      const style = (value ?? '').trim().toLowerCase() || 'spec';
      if (!isWireStyle(style)) throw new ConfigError('SIMULATOR_STYLE', `must be one of ${WIRE_STYLES.join(', ')}`);
      return style;
    }),
  SIMULATOR_PROTOCOL: wordOf('SIMULATOR_PROTOCOL', STREAM_PROTOCOLS, 'spec'),
  TMDS_PROTOCOL: wordOf('TMDS_PROTOCOL', ['auto', ...STREAM_PROTOCOLS] as const, 'auto'),
  TOKEN_POLL_INTERVAL: duration('TOKEN_POLL_INTERVAL', 1_000, 600_000, 15_000),
  WALLET_POLL_INTERVAL: duration('WALLET_POLL_INTERVAL', 1_000, 600_000, 15_000),
  RECONCILE_CRON: z
    .string()
    .optional()
    .transform((value) => {
      const expression = (value ?? '').trim() || '* * * * *';
      if (!cron.validate(expression)) {
        throw new ConfigError(
          'RECONCILE_CRON',
          'must be a cron expression of 5 fields (or 6, with seconds first), e.g. "* * * * *" for every minute',
        );
      }
      return expression;
    }),
  DATABASE_PATH: z
    .string()
    .optional()
    .transform((value) => {
      const path = (value ?? '').trim();
      // A NUL would cut the path short inside SQLite and open another file than the one named.
      if (path.includes('\u0000')) throw new ConfigError('DATABASE_PATH', 'must be a file path');
      // Unset: a default that depends on the market, chosen once the market is read.
      return path === '' ? undefined : path;
    }),
  STORE_MARKET_RESET: z
    .string()
    .optional()
    .transform((value) => {
      const text = (value ?? '').trim().toLowerCase();
      if (!['', '0', '1', 'true', 'false'].includes(text)) throw new ConfigError('STORE_MARKET_RESET', 'must be 1 or 0');
      return text === '1' || text === 'true';
    }),
  // Long enough for a platform's short outage or a slow network; short enough for a supervisor to see a failed start.
  CHAT_START_TIMEOUT: duration('CHAT_START_TIMEOUT', 100, 600_000, 60_000),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((value) => {
      const url = (value ?? '').trim();
      if (url === '') return null;
      // Never echoed: the address may hold the database's password.
      if (!/^postgres(ql)?:\/\/[^\s]+$/i.test(url) || url.includes('\u0000')) {
        throw new ConfigError(
          'DATABASE_URL',
          'must be a PostgreSQL address, postgres://USER:PASSWORD@HOST:PORT/DATABASE (or postgresql://…)',
        );
      }
      return url;
    }),
  HTTP_PORT: wholeNumber('HTTP_PORT', 1, 65_535, 0),
  HTTP_HOST: z
    .string()
    .optional()
    .transform((value) => {
      const host = (value ?? '').trim() || '127.0.0.1';
      // An address to listen on, not a URL: a scheme, a port or a path here is a mistake to name at start.
      if (isIP(host) === 0 && !HOSTNAME.test(host))
        throw new ConfigError('HTTP_HOST', 'must be an IP address or a host name to listen on (e.g. 127.0.0.1, 0.0.0.0 or ::1)');
      return host;
    }),
  TOKENWATCH_ROLES: z.string().optional(),
  // A stop bounded so that a platform that never answers cannot hold the process past a supervisor's patience.
  SHUTDOWN_TIMEOUT: duration('SHUTDOWN_TIMEOUT', 1_000, 600_000, 10_000),
  MAX_FOLLOWS_PER_CHAT: wholeNumber('MAX_FOLLOWS_PER_CHAT', 1, 100_000, 100),
  MAX_FOLLOWS_PER_SERVER: wholeNumber('MAX_FOLLOWS_PER_SERVER', 1, 1_000_000, 500),
  MAX_STREAM_SHARE_PER_CHAT: z
    .string()
    .optional()
    .transform((value): ShareSettings['streamSharePerChat'] => {
      const text = (value ?? '').trim();
      if (text === '') return { percent: 5 };
      const percent = /^(\d+)%$/.exec(text);
      const count = parsePlainInteger(percent === null ? text : (percent[1] ?? ''));
      if (count !== null && percent !== null && count >= 1 && count <= 100) return { percent: count };
      if (count !== null && percent === null && count >= 1 && count <= 10_000_000) return { targets: count };
      throw new ConfigError(
        'MAX_STREAM_SHARE_PER_CHAT',
        'must be a number of tokens and wallets (e.g. 400) or a percent of the stream sockets the open-files limit allows, from ' +
          '1% to 100% (e.g. 5%)',
      );
    }),
  TECHNICALS_PER_CHAT_PER_MINUTE: wholeNumber('TECHNICALS_PER_CHAT_PER_MINUTE', 1, 100_000, 20),
  ACTION_KEYS_PER_PERSON: wholeNumber('ACTION_KEYS_PER_PERSON', 10, 1_000_000, 1_000),
  ACTION_KEYS_PER_CHAT: wholeNumber('ACTION_KEYS_PER_CHAT', 10, 10_000_000, 5_000),
  CALL_MILESTONES: z
    .string()
    .optional()
    .transform((value): number[] => {
      const text = (value ?? '').trim();
      if (text === '') return [2, 5, 10, 25, 50, 100];
      const multiples = text.split(',').map((part) => Number(part.trim()));
      const ascending = multiples.every(
        (multiple, index) =>
          Number.isFinite(multiple) && multiple > 1 && multiple <= 1_000_000 && (index === 0 || multiple > (multiples[index - 1] ?? 0)),
      );
      if (!ascending || multiples.length > 20)
        throw new ConfigError(
          'CALL_MILESTONES',
          'must be up to 20 multiples above 1, ascending and comma-separated (e.g. 2,5,10,25,50,100)',
        );
      return multiples;
    }),
  CALL_PEAK_REQUESTS_PER_MINUTE: wholeNumber('CALL_PEAK_REQUESTS_PER_MINUTE', 3, 10_000, 30),
  CALL_MIN_LIQUIDITY_USD: wholeNumber('CALL_MIN_LIQUIDITY_USD', 0, 1_000_000_000, 5_000),
  LOG_LEVEL: z
    .string()
    .optional()
    .transform((value) => {
      const level = (value ?? '').trim().toLowerCase() || 'info';
      if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
      return level;
    }),
});

/** The built-in chat platforms' names, the roles TOKENWATCH_ROLES may name when the caller does not hand the registry's. */
export const BUILT_IN_PLATFORMS = ['discord', 'telegram'] as const;

export interface LoadOptions {
  /**
   * Every chat platform's name, as the registry lists them (src/chats/platforms.ts,
   * `chatPlatformNames()`): the roles TOKENWATCH_ROLES may name. Default: the built-in platforms.
   */
  platforms?: readonly string[];
  /**
   * The variables that switch a chat platform on, as the registry lists them (src/chats/platforms.ts,
   * `chatPlatformTokens()`): with one of them set, a chat would show the market's prices, so
   * TMDS_BASE_URL is required. Default: none. Each platform's own section is read apart, from
   * `Config.env` (src/chats/<name>/settings.ts; `loadSettings` of src/chats/platforms.ts reads them all).
   */
  chatTokens?: readonly string[];
}

/**
 * Reads the general settings from an environment; throws ConfigError naming the first wrong variable.
 * The chat platforms' sections are read from the same environment by the platforms themselves.
 */
export function loadConfig(env: SettingsEnv = process.env, options: LoadOptions = {}): Config {
  const parsed = EnvSchema.parse(env);
  // Two stores named at once: which one the operator meant cannot be guessed, and the other would be silently ignored.
  if (parsed.DATABASE_URL !== null && (env.DATABASE_PATH ?? '').trim() !== '') {
    throw new ConfigError(
      'DATABASE_URL',
      'and DATABASE_PATH are both set: DATABASE_URL selects PostgreSQL, DATABASE_PATH the SQLite file; set only one',
    );
  }
  const roleNames = rolesOf(options.platforms ?? BUILT_IN_PLATFORMS);
  const roles = readRoles(parsed.TOKENWATCH_ROLES ?? '', roleNames, parsed.DATABASE_URL !== null);
  const market = readMarket(parsed, chatTokensSet(env, options.chatTokens ?? []));
  return {
    market,
    simulatorSeed: parsed.SIMULATOR_SEED,
    simulatorStyle: parsed.SIMULATOR_STYLE,
    simulatorProtocol: parsed.SIMULATOR_PROTOCOL,
    streamProtocol: parsed.TMDS_PROTOCOL,
    tokenPollMs: parsed.TOKEN_POLL_INTERVAL,
    walletPollMs: parsed.WALLET_POLL_INTERVAL,
    tokenBatchSize: parsed.TMDS_TOKEN_BATCH_SIZE,
    connectTimeoutMs: parsed.TMDS_CONNECT_TIMEOUT_MS,
    timeoutMs: parsed.TMDS_TIMEOUT_MS,
    maxRetries: parsed.TMDS_MAX_RETRIES,
    // A setting names only the endpoints it changes; the others keep their defaults.
    rateLimits: {
      ...parseEndpointMap('TMDS_RATE_LIMITS', DEFAULT_RATE_LIMITS, RATE_LIMIT_FORM, readRateLimit),
      ...parseEndpointMap('TMDS_RATE_LIMITS', parsed.TMDS_RATE_LIMITS ?? '', RATE_LIMIT_FORM, readRateLimit),
    },
    rateLimitMaxWaitMs: parsed.TMDS_RATE_LIMIT_MAX_WAIT,
    cacheTtlMs: {
      ...parseEndpointMap('TMDS_CACHE_TTL', DEFAULT_CACHE_TTL, TTL_FORM, parseDurationMs),
      ...parseEndpointMap('TMDS_CACHE_TTL', parsed.TMDS_CACHE_TTL ?? '', TTL_FORM, parseDurationMs),
    },
    callDeadlineMs: parsed.TMDS_CALL_DEADLINE,
    bodyLimits: parseEndpointMap('TMDS_BODY_LIMITS', parsed.TMDS_BODY_LIMITS ?? '', `${SIZE_FORM}, from 1KB to 256MB`, (value) => {
      const bytes = parseSizeBytes(value);
      return bytes !== null && bytes >= 1024 && bytes <= 256 * 1024 * 1024 ? bytes : null;
    }),
    cacheMaxBytes: parsed.TMDS_CACHE_MAX_SIZE,
    wsMaxFrameBytes: parsed.TMDS_WS_MAX_FRAME,
    wsQueueMaxBytes: parsed.TMDS_WS_QUEUE_MAX_SIZE,
    wsSubscriptionsPerSocket: parsed.TMDS_WS_SUBSCRIPTIONS_PER_SOCKET,
    logLevel: parsed.LOG_LEVEL,
    reconcileCron: parsed.RECONCILE_CRON,
    // The built-in simulator's store apart from a service's: its prices would read as a real market's moves (src/store/storeMarket.ts).
    databasePath: parsed.DATABASE_PATH ?? (market === null ? DEFAULT_SIMULATOR_DATABASE_PATH : DEFAULT_DATABASE_PATH),
    storeMarketReset: parsed.STORE_MARKET_RESET,
    chatStartTimeoutMs: parsed.CHAT_START_TIMEOUT,
    databaseUrl: parsed.DATABASE_URL,
    http: readHttp(parsed),
    shutdownTimeoutMs: parsed.SHUTDOWN_TIMEOUT,
    roles,
    shares: {
      followsPerChat: parsed.MAX_FOLLOWS_PER_CHAT,
      followsPerServer: parsed.MAX_FOLLOWS_PER_SERVER,
      streamSharePerChat: parsed.MAX_STREAM_SHARE_PER_CHAT,
      technicalsPerChatPerMinute: parsed.TECHNICALS_PER_CHAT_PER_MINUTE,
      actionKeysPerPerson: parsed.ACTION_KEYS_PER_PERSON,
      actionKeysPerChat: parsed.ACTION_KEYS_PER_CHAT,
    },
    calls: {
      milestones: parsed.CALL_MILESTONES,
      peakRequestsPerMinute: parsed.CALL_PEAK_REQUESTS_PER_MINUTE,
      minLiquidityUsd: parsed.CALL_MIN_LIQUIDITY_USD,
    },
    env,
  };
}

/** Whether one of the switch variables `tokens` is set, and their names for the line that asks for TMDS_BASE_URL. */
function chatTokensSet(env: SettingsEnv, tokens: readonly string[]): { set: boolean; names: readonly string[] } {
  return { set: tokens.some((token) => (env[token]?.trim() ?? '') !== ''), names: tokens };
}

/** "A", "A or B", "A, B or C". */
function oneOf(names: readonly string[]): string {
  return names.length <= 2 ? names.join(' or ') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/**
 * TOKENWATCH_ROLES: a comma-separated list of `names` (each chat platform's, then watcher and
 * sender: discord, telegram, watcher and sender by default); unset, every role in one process.
 * Named roles make the process one of several sharing PostgreSQL, so they need DATABASE_URL (a
 * SQLite file belongs to one process). What a platform needs of a process of several (a webhook's
 * one secret) its own section checks against these roles.
 */
function readRoles(text: string, names: readonly Role[], postgres: boolean): Config['roles'] {
  const trimmed = text.trim().toLowerCase();
  const every: ReadonlySet<Role> = new Set(names);
  if (trimmed === '') return { set: every, clustered: false };
  const set = new Set<Role>();
  for (const part of trimmed.split(',').map((item) => item.trim())) {
    if (!every.has(part))
      throw new ConfigError('TOKENWATCH_ROLES', `must be a comma-separated list of ${names.join(', ')} (got "${part.slice(0, 40)}")`);
    set.add(part);
  }
  if (!postgres) {
    // Every role named is the default spelled out: one process, as with the variable unset.
    if (set.size === every.size) return { set: every, clustered: false };
    throw new ConfigError(
      'TOKENWATCH_ROLES',
      'needs DATABASE_URL: with the SQLite file one process runs every role, so leave TOKENWATCH_ROLES unset (several processes ' +
        'share one PostgreSQL)',
    );
  }
  return { set, clustered: true };
}

/** Letters, digits, dots and hyphens: a host name such as `localhost`. */
const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/**
 * The operators' HTTP server, off unless HTTP_PORT is set. A platform's section that listens on a
 * port of its own checks it against this one.
 */
function readHttp(parsed: z.output<typeof EnvSchema>): Config['http'] {
  if (parsed.HTTP_PORT === 0) return null;
  return { host: parsed.HTTP_HOST, port: parsed.HTTP_PORT };
}

/**
 * Where market data comes from. With no TMDS_BASE_URL the console runs on the simulator, as the
 * quick start; a real chat never does unless asked by name, since invented prices in a server or a
 * group would read as real ones.
 */
function readMarket(parsed: z.output<typeof EnvSchema>, chatTokens: { set: boolean; names: readonly string[] }): Config['market'] {
  const baseUrl = parsed.TMDS_BASE_URL;
  if (baseUrl === SIMULATOR_BASE_URL) {
    if (parsed.TMDS_WS_URL !== undefined) throw new ConfigError('TMDS_WS_URL', `must be unset with TMDS_BASE_URL=${SIMULATOR_BASE_URL}`);
    return null;
  }
  if (baseUrl === undefined) {
    if (parsed.TMDS_WS_URL !== undefined) throw new ConfigError('TMDS_BASE_URL', 'is required when TMDS_WS_URL is set');
    if (chatTokens.set) {
      throw new ConfigError(
        'TMDS_BASE_URL',
        `is required with ${oneOf(chatTokens.names)}: set it to the service's address (with TMDS_API_KEY), or ` +
          `TMDS_BASE_URL=${SIMULATOR_BASE_URL} to run the chats on simulated data on purpose`,
      );
    }
    return null;
  }
  const apiKey = parsed.TMDS_API_KEY?.trim() ?? '';
  if (apiKey === '') throw new ConfigError('TMDS_API_KEY', 'is required when TMDS_BASE_URL is set');
  return { baseUrl, wsUrl: parsed.TMDS_WS_URL ?? baseUrl.replace(/^http/, 'ws'), apiKey };
}

/** Loads `.env` from the working directory into process.env when the file exists; real environment variables win. */
export function loadDotEnv(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}
