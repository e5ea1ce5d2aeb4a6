/**
 * The typed client of the Token Market Data Service's six REST endpoints (spec §4.1–4.6).
 *
 * Every call goes: input checks → response cache and coalescing → (token look-ups: the batcher)
 * → retries within the call's deadline → the endpoint's limiter → one HTTP request with its own
 * deadline and byte cap → status mapping → schema. Each stage lives in its own file; this one
 * wires them, reads the waits the service asks for, and keeps the counters.
 *
 * What it promises against a service that misbehaves (docs/market-client.md, "A misbehaving
 * service"): no wait the service asks for holds an endpoint longer than maxRateLimitWaitMs, and
 * only that endpoint; no attempt outlives its deadline and no call its overall deadline; no answer
 * is read past its endpoint's byte cap; the cache holds a bounded number of bytes.
 */
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { z } from 'zod';
import { registerSecret, silentLogger, type Logger } from '../log';
import { statusLabel } from '../model/statusLabel';
import { addressKind } from './address';
import { ResponseCache, type CacheSource } from './cache';
import { systemClock, type Clock } from './clock';
import { ENDPOINTS, type EndpointName } from './endpoints';
import { MarketError, isMarketError } from './errors';
import { HttpTransport, errorForResponse, readJson, readRateLimit, serviceWaitMs, type HttpResponse, type Query } from './http';
import { Limiter, type RateLimit } from './limiter';
import { withRetries, type RetryHooks, type RetryPolicy } from './retry';
import {
  type Candle,
  CandlesReadingSchema,
  type Holder,
  HoldersReadingSchema,
  type Technicals,
  TechnicalsEnvelopeReadingSchema,
  type Token,
  TokenEnvelopeReadingSchema,
  type TradeHistory,
  TradeHistoryReadingSchema,
} from './schemas';
import type { Reading } from './wire';
import { readCandlesFast } from './readCandles';
import { parseToken, readTokenEnvelopeFast } from './readToken';
import { TokenBatcher, normalizeAddress } from './tokenBatcher';

export interface MarketClientOptions {
  baseUrl: string;
  apiKey: string;
  logger?: Logger;
  connectTimeoutMs?: number;
  /** undici's own guards; the attempt's deadline below bounds headers and body together. */
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  /** One attempt, headers and body together; defaults to headersTimeoutMs, else 10 s. */
  attemptTimeoutMs?: number;
  /** One call, every attempt and wait between them included. */
  callDeadlineMs?: number;
  /** The most bytes an answer of each endpoint may have (see MARKET_CLIENT_DEFAULTS.maxBodyBytes). */
  maxBodyBytes?: Partial<Record<EndpointName, number>>;
  maxRetries?: number;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Longest wait accepted for a rate limit (the client's own queue or the service's Retry-After) before failing as rate-limited. */
  maxRateLimitWaitMs?: number;
  limits?: Partial<Record<EndpointName, RateLimit>>;
  cacheTtlMs?: Partial<Record<EndpointName, number>>;
  /** Entries kept per endpoint's cache. */
  cacheMaxEntries?: number;
  /** Bytes (estimated) the six caches may hold together, shared evenly among them. */
  cacheMaxBytes?: number;
  /** Time, timers and random draws (./clock.ts); the system's by default. */
  clock?: Clock;
  tokenBatchSize?: number;
  connections?: number;
  /** Called after each HTTP attempt, answered or not, with how long it took: the operators' request-time histogram. */
  onAttempt?: (endpoint: EndpointName, seconds: number) => void;
}

export interface ChartOptions {
  from?: number;
  to?: number;
  intervalSecs?: number;
  countBack?: number;
}

export interface EndpointStats {
  /** HTTP requests sent, retries included. */
  requests: number;
  /** Calls answered from the cache. */
  cacheHits: number;
  /** Calls that shared another call's request: identical concurrent calls, and token look-ups merged into one batch. */
  coalesced: number;
  /** Attempts repeated after a retryable failure. */
  retries: number;
  /** Upstream calls that ended in an error after their retries, or were refused by the client's own limiter. */
  failures: number;
  /** 429 answers received from the service. */
  rateLimited: number;
  /**
   * HTTP attempts by what answered them: a status the spec names (`200`, `404`, `429`…), another
   * one by its class (`3xx`, `4xx`, `5xx`), or `error` when no answer came (timeout, network, too large).
   */
  answers: Record<string, number>;
  /** Elements left out of good answers because they were unreadable (trades, holders, candles, initial buyers…). */
  dropped: number;
  /** Bytes (estimated) the endpoint's cache holds now. */
  cachedBytes: number;
}

