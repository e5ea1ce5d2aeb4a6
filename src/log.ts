/**
 * The bot's logger. Secrets never reach a log line: known secret fields are redacted by path, and
 * every message and string field is scrubbed of the configured secret values themselves, so a key
 * echoed inside an upstream error or a URL is caught too. Every message and string field is also
 * cleaned of control, invisible and bidi characters (src/text/unsafe.ts, as card text is), so a
 * service's error text cannot reorder or split a line in a terminal or a log viewer.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { stripUnsafeChars } from './text/unsafe';

export type { Logger };

const REDACTED_PATHS = [
  'apiKey',
  '*.apiKey',
  'token',
  '*.token',
  'headers["x-api-key"]',
  '*.headers["x-api-key"]',
  'authorization',
  '*.authorization',
];

const secrets = new Set<string>();

/** Registers a secret value (API key, bot token) that must never appear in output. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

/**
 * The forms a secret takes in output: as is, and escaped inside a JSON string, which differs when
 * the secret holds a `"`, a `\` or a control character. The escaped form comes first: it is the
 * longer, so the raw form cannot cut it in two.
 */
function formsOf(secret: string): string[] {
  const escaped = JSON.stringify(secret).slice(1, -1);
  return escaped === secret ? [secret] : [escaped, secret];
}

/** Replaces every registered secret inside a string, raw or JSON-escaped. */
export function scrubSecrets(text: string): string {
  let out = text;
  for (const secret of secrets) for (const form of formsOf(secret)) out = out.split(form).join('[redacted]');
  return out;
}

/**
 * A JSON.stringify replacer for log fields: bigints become text, errors anywhere become pino's
 * standard error object (a plain JSON round trip would leave `{}`), and a repeated object is cut
 * instead of failing the line, and strings are cleaned of unsafe characters. Secrets are scrubbed once, from the serialised text, where
 * scrubSecrets also finds their JSON-escaped form.
 */
function loggable(): (key: string, value: unknown) => unknown {
  const seen = new WeakSet<object>();
  return (_key, value) => {
    if (typeof value === 'bigint') return value.toString();
    // Scrubbed before cleaning too, so that cleaning cannot cut a secret holding a control character.
    if (typeof value === 'string') return stripUnsafeChars(scrubSecrets(value));
    if (value === null || typeof value !== 'object') return value;
    if (seen.has(value)) return '[circular]';
    seen.add(value);
    return value instanceof Error ? pino.stdSerializers.err(value) : value;
  };
}

export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // The log formatter below has already turned errors into pino's plain error objects (and
    // scrubbed them); pino's own err serializer, which runs after it, would call them "Object".
    serializers: { err: (value: unknown) => value },
    hooks: {
      logMethod(args, method) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? scrubSecrets(stripUnsafeChars(scrubSecrets(arg))) : arg)) as Parameters<
            typeof method
          >,
        );
      },
    },
    formatters: {
      log(object) {
        // One scrub of the whole text covers values and property names, raw or escaped.
        return JSON.parse(scrubSecrets(JSON.stringify(object, loggable()))) as Record<string, unknown>;
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** A logger that writes nothing, for tests and library use. */
export const silentLogger: Logger = pino({ level: 'silent' });

/**
 * Process warnings (a deprecation a library emits, one of Node's own) as log lines. Node prints
 * them to standard error itself, as plain text outside the JSON lines and past the secret
 * scrubbing; its printer is taken off and each warning becomes one line through `logger`.
 * Returns what puts the printer back (for tests; the bot keeps this for its whole run).
 */
export function logProcessWarnings(logger: Logger): () => void {
  const printers = process.listeners('warning');
  process.removeAllListeners('warning');
  const onWarning = (warning: Error): void => {
    const code = 'code' in warning && typeof warning.code === 'string' ? warning.code : undefined;
    logger.warn({ warning: { type: warning.name, code, message: warning.message } }, 'process warning');
  };
  process.on('warning', onWarning);
  return () => {
    process.off('warning', onWarning);
    for (const printer of printers) process.on('warning', printer);
  };
}

/** An error's message for a log line (a thrown non-Error as its text). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
