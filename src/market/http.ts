/**
 * The service's HTTP layer: one keep-alive undici pool, the three timeouts, the `x-api-key`
 * header on every request, and the mapping from what went wrong on the wire (a transport error,
 * an HTTP status, a body that is not JSON) to a MarketError. Nothing above this file sees undici.
 */
import { Pool } from 'undici';
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
}

export interface HttpOptions {
  baseUrl: string;
  apiKey: string;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  connections: number;
}

/** A response larger than this is refused as unreadable rather than held in memory. */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

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

  constructor(options: HttpOptions) {
    const url = new URL(options.baseUrl);
    this.pathPrefix = url.pathname.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
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
    const search = new URLSearchParams(query).toString();
    return `${this.pathPrefix}/api/${endpoint}${search ? `?${search}` : ''}`;
  }

  /**
   * Sends one GET and reads the whole body. Resolves with any HTTP status; rejects only with a
   * MarketError of kind timeout or unreachable (or unreadable for an oversized body).
   */
  async get(endpoint: EndpointName, query: Query, signal?: AbortSignal): Promise<HttpResponse> {
    const started = performance.now();
    const path = this.pathFor(endpoint, query);
    try {
      const response = await this.pool.request({
        method: 'GET',
        path,
        headers: { 'x-api-key': this.apiKey, accept: 'application/json' },
        signal,
      });
      const body = await response.body.text();
      return { status: response.statusCode, headers: response.headers, body, elapsedMs: Math.round(performance.now() - started) };
    } catch (error) {
      throw transportError(endpoint, error, { path, elapsedMs: Math.round(performance.now() - started), closed: signal?.aborted === true });
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** Maps a failure below HTTP (no status) to timeout, unreachable or unreadable. */
export function transportError(endpoint: EndpointName, error: unknown, context: Record<string, unknown> & { closed: boolean }): MarketError {
  const code = errorCode(error);
  const detail = { ...context, code, reason: error instanceof Error ? error.message : String(error) };
  if (context.closed) {
    return new MarketError({ kind: 'unreachable', endpoint, message: 'the client was closed', details: detail, cause: error });
  }
  const phase = code === null ? undefined : TIMEOUT_CODES[code];
  if (phase !== undefined) {
    return new MarketError({ kind: 'timeout', endpoint, message: `no answer within the ${phase} timeout`, details: { ...detail, phase }, cause: error });
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

/** Maps a response that is not 2xx to the error a person and the log can use. */
export function errorForResponse(endpoint: EndpointName, response: HttpResponse, context: Record<string, unknown> = {}): MarketError {
  const { status } = response;
  const body = readErrorBody(response.body);
  const said = [body.error, body.message].filter((part): part is string => typeof part === 'string' && part !== '').join(': ');
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
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(header(response.headers, 'retry-after')) ?? resetDelayFromHeaders(response.headers);
    return new MarketError({ kind: 'rate-limited', endpoint, status, message, retryAfterMs, details: { ...details, retryAfterMs } });
  }
  if (status >= 500) {
    // A 503 (or any 5xx) may say when to come back; the retry waits that long, as after a 429.
    const retryAfterMs = parseRetryAfter(header(response.headers, 'retry-after'));
    return new MarketError({ kind: 'upstream', endpoint, status, message, retryAfterMs, details: { ...details, retryAfterMs } });
  }
  // Any other status the spec does not name (3xx, other 4xx): the service failed us.
  return new MarketError({ kind: 'upstream', endpoint, status, message, details });
}

/** When a 429 carries no Retry-After, the rate-limit reset header still says how long to wait. */
function resetDelayFromHeaders(headers: ResponseHeaders, nowMs: number = Date.now()): number | null {
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

/** Parses a 2xx body as JSON, or fails as unreadable with an excerpt for the log. */
export function readJson(endpoint: EndpointName, response: HttpResponse, context: Record<string, unknown> = {}): unknown {
  try {
    return JSON.parse(response.body);
  } catch (error) {
    return failUnreadable(endpoint, response, 'the response is not JSON', { ...context, reason: error instanceof Error ? error.message : String(error) });
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

/**
 * Reads `X-RateLimit-Remaining` and `X-RateLimit-Reset`, or the IETF draft's
 * `RateLimit-Remaining` and `RateLimit-Reset`; null when a pair is absent or unreadable.
 */
export function readRateLimit(headers: ResponseHeaders, nowMs: number = Date.now()): RateLimitState | null {
  for (const prefix of ['x-ratelimit-', 'ratelimit-']) {
    const remaining = Number(header(headers, `${prefix}remaining`)?.trim() ?? Number.NaN);
    const reset = header(headers, `${prefix}reset`);
    if (!Number.isFinite(remaining) || remaining < 0 || reset === undefined) continue;
    const resetAtMs = resetTimeMs(reset, nowMs);
    if (resetAtMs !== null) return { remaining: Math.floor(remaining), resetAtMs };
  }
  return null;
}