/** An endpoint's counters before its first request. */
export function emptyEndpointStats(): EndpointStats {
  return { requests: 0, cacheHits: 0, coalesced: 0, retries: 0, failures: 0, rateLimited: 0, answers: {}, dropped: 0, cachedBytes: 0 };
}

/** An answer with how many elements of it were left out as unreadable (holders, trades, candles…). */
export interface Answer<T> {
  value: T;
  /** Elements the service sent that could not be read, and so are not in `value`. */
  unreadable: number;
}

const MIB = 1024 * 1024;

export const MARKET_CLIENT_DEFAULTS = {
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  attemptTimeoutMs: 10_000,
  callDeadlineMs: 30_000,
  /**
   * Sized to what the spec's answers can hold with room to spare (docs/market-client.md): a batch
   * of 30 tokens with their pools (~100 KB), some 8,000 holders or trades, 25,000 candles (most of
   * a year of 15-minute candles).
   * Parsing JSON takes up to ~10 times its bytes of heap, so these bound the memory of a call.
   */
  maxBodyBytes: {
    'token-data': 2 * MIB,
    'token-technicals': 1 * MIB,
    'holders-history': 2 * MIB,
    'trades-history': 2 * MIB,
    'chart-history': 4 * MIB,
    'wallet-tracker': 2 * MIB,
  } as Record<EndpointName, number>,
  cacheMaxBytes: 48 * MIB,
  maxRetries: 3,
  retryBaseDelayMs: 250,
  retryMaxDelayMs: 8_000,
  maxRateLimitWaitMs: 30_000,
  /** §8: 100 requests per minute per key on token-technicals; the spec names no other limit. */
  limits: { 'token-technicals': { limit: 100, windowMs: 60_000 } } as Partial<Record<EndpointName, RateLimit>>,
  cacheTtlMs: {
    'token-data': 10_000,
    'token-technicals': 60_000,
    'holders-history': 30_000,
    'trades-history': 10_000,
    'chart-history': 15_000,
    'wallet-tracker': 10_000,
  } as Record<EndpointName, number>,
  cacheMaxEntries: 1_000,
  tokenBatchSize: 30,
  connections: 16,
} as const;

/** The most addresses one token-data request takes (spec §4.1). */
export const TOKEN_DATA_MAX_ADDRESSES = 100;

/** Added to a Retry-After before retrying, so the retry lands after the service's window turned. */
const RETRY_AFTER_MARGIN_MS = 100;

const CHART_OPTIONS = ['from', 'to', 'intervalSecs', 'countBack'] as const;

export class MarketClient {
  private readonly http: HttpTransport;
  private readonly logger: Logger;
  private readonly retryPolicy: RetryPolicy;
  private readonly limiters: Record<EndpointName, Limiter>;
  private readonly counters: Record<EndpointName, EndpointStats>;
  private readonly onAttempt: ((endpoint: EndpointName, seconds: number) => void) | null;
  /** What each endpoint's retries report to, made once rather than per call. */
  private readonly retryHooks: Record<EndpointName, RetryHooks>;
  private readonly abort = new AbortController();
  private readonly batcher: TokenBatcher;
  private readonly tokenCache: ResponseCache<Token>;
  private readonly technicalsCache: ResponseCache<Answer<Technicals>>;
  private readonly holdersCache: ResponseCache<Answer<Holder[]>>;
  private readonly tradesCache: ResponseCache<Answer<TradeHistory>>;
  private readonly chartCache: ResponseCache<Answer<Candle[]>>;
  private readonly walletCache: ResponseCache<Answer<TradeHistory>>;
  private readonly clock: Clock;
  private readonly maxRateLimitWaitMs: number;
  private readonly attemptTimeoutMs: number;
  private readonly maxBodyBytes: Record<EndpointName, number>;
  private closed = false;

