/**
 * The bot's logger. Secrets never reach a log line: known secret fields are redacted by path, and
 * every message and string field is scrubbed of the configured secret values themselves, so a key
 * echoed inside an upstream error or a URL is caught too.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

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

/** Replaces every registered secret inside a string. */
export function scrubSecrets(text: string): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('[redacted]');
  return out;
}

export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    hooks: {
      logMethod(args, method) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? scrubSecrets(arg) : arg)) as Parameters<typeof method>,
        );
      },
    },
    formatters: {
      log(object) {
        return JSON.parse(scrubSecrets(JSON.stringify(object, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)))) as Record<string, unknown>;
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** A logger that writes nothing, for tests and library use. */
export const silentLogger: Logger = pino({ level: 'silent' });
