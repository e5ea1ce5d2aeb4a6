/**
 * The market data client's one error type. Commands build chat replies from `kind` and
 * `userMessage`; logs take `message` and `details`. Every text, detail and cause passes the
 * secret scrubber on construction, so an API key echoed by the service cannot travel further.
 */
import { scrubSecrets } from '../log';
import { stripUnsafeChars } from '../text/unsafe';
import type { EndpointName } from './endpoints';

export type MarketErrorKind =
  | 'missing-parameter'
  | 'invalid-address'
  | 'invalid-parameter'
  | 'not-found'
  | 'unauthorized'
  | 'rate-limited'
  | 'upstream'
  | 'timeout'
  | 'unreachable'
  | 'unreadable';

export interface MarketErrorInit {
  kind: MarketErrorKind;
  endpoint: EndpointName | null;
  /** For the log; defaults to the user message. */
  message?: string;
  /** For a person; defaults to the kind's standard sentence. */
  userMessage?: string;
  retryAfterMs?: number | null;
  status?: number | null;
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class MarketError extends Error {
  readonly kind: MarketErrorKind;
  readonly endpoint: EndpointName | null;
  readonly userMessage: string;
  readonly retryAfterMs: number | null;
  readonly status: number | null;
  readonly details: Record<string, unknown>;

  constructor(init: MarketErrorInit) {
    const retryAfterMs = init.retryAfterMs ?? null;
    const userMessage = scrubSecrets(init.userMessage ?? defaultUserMessage(init.kind, retryAfterMs));
    const where = init.endpoint === null ? '' : `${init.endpoint}: `;
    super(scrubSecrets(`${where}${init.message ?? userMessage}`), init.cause === undefined ? undefined : { cause: scrubCause(init.cause) });
    this.name = 'MarketError';
    this.kind = init.kind;
    this.endpoint = init.endpoint;
    this.userMessage = userMessage;
    this.retryAfterMs = retryAfterMs;
    this.status = init.status ?? null;
    this.details = scrubDetails({ endpoint: init.endpoint, kind: init.kind, status: this.status, ...init.details });
  }
}

export function isMarketError(e: unknown): e is MarketError {
  return e instanceof MarketError;
}

/** "12 s", rounded up so that a person who waits that long is not refused again. */
export function formatWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}

export function defaultUserMessage(kind: MarketErrorKind, retryAfterMs: number | null = null): string {
  switch (kind) {
    case 'missing-parameter':
      return 'Something required is missing from that request.';
    case 'invalid-address':
      return 'That is not a token address.';
    case 'invalid-parameter':
      return 'One of the options of that request is not valid.';
    case 'not-found':
      return 'No token was found at that address.';
    case 'unauthorized':
      return 'The market data service refused the bot’s API key; the bot’s operator must check it.';
    case 'rate-limited':
      return retryAfterMs === null
        ? 'The market data service is busy; try again in a moment.'
        : `The market data service is busy; try again in ${formatWait(retryAfterMs)}.`;
    case 'upstream':
      return retryAfterMs === null
        ? 'The market data service failed to answer; try again in a moment.'
        : `The market data service failed to answer; try again in ${formatWait(retryAfterMs)}.`;
    case 'timeout':
      return 'The market data service took too long to answer; try again in a moment.';
    case 'unreachable':
      return 'The market data service cannot be reached right now; try again later.';
    case 'unreadable':
      return 'The market data service sent an answer the bot could not read.';
  }
}

/** Longest body excerpt kept for the log: enough to diagnose, too short to flood a log line. */
export const BODY_EXCERPT_CHARS = 300;

/** The start of a body for the log: secrets scrubbed, control and bidi characters cleaned. */
export function excerpt(text: string): string {
  const scrubbed = stripUnsafeChars(scrubSecrets(text.length > BODY_EXCERPT_CHARS * 4 ? text.slice(0, BODY_EXCERPT_CHARS * 4) : text));
  return scrubbed.length > BODY_EXCERPT_CHARS ? `${scrubbed.slice(0, BODY_EXCERPT_CHARS)}…` : scrubbed;
}

function scrubDetails(details: Record<string, unknown>): Record<string, unknown> {
  // A JSON round trip guarantees the details can always be logged (no functions, no cycles,
  // bigint amounts as text); strings are scrubbed before escaping could disguise a secret.
  const seen = new WeakSet<object>();
  const text = JSON.stringify(details, (_key, value: unknown) => {
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'string') return scrubSecrets(value);
    if (value instanceof Error) return { name: value.name, message: value.message, code: errorCode(value) };
    if (value !== null && typeof value === 'object') {
      if (seen.has(value)) return '[circular]';
      seen.add(value);
    }
    return value;
  });
  return JSON.parse(text) as Record<string, unknown>;
}

/** Causes followed down a chain; deeper ones are dropped rather than passed on unchecked. */
const MAX_CAUSE_DEPTH = 4;

/**
 * A cause without secrets: an error whose message, stack or own cause holds one is replaced by a
 * copy with them scrubbed (name and code kept); an error without any is kept as it is.
 */
function scrubCause(cause: unknown, depth = 0): unknown {
  if (typeof cause === 'string') return scrubSecrets(cause);
  if (!(cause instanceof Error)) return cause;
  if (depth >= MAX_CAUSE_DEPTH) return undefined;
  const message = scrubSecrets(cause.message);
  const stack = cause.stack === undefined ? undefined : scrubSecrets(cause.stack);
  const inner = cause.cause === undefined ? undefined : scrubCause(cause.cause, depth + 1);
  if (message === cause.message && stack === cause.stack && inner === cause.cause) return cause;
  const copy = new Error(message, inner === undefined ? undefined : { cause: inner });
  copy.name = cause.name;
  copy.stack = stack;
  const code = errorCode(cause);
  if (code !== null) Object.assign(copy, { code });
  return copy;
}

/** The `code` of a Node or undici error (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT…), if any. */
export function errorCode(error: unknown): string | null {
  if (error !== null && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return null;
}

/** The same error with more details for the log (an attempt count, the query). */
export function withDetails(error: MarketError, extra: Record<string, unknown>, message?: string): MarketError {
  return new MarketError({
    kind: error.kind,
    endpoint: error.endpoint,
    message: message ?? bareMessage(error),
    userMessage: error.userMessage,
    retryAfterMs: error.retryAfterMs,
    status: error.status,
    details: { ...error.details, ...extra },
    cause: error.cause,
  });
}

/** The log message without its `endpoint: ` prefix, for building a longer one. */
export function bareMessage(error: MarketError): string {
  const prefix = error.endpoint === null ? '' : `${error.endpoint}: `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}