  constructor(options: MarketClientOptions) {
    const defaults = MARKET_CLIENT_DEFAULTS;
    registerSecret(options.apiKey);
    // Every retry waiting out its delay listens on the one close signal.
    setMaxListeners(0, this.abort.signal);
    this.logger = (options.logger ?? silentLogger).child({ component: 'market-client' });
    this.clock = options.clock ?? systemClock;
    this.attemptTimeoutMs = positiveInteger(
      'attemptTimeoutMs',
      options.attemptTimeoutMs ?? options.headersTimeoutMs ?? defaults.attemptTimeoutMs,
    );
    this.maxBodyBytes = { ...defaults.maxBodyBytes, ...options.maxBodyBytes };
    for (const endpoint of ENDPOINTS) positiveInteger(`maxBodyBytes.${endpoint}`, this.maxBodyBytes[endpoint]);
    this.http = new HttpTransport({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      connectTimeoutMs: options.connectTimeoutMs ?? defaults.connectTimeoutMs,
      headersTimeoutMs: options.headersTimeoutMs ?? defaults.headersTimeoutMs,
      bodyTimeoutMs: options.bodyTimeoutMs ?? defaults.bodyTimeoutMs,
      connections: positiveInteger('connections', options.connections ?? defaults.connections),
      clock: this.clock,
    });
    const maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? defaults.maxRateLimitWaitMs;
    this.maxRateLimitWaitMs = maxRateLimitWaitMs;
    this.retryPolicy = {
      maxRetries: options.maxRetries ?? defaults.maxRetries,
      baseDelayMs: options.retryBaseDelayMs ?? defaults.retryBaseDelayMs,
      maxDelayMs: options.retryMaxDelayMs ?? defaults.retryMaxDelayMs,
      maxRetryAfterMs: maxRateLimitWaitMs,
      retryAfterMarginMs: RETRY_AFTER_MARGIN_MS,
      deadlineMs: positiveInteger('callDeadlineMs', options.callDeadlineMs ?? defaults.callDeadlineMs),
      clock: this.clock,
    };
    const limits = { ...defaults.limits, ...options.limits };
    const ttl = { ...defaults.cacheTtlMs, ...options.cacheTtlMs };
    const maxEntries = positiveInteger('cacheMaxEntries', options.cacheMaxEntries ?? defaults.cacheMaxEntries);
    const cacheBytes = Math.floor(positiveInteger('cacheMaxBytes', options.cacheMaxBytes ?? defaults.cacheMaxBytes) / ENDPOINTS.length);
    this.limiters = perEndpoint(
      (endpoint) =>
        new Limiter(endpoint, {
          rate: limits[endpoint] ?? null,
          maxWaitMs: maxRateLimitWaitMs,
          now: () => this.clock.now(),
          clock: this.clock,
        }),
    );
    this.counters = perEndpoint(() => emptyEndpointStats());
    this.onAttempt = options.onAttempt ?? null;
    this.retryHooks = perEndpoint((endpoint) => ({
      signal: this.abort.signal,
      onRetry: (error, retry, delayMs) => {
        this.counters[endpoint].retries += 1;
        this.logger.warn(
          { endpoint, kind: error.kind, status: error.status, retry, delayMs },
          `market request failed (${error.message}); retrying`,
        );
      },
    }));
    const cache = <V extends {}>(endpoint: EndpointName) =>
      new ResponseCache<V>({ ttlMs: ttl[endpoint], maxEntries, maxBytes: Math.max(1, cacheBytes) });
    this.tokenCache = cache('token-data');
    this.technicalsCache = cache('token-technicals');
    this.holdersCache = cache('holders-history');
    this.tradesCache = cache('trades-history');
    this.chartCache = cache('chart-history');
    this.walletCache = cache('wallet-tracker');
    this.batcher = new TokenBatcher(
      async (addresses) =>
        (await this.request('token-data', { addresses: addresses.join(',') }, TokenEnvelopeReadingSchema, readTokenEnvelopeFast)).value
          .data,
      {
        maxBatchSize: positiveInteger('tokenBatchSize', options.tokenBatchSize ?? defaults.tokenBatchSize),
        onBatch: (lookups) => {
          this.counters['token-data'].coalesced += lookups - 1;
        },
      },
    );
  }

