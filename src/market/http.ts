/**
 * The service's HTTP layer: one keep-alive undici pool, the `x-api-key` header on every request,
 * one deadline per attempt for headers and body together, a cap on the bytes of each answer, and
 * the mapping from what went wrong on the wire (a transport error, an HTTP status, a body that is
 * not JSON) to a MarketError. Nothing above this file sees undici.
 *
 * undici's own body timeout measures the gap between two chunks, so a server trickling one byte a
 * second would never trip it: the attempt's deadline here is a timer on the clock that aborts the
 * request wherever it is, and the body is read chunk by chunk against its cap, so an answer too
 * large is cut at the cap instead of being held whole first.
 */
import { Pool, type Dispatcher } from 'undici';
import { cleanServiceText } from '../text/unsafe';
import { systemClock, type Clock } from './clock';
import type { EndpointName } from './endpoints';
import { MarketError, errorCode, excerpt } from './errors';
import { ErrorBodySchema } from './schemas';

export type Query = Record<string, string>;
export type ResponseHeaders = Record<string, string | string[] | undefined>;

export interface HttpResponse {
  status: number;
  headers: ResponseHeaders;
  body: string;
  /** Milliseconds from sending to the end of the body, for the log. */
  elapsedMs: number;
  /**
   * Objects and lists the body can hold at most (its `{` and `[` bytes), counted to one past what
   * readJson allows; absent when not counted.
   */
  structures?: number;
}

export interface HttpOptions {
  baseUrl: string;
  apiKey: string;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  connections: number;
  clock?: Clock;
}

/** What one attempt may take: time for the whole exchange, and bytes of the answer. */
export interface AttemptLimits {
  /** Aborts the request this long after it was sent, whether headers or body are still due. */
  timeoutMs: number;
  /** An answer longer than this is refused as unreadable, by its Content-Length or while reading. */
  maxBytes: number;
}

/** The reason requests on their way are aborted when the transport closes. */
class TransportClosed extends Error {
  constructor() {
    super('the client was closed');
  }
}

/** The reason a request was aborted by its own deadline (told apart from the client closing). */
class DeadlineReached extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
  }
}