  /**
   * §4.1 for several tokens: the tokens found, keyed by the addresses as given; unknown
   * addresses are absent. Look-ups share the single-token cache and batches of `token()`.
   */
  async tokens(addresses: string[]): Promise<Map<string, Token>> {
    const requested = addresses.map((address) => checkAddress('token-data', address, 'token'));
    const settled = await Promise.allSettled(requested.map((address) => this.token(address)));
    const found = new Map<string, Token>();
    for (const [index, outcome] of settled.entries()) {
      const address = requested[index] ?? '';
      if (outcome.status === 'fulfilled') {
        found.set(address, outcome.value);
        continue;
      }
      const error: unknown = outcome.reason;
      // A token missing from a good answer, or unreadable within it, is left out; a failed request fails the call.
      if (isTokenOfBatch(error)) continue;
      throw error;
    }
    return found;
  }

  /**
   * §4.1 for up to TOKEN_DATA_MAX_ADDRESSES tokens in ONE request, fresh: no cache, no merging
   * with look-ups. For the alert reconciliation, which reads every tracked token each run and must
   * stay within ceil(N / 100) requests. Tokens come keyed by their own address; unknown or
   * unreadable ones are left out (the unreadable counted as dropped).
   */
  async tokenBatch(addresses: string[]): Promise<Map<string, Token>> {
    if (this.closed) throw closedError('token-data');
    const requested = [...new Set(addresses.map((address) => normalizeAddress(checkAddress('token-data', address, 'token'))))];
    const found = new Map<string, Token>();
    if (requested.length === 0) return found;
    if (requested.length > TOKEN_DATA_MAX_ADDRESSES) {
      throw new RangeError(`tokenBatch takes at most ${TOKEN_DATA_MAX_ADDRESSES} addresses, not ${requested.length}`);
    }
    const envelope = await this.request(
      'token-data',
      { addresses: requested.join(',') },
      TokenEnvelopeReadingSchema,
      readTokenEnvelopeFast,
    );
    for (const raw of Object.values(envelope.value.data)) {
      const parsed = parseToken(raw);
      if (parsed.success) found.set(normalizeAddress(parsed.data.address), parsed.data);
      else this.counters['token-data'].dropped += 1;
    }
    return found;
  }

  /** §4.1 for one token, merged with the other look-ups of the same tick into one request. */
  async token(address: string): Promise<Token> {
    const key = normalizeAddress(checkAddress('token-data', address, 'token'));
    return this.cached('token-data', this.tokenCache, key, async () => {
      try {
        return await this.batcher.load(key);
      } catch (error) {
        if (isTokenOfBatch(error) && error.kind === 'unreadable') {
          this.logger.warn({ endpoint: 'token-data', kind: error.kind, details: error.details }, error.message);
        }
        throw error;
      }
    });
  }

  /** §4.2 */
  async technicals(address: string): Promise<Technicals> {
    return (await this.readTechnicals(address)).value;
  }

  /** §4.2, with the count of points and initial buyers left out as unreadable. */
  async readTechnicals(address: string): Promise<Answer<Technicals>> {
    const base = normalizeAddress(checkAddress('token-technicals', address, 'token'));
    const query = { address: base };
    return this.cached('token-technicals', this.technicalsCache, cacheKey(query), () =>
      this.request('token-technicals', query, TechnicalsEnvelopeReadingSchema),
    );
  }

  /** §4.3 */
  async holders(address: string, options: { sortBy?: string } = {}): Promise<Holder[]> {
    return (await this.readHolders(address, options)).value;
  }

  /** §4.3, with the count of holders left out as unreadable. */
  async readHolders(address: string, options: { sortBy?: string } = {}): Promise<Answer<Holder[]>> {
    const query: Query = { address: normalizeAddress(checkAddress('holders-history', address, 'token')) };
    const sortBy = options.sortBy?.trim();
    if (sortBy) query.sortBy = sortBy;
    return this.cached('holders-history', this.holdersCache, cacheKey(query), () =>
      this.request('holders-history', query, HoldersReadingSchema),
    );
  }

  /** §4.4 */
  async trades(baseToken: string, wallets: string[]): Promise<TradeHistory> {
    return (await this.readTrades(baseToken, wallets)).value;
  }

  /** §4.4, with the count of trades (and metadata entries) left out as unreadable. */
  async readTrades(baseToken: string, wallets: string[]): Promise<Answer<TradeHistory>> {
    const query = {
      baseToken: normalizeAddress(checkAddress('trades-history', baseToken, 'token')),
      wallets: checkWallets('trades-history', wallets).join(','),
    };
    return this.cached('trades-history', this.tradesCache, cacheKey(query), () =>
      this.request('trades-history', query, TradeHistoryReadingSchema),
    );
  }

  /** §4.5; candles come oldest first. */
  async chart(base: string, options: ChartOptions = {}): Promise<Candle[]> {
    return (await this.readChart(base, options)).value;
  }

  /** §4.5, with the count of candles left out as unreadable. */
  async readChart(base: string, options: ChartOptions = {}): Promise<Answer<Candle[]>> {
    const query: Query = { base: normalizeAddress(checkAddress('chart-history', base, 'token')) };
    for (const name of CHART_OPTIONS) {
      const value = options[name];
      if (value === undefined) continue;
      if (!Number.isSafeInteger(value) || value < 1) {
        throw new MarketError({
          kind: 'invalid-parameter',
          endpoint: 'chart-history',
          userMessage: `The chart option ${name} must be a whole number of at least 1.`,
          details: { option: name, value: String(value) },
        });
      }
      query[name] = String(value);
    }
    if (options.from !== undefined && options.to !== undefined && options.from > options.to) {
      throw new MarketError({
        kind: 'invalid-parameter',
        endpoint: 'chart-history',
        userMessage: 'The start of the chart must come before its end.',
        details: { from: options.from, to: options.to },
      });
    }
    return this.cached('chart-history', this.chartCache, cacheKey(query), () =>
      this.request('chart-history', query, CandlesReadingSchema, readCandlesFast),
    );
  }

  /** §4.6 */
  async walletTrades(wallets: string[]): Promise<TradeHistory> {
    return (await this.readWalletTrades(wallets)).value;
  }

  /** §4.6, with the count of trades (and metadata entries) left out as unreadable. */
  async readWalletTrades(wallets: string[]): Promise<Answer<TradeHistory>> {
    const query = { wallets: checkWallets('wallet-tracker', wallets).join(',') };
    return this.cached('wallet-tracker', this.walletCache, cacheKey(query), () =>
      this.request('wallet-tracker', query, TradeHistoryReadingSchema),
    );
  }

  /**
   * §4.6 read now, past the cache: for the wallet polls and the baseline a follow takes, where an
   * answer cached by a look-up seconds ago would hide a trade made since.
   */
  async freshWalletTrades(wallets: string[]): Promise<TradeHistory> {
    if (this.closed) throw closedError('wallet-tracker');
    const query = { wallets: checkWallets('wallet-tracker', wallets).join(',') };
    return (await this.request('wallet-tracker', query, TradeHistoryReadingSchema)).value;
  }

  /** The request budget the bot keeps for `endpoint` (TMDS_RATE_LIMITS); null when it keeps none. */
  rateLimit(endpoint: EndpointName): RateLimit | null {
    return this.limiters[endpoint].rate;
  }

  /** A snapshot of the counters per endpoint. */
  stats(): Record<EndpointName, EndpointStats> {
    const cached: Record<EndpointName, number> = {
      'token-data': this.tokenCache.bytes,
      'token-technicals': this.technicalsCache.bytes,
      'holders-history': this.holdersCache.bytes,
      'trades-history': this.tradesCache.bytes,
      'chart-history': this.chartCache.bytes,
      'wallet-tracker': this.walletCache.bytes,
    };
    return perEndpoint((endpoint) => ({
      ...this.counters[endpoint],
      answers: { ...this.counters[endpoint].answers },
      cachedBytes: cached[endpoint],
    }));
  }