/** The reason a body was cut at its cap. */
class TooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the response is larger than ${maxBytes} bytes`);
  }
}

/** undici's own hard ceiling, over every per-endpoint cap (which are set lower; see client.ts). */
const MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

/** Idle keep-alive sockets are kept this long; the server may announce a shorter time, which undici honours. */
const KEEP_ALIVE_MS = 30_000;

const TIMEOUT_CODES: Record<string, string> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'body',
  ETIMEDOUT: 'connect',
};

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

export class HttpTransport {
  private readonly pool: Pool;
  private readonly pathPrefix: string;
  private readonly apiKey: string;
  private readonly clock: Clock;
  /** Requests on their way, aborted together by close(). */
  private readonly inFlight = new Set<Exchange>();
  private closed = false;

  constructor(options: HttpOptions) {
    const url = new URL(options.baseUrl);
    this.pathPrefix = url.pathname.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.clock = options.clock ?? systemClock;
    this.pool = new Pool(url.origin, {
      connections: options.connections,
      connect: { timeout: options.connectTimeoutMs },
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
      keepAliveTimeout: KEEP_ALIVE_MS,
      maxResponseSize: MAX_RESPONSE_BYTES,
    });
  }

  /** The request path of an endpoint and query, as sent (the key travels only in a header). */
  pathFor(endpoint: EndpointName, query: Query): string {
    const search = formEncode(query);
    return `${this.pathPrefix}/api/${endpoint}${search ? `?${search}` : ''}`;
  }

  /**
   * Sends one GET and reads the whole body within the attempt's deadline and byte cap. Resolves
   * with any HTTP status; rejects only with a MarketError of kind timeout or unreachable (or
   * unreadable for an answer over its cap).
   */
  async get(endpoint: EndpointName, query: Query, limits: AttemptLimits): Promise<HttpResponse> {
    const started = performance.now();
    const path = this.pathFor(endpoint, query);
    const exchange = new Exchange(limits.maxBytes);
    if (this.closed) exchange.abort(new TransportClosed());
    this.inFlight.add(exchange);
    const timer = this.clock.setTimeout(() => exchange.abort(new DeadlineReached(limits.timeoutMs)), Math.max(0, limits.timeoutMs));
    try {
      // A failure to send (a closed pool) comes back through the exchange, like any other.
      this.pool.dispatch({ method: 'GET', path, headers: { 'x-api-key': this.apiKey, accept: 'application/json' } }, exchange);
      const bytes = await exchange.done;
      const body = bytes.toString('utf8');
      return {
        status: exchange.status,
        headers: exchange.headers,
        body,
        structures: countStructures(bytes, structureLimit(body.length)),
        elapsedMs: Math.round(performance.now() - started),
      };
    } catch (error) {
      const reason: unknown = exchange.reason ?? error;
      const cause = reason instanceof DeadlineReached || reason instanceof TooLarge ? reason : error;
      throw transportError(endpoint, cause, { path, elapsedMs: Math.round(performance.now() - started), closed: this.closed });
    } finally {
      this.clock.clearTimeout(timer);
      this.inFlight.delete(exchange);
    }
  }

  /** Aborts every request on its way, then closes the connections. Later requests fail as closed. */
  async close(): Promise<void> {
    this.closed = true;
    const reason = new TransportClosed();
    for (const exchange of this.inFlight) exchange.abort(reason);
    this.inFlight.clear();
    await this.pool.close();
  }
}

/** Characters that URLSearchParams writes as they are. */
const FORM_SAFE = /^[A-Za-z0-9*._-]*$/;

/**
 * A query as URLSearchParams writes it (application/x-www-form-urlencoded). Names and values made
 * only of the characters it leaves alone, such as every address, are joined without building one.
 */
function formEncode(query: Query): string {
  let search = '';
  for (const name in query) {
    const value = query[name] ?? '';
    if (!FORM_SAFE.test(name) || !FORM_SAFE.test(value)) return new URLSearchParams(query).toString();
    search += search === '' ? `${name}=${value}` : `&${name}=${value}`;
  }
  return search;
}

/** Maps a failure below HTTP (no status) to timeout, unreachable or unreadable. */
export function transportError(
  endpoint: EndpointName,
  error: unknown,
  context: Record<string, unknown> & { closed: boolean },
): MarketError {
  const code = errorCode(error);
  const detail = { ...context, code, reason: error instanceof Error ? error.message : String(error) };
  if (context.closed) {
    return new MarketError({ kind: 'unreachable', endpoint, message: 'the client was closed', details: detail, cause: error });
  }
  if (error instanceof DeadlineReached) {
    return new MarketError({
      kind: 'timeout',
      endpoint,
      message: error.message,
      details: { ...detail, phase: 'attempt', timeoutMs: error.timeoutMs },
      cause: error,
    });
  }
  if (error instanceof TooLarge) {
    return new MarketError({
      kind: 'unreadable',
      endpoint,
      message: error.message,
      details: { ...detail, maxBytes: error.maxBytes },
      cause: error,
    });
  }
  const phase = code === null ? undefined : TIMEOUT_CODES[code];
  if (phase !== undefined) {
    return new MarketError({
      kind: 'timeout',
      endpoint,
      message: `no answer within the ${phase} timeout`,
      details: { ...detail, phase },
      cause: error,
    });
  }
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
    return new MarketError({ kind: 'unreadable', endpoint, message: 'the response is too large', details: detail, cause: error });
  }
  const known = code !== null && UNREACHABLE_CODES.has(code);
  return new MarketError({
    kind: 'unreachable',
    endpoint,
    message: known ? `connection failed (${code})` : `request failed: ${detail.reason}`,
    details: detail,
    cause: error,
  });
}

function nothing(): void {}

/**
 * One GET as undici's dispatcher sees it: the status, headers, body chunks and end of the answer
 * come to these methods, with no response stream built around them (`pool.request()` wraps each
 * answer in a Readable and a promise, some 20 µs a look-up on a local network). The body is held
 * as chunks against its cap: refused at once when its Content-Length says more, cut (the request
 * aborted) as soon as the bytes read pass the cap. The deadline and close() abort through here too.
 */
class Exchange implements Dispatcher.DispatchHandler {
  status = 0;
  headers: ResponseHeaders = {};
  /** Why the request was aborted; null while it was not. */
  reason: Error | null = null;
  readonly done: Promise<Buffer>;
  // Set by the promise's executor; one shared no-op until then, not two closures per request.
  private resolve: (bytes: Buffer) => void = nothing;
  private reject: (error: unknown) => void = nothing;
  private controller: Dispatcher.DispatchController | null = null;
  private readonly chunks: Buffer[] = [];
  private total = 0;
  private settled = false;

  constructor(private readonly maxBytes: number) {
    this.done = new Promise<Buffer>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** Stops the request wherever it is; the answer fails with `reason`. The first reason stands. */
  abort(reason: Error): void {
    if (this.reason !== null) return;
    this.reason = reason;
    if (this.controller !== null && !this.controller.aborted) this.controller.abort(reason);
    this.fail(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.reason !== null) controller.abort(this.reason);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: ResponseHeaders): void {
    // An informational answer (1xx) is followed by the real one.
    if (statusCode < 200) return;
    this.status = statusCode;
    this.headers = headers;
    const declared = Number(header(headers, 'content-length') ?? Number.NaN);
    if (Number.isFinite(declared) && declared > this.maxBytes) this.abort(new TooLarge(this.maxBytes));
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    this.total += chunk.length;
    if (this.total > this.maxBytes) {
      this.abort(new TooLarge(this.maxBytes));
      return;
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.total));
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.fail(error);
  }

  /** Rejects with the abort's reason when the request was aborted, else with `error`. */
  private fail(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(this.reason ?? error);
  }
}

/**
 * The `{` and `[` bytes of a body (an upper bound of the objects and lists its JSON holds), found
 * by indexOf, one native search each; counting stops past `limit`, which is all readJson asks.
 */
function countStructures(bytes: Buffer, limit: number): number {
  let count = 0;
  for (const sign of STRUCTURE_BYTES) {
    for (let at = bytes.indexOf(sign); at !== -1; at = bytes.indexOf(sign, at + 1)) {
      count += 1;
      if (count > limit) return count;
    }
  }
  return count;
}

const STRUCTURE_BYTES = [0x7b, 0x5b] as const;

export function header(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Retry-After as delay-seconds (fractions accepted) or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number = Date.now()): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // An HTTP date always names its day and month; a bare signed number is not one.
  const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

const MISSING = /\b(missing|required|no\b.*\bprovided|must (be )?(given|supplied|provided))/i;
/** A 400 that names a bad address (not merely one that mentions addresses, like "too many addresses"). */
const ADDRESS = /(invalid|malformed|not a valid)[^.]*\b(address|base58)|\baddress\b[^.]*\b(invalid|malformed)\b/i;

/** How the client reads the service's waits: against which clock time, and up to which cap. */
export interface WaitReading {
  nowMs?: number;
  /** A wait beyond this is told to the person as this (the call fails at once; see retry.ts). */
  maxWaitMs?: number;
}

/** Maps a response that is not 2xx to the error a person and the log can use. */
export function errorForResponse(
  endpoint: EndpointName,
  response: HttpResponse,
  context: Record<string, unknown> = {},
  reading: WaitReading = {},
): MarketError {
  const { status } = response;
  const body = readErrorBody(response.body);
  // The service's own words reach the log and the error's message: cleaned as card text is.
  const said = [body.error, body.message]
    .filter((part): part is string => typeof part === 'string' && part !== '')
    .map((part) => cleanServiceText(part, 200))
    .join(': ');
  const details = { ...context, body: excerpt(response.body), elapsedMs: response.elapsedMs };
  const message = `HTTP ${status}${said ? ` ${said}` : ''}`;
  if (status === 400 || status === 422) {
    const kind = MISSING.test(said) ? 'missing-parameter' : ADDRESS.test(said) ? 'invalid-address' : 'invalid-parameter';
    return new MarketError({ kind, endpoint, status, message, details });
  }
  if (status === 401 || status === 403) return new MarketError({ kind: 'unauthorized', endpoint, status, message, details });
  if (status === 404) {
    const userMessage = endpoint === 'wallet-tracker' ? 'Nothing was found for that wallet.' : undefined;
    return new MarketError({ kind: 'not-found', endpoint, status, message, userMessage, details });
  }
  if (status === 408) return new MarketError({ kind: 'timeout', endpoint, status, message, details });
  if (status === 429 || status >= 500) {
    // A 429, or a 503 (any 5xx) that says when to come back: the retry waits that long, unless
    // the wait reaches the cap, when the person is told to come back after the cap instead.
    const askedMs = serviceWaitMs(response, reading.nowMs);
    const retryAfterMs = askedMs === null ? null : Math.min(askedMs, reading.maxWaitMs ?? Number.POSITIVE_INFINITY);
    const kind = status === 429 ? 'rate-limited' : 'upstream';
    return new MarketError({ kind, endpoint, status, message, retryAfterMs, details: { ...details, retryAfterMs, askedWaitMs: askedMs } });
  }
  // Any other status the spec does not name (3xx, other 4xx): the service failed us.
  return new MarketError({ kind: 'upstream', endpoint, status, message, details });
}

/**
 * The wait an answer asks for, on any status: its Retry-After (seconds or an HTTP date), or else,
 * on a 429 or with no calls left in the window, its rate-limit reset. Null when it asks none.
 */
export function serviceWaitMs(response: Pick<HttpResponse, 'status' | 'headers'>, nowMs: number = Date.now()): number | null {
  const retryAfter = parseRetryAfter(header(response.headers, 'retry-after'), nowMs);
  if (retryAfter !== null) return retryAfter;
  const rateLimit = readRateLimit(response.headers, nowMs);
  if (response.status === 429 || (rateLimit !== null && rateLimit.remaining <= 0)) return resetDelayFromHeaders(response.headers, nowMs);
  return null;
}

/** When a 429 carries no Retry-After, the rate-limit reset header still says how long to wait. */
function resetDelayFromHeaders(headers: ResponseHeaders, nowMs: number): number | null {
  const reset = header(headers, 'x-ratelimit-reset') ?? header(headers, 'ratelimit-reset');
  if (reset === undefined) return null;
  const at = resetTimeMs(reset, nowMs);
  return at === null ? null : Math.max(0, at - nowMs);
}

/**
 * Reads a rate-limit reset value: Unix seconds (the simulator's `X-RateLimit-Reset`), Unix
 * milliseconds, or seconds from now (the IETF draft's `RateLimit-Reset`), told apart by size.
 */
export function resetTimeMs(value: string, nowMs: number = Date.now()): number | null {
  const number = Number(value.trim());
  if (!Number.isFinite(number) || number < 0) return null;
  if (number >= 1e12) return number;
  if (number >= 1e9) return number * 1000;
  return nowMs + number * 1000;
}

function readErrorBody(text: string): { error: string | null; message: string | null } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { error: null, message: text.trim() === '' ? null : excerpt(text.trim()).slice(0, 200) };
  }
  const body = ErrorBodySchema.parse(parsed);
  return { error: body.error ?? null, message: body.message ?? null };
}

/**
 * Bytes of body allowed per object or list. Real answers spend 60 bytes and more on each (a candle,
 * a holder, a trade); `[{},{},…]` spends 3, and JSON.parse turns each into some 40 bytes of heap
 * and several microseconds, so a body denser than this is refused before it is parsed.
 */
export const MIN_BYTES_PER_STRUCTURE = 16;
/** Small bodies are never refused for density. */
const DENSITY_FLOOR = 1_000;

/** The most objects and lists a body of `length` characters may hold. */
function structureLimit(length: number): number {
  return Math.max(DENSITY_FLOOR, length / MIN_BYTES_PER_STRUCTURE);
}

/** Parses a 2xx body as JSON, or fails as unreadable with an excerpt for the log. */
export function readJson(endpoint: EndpointName, response: HttpResponse, context: Record<string, unknown> = {}): unknown {
  const structures = response.structures;
  if (structures !== undefined && structures > structureLimit(response.body.length)) {
    return failUnreadable(endpoint, response, 'the response holds more objects and lists than its size allows', { ...context, structures });
  }
  try {
    return JSON.parse(response.body);
  } catch (error) {
    return failUnreadable(endpoint, response, 'the response is not JSON', {
      ...context,
      reason: error instanceof Error ? error.message : String(error),
    });
  }
}

function failUnreadable(endpoint: EndpointName, response: HttpResponse, message: string, context: Record<string, unknown>): never {
  throw new MarketError({
    kind: 'unreadable',
    endpoint,
    status: response.status,
    message,
    details: { ...context, body: excerpt(response.body) },
  });
}

/** What the service's rate-limit headers say: calls left in its window, and when the window ends. */
export interface RateLimitState {
  remaining: number;
  /** Unix milliseconds. */
  resetAtMs: number;
}

/** The header names of each family, remaining then reset, written once (undici gives them lower-cased). */
const RATE_LIMIT_HEADERS = [
  ['x-ratelimit-remaining', 'x-ratelimit-reset'],
  ['ratelimit-remaining', 'ratelimit-reset'],
] as const;

/**
 * Reads `X-RateLimit-Remaining` and `X-RateLimit-Reset`, or the IETF draft's
 * `RateLimit-Remaining` and `RateLimit-Reset`; null when a pair is absent or unreadable.
 */
export function readRateLimit(headers: ResponseHeaders, nowMs: number = Date.now()): RateLimitState | null {
  for (const [remainingName, resetName] of RATE_LIMIT_HEADERS) {
    const remaining = Number(header(headers, remainingName)?.trim() ?? Number.NaN);
    const reset = header(headers, resetName);
    if (!Number.isFinite(remaining) || remaining < 0 || reset === undefined) continue;
    const resetAtMs = resetTimeMs(reset, nowMs);
    if (resetAtMs !== null) return { remaining: Math.floor(remaining), resetAtMs };
  }
  return null;
}