  /** Stops every request and wait, then closes the connections. Later calls fail as unreachable. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    for (const limiter of Object.values(this.limiters)) limiter.close();
    await this.http.close();
  }

  private async cached<V extends {}>(endpoint: EndpointName, cache: ResponseCache<V>, key: string, load: () => Promise<V>): Promise<V> {
    if (this.closed) throw closedError(endpoint);
    const { value, source } = await cache.get(key, load);
    this.count(endpoint, source);
    return value;
  }

  private count(endpoint: EndpointName, source: CacheSource): void {
    if (source === 'cache') this.counters[endpoint].cacheHits += 1;
    if (source === 'coalesced') this.counters[endpoint].coalesced += 1;
  }

  /**
   * One upstream call: retried, limited, mapped and parsed; unreadable list elements are counted and logged.
   * `readFast` is the schema's reading written by hand, where there is one: what it gives is the
   * schema's own result, and what it does not take (null) the schema judges.
   */
  private async request<T>(
    endpoint: EndpointName,
    query: Query,
    schema: z.ZodType<Reading<T>>,
    readFast?: (raw: unknown) => Reading<T> | null,
  ): Promise<Answer<T>> {
    const counters = this.counters[endpoint];
    const limiter = this.limiters[endpoint];
    try {
      return await withRetries(
        async ({ attempt, deadlineAt }) => {
          const release = await limiter.acquire();
          const remainingMs = deadlineAt - this.clock.now();
          let response: HttpResponse;
          try {
            // The limiter's queue took part of the call's time: what is left bounds this attempt.
            const timeoutMs = Math.min(this.attemptTimeoutMs, remainingMs);
            if (timeoutMs <= 0) throw callDeadlineError(endpoint, attempt);
            counters.requests += 1;
            const sentAt = performance.now();
            let answer = 'error';
            try {
              response = await this.http.get(endpoint, query, { timeoutMs, maxBytes: this.maxBodyBytes[endpoint] });
              answer = statusLabel(response.status, NAMED_STATUSES);
            } finally {
              counters.answers[answer] = (counters.answers[answer] ?? 0) + 1;
              this.onAttempt?.(endpoint, (performance.now() - sentAt) / 1000);
            }
          } finally {
            release();
          }
          // The path is written out again only for a log line that is kept.
          if (this.logger.isLevelEnabled('debug')) {
            this.logger.debug(
              { endpoint, path: this.http.pathFor(endpoint, query), status: response.status, elapsedMs: response.elapsedMs, attempt },
              'market request',
            );
          }
          this.takeWaits(endpoint, limiter, response);
          if (response.status < 200 || response.status > 299) {
            const error = errorForResponse(
              endpoint,
              response,
              { query, attempt },
              { nowMs: this.clock.now(), maxWaitMs: this.maxRateLimitWaitMs },
            );
            if (error.kind === 'rate-limited') counters.rateLimited += 1;
            throw error;
          }
          // Parsed and read in one synchronous stretch: one answer's JSON tree at a time, whatever the concurrency.
          const raw = readJson(endpoint, response, { query, attempt });
          const reading =
            (readFast === undefined ? null : readFast(raw)) ?? this.readBySchema(endpoint, schema, raw, response.status, query, attempt);
          const { value, dropped, examples } = reading;
          if (dropped > 0) {
            counters.dropped += dropped;
            this.logger.warn(
              { endpoint, query, attempt, dropped, elements: examples },
              `left out ${dropped} unreadable element${dropped === 1 ? '' : 's'} of the answer`,
            );
          }
          return { value, unreadable: dropped };
        },
        this.retryPolicy,
        this.retryHooks[endpoint],
      );
    } catch (error) {
      if (isMarketError(error)) {
        counters.failures += 1;
        const level = error.kind === 'not-found' ? 'debug' : 'warn';
        this.logger[level]({ endpoint, kind: error.kind, details: error.details }, error.message);
      }
      throw error;
    }
  }

  /** The schema's reading of an answer, or the unreadable error naming its first issues. */
  private readBySchema<T>(
    endpoint: EndpointName,
    schema: z.ZodType<Reading<T>>,
    raw: unknown,
    status: number,
    query: Query,
    attempt: number,
  ): Reading<T> {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    throw new MarketError({
      kind: 'unreadable',
      endpoint,
      status,
      message: 'the response does not match the schema',
      details: {
        query,
        attempt,
        issues: parsed.error.issues.slice(0, 5).map((issue) => ({ path: issue.path.join('.'), message: issue.message.slice(0, 200) })),
      },
    });
  }

  /**
   * The waits an answer asks for, on any status: a Retry-After or a spent window holds this
   * endpoint's limiter (and no other), and the rate-limit headers set its budget, but only up to
   * maxRateLimitWaitMs. A longer wait is not kept at all: this call fails at once (see
   * errorForResponse and retry.ts) and the next call asks the service again, so no answer can shut
   * the client out for longer than the setting, whatever it says or however skewed its clock.
   */
  private takeWaits(endpoint: EndpointName, limiter: Limiter, response: HttpResponse): void {
    const now = this.clock.now();
    const cap = this.maxRateLimitWaitMs;
    const rateLimit = readRateLimit(response.headers, now);
    if (rateLimit !== null) {
      const resetInMs = rateLimit.resetAtMs - now;
      if (resetInMs <= cap) limiter.observe(rateLimit.remaining, resetInMs);
      else this.logger.debug({ endpoint, resetInMs, cap }, 'rate-limit reset beyond the longest wait; not kept');
    }
    if (response.status >= 200 && response.status <= 299) return;
    const asked = serviceWaitMs(response, now);
    if (asked === null) return;
    if (asked < cap) limiter.holdFor(asked);
    else
      this.logger.warn(
        { endpoint, status: response.status, askedWaitMs: asked, cap },
        'the service asked for a wait beyond the longest wait; failing this call only',
      );
  }
}

/** The statuses the spec gives a meaning to, counted each on its own; any other by its class. */
const NAMED_STATUSES = new Set([200, 400, 401, 403, 404, 413, 429, 500, 502, 503, 504]);

function perEndpoint<T>(make: (endpoint: EndpointName) => T): Record<EndpointName, T> {
  const out = {} as Record<EndpointName, T>;
  for (const endpoint of ENDPOINTS) out[endpoint] = make(endpoint);
  return out;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`MarketClient option ${name} must be a whole number of at least 1`);
  return value;
}

/** The cache key of a query: its parameters in a fixed order. */
function cacheKey(query: Query): string {
  return new URLSearchParams(Object.entries(query).sort(([a], [b]) => a.localeCompare(b))).toString();
}

/** Checks one address before any request; returns it trimmed. */
function checkAddress(endpoint: EndpointName, value: string, what: 'token' | 'wallet'): string {
  const address = typeof value === 'string' ? value.trim() : '';
  if (address === '') {
    throw new MarketError({ kind: 'missing-parameter', endpoint, userMessage: `Give a ${what} address.` });
  }
  if (addressKind(address) === null) {
    throw new MarketError({
      kind: 'invalid-address',
      endpoint,
      userMessage: `That is not a ${what} address.`,
      message: `not a ${what} address (expected base58 of 32–44 characters or 0x and 40 hex digits)`,
      details: { value: address.length > 64 ? `${address.slice(0, 64)}…` : address },
    });
  }
  return address;
}

/** Checks a wallet list; returns it trimmed, normalized, without duplicates, in a fixed order for the cache. */
function checkWallets(endpoint: EndpointName, wallets: string[]): string[] {
  const given = wallets.map((wallet) => (typeof wallet === 'string' ? wallet.trim() : '')).filter((wallet) => wallet !== '');
  if (given.length === 0) {
    throw new MarketError({ kind: 'missing-parameter', endpoint, userMessage: 'Give at least one wallet address.' });
  }
  const checked = given.map((wallet) => normalizeAddress(checkAddress(endpoint, wallet, 'wallet')));
  return [...new Set(checked)].sort();
}

/** A not-found or unreadable answer for one token of a token-data batch whose request succeeded. */
function isTokenOfBatch(error: unknown): error is MarketError {
  return isMarketError(error) && (error.kind === 'not-found' || error.kind === 'unreadable') && typeof error.details.address === 'string';
}

function callDeadlineError(endpoint: EndpointName, attempt: number): MarketError {
  return new MarketError({
    kind: 'timeout',
    endpoint,
    message: `no time left within the call's deadline (attempt ${attempt})`,
    details: { attempt, deadline: 'call' },
  });
}

function closedError(endpoint: EndpointName): MarketError {
  return new MarketError({ kind: 'unreachable', endpoint, message: 'the client was closed', details: { closed: true } });
}
