/**
 * Telegram's settings section: TELEGRAM_BOT_TOKEN switches the platform on; TELEGRAM_API_ROOT,
 * TELEGRAM_WEBHOOK_URL, TELEGRAM_WEBHOOK_SECRET and TELEGRAM_WEBHOOK_PORT say how it is reached.
 * Read from the environment the other settings were read from (`Config.env`, src/config.ts) and
 * checked against them: the webhook's secret against the roles, its port against HTTP_PORT. A wrong
 * value stops start-up with one line naming the variable, as every setting does (ConfigError).
 */
import { z } from 'zod';
import { ConfigError, httpUrl, wholeNumber, type Config } from '../../config';

export interface TelegramSettings {
  token: string;
  /** Bot API server, without a trailing slash (default https://api.telegram.org). */
  apiRoot: string | null;
  /** Null: long polling. Otherwise the public HTTPS URL Telegram posts updates to. */
  webhook: { url: string; secret: string | null; port: number } | null;
}

/** The variable that switches Telegram on. */
export const TELEGRAM_TOKEN_VARIABLE = 'TELEGRAM_BOT_TOKEN';

const TelegramSchema = z.object({
  TELEGRAM_BOT_TOKEN: z.string().optional(),
  TELEGRAM_API_ROOT: httpUrl('TELEGRAM_API_ROOT', ['http:', 'https:']),
  TELEGRAM_WEBHOOK_URL: httpUrl('TELEGRAM_WEBHOOK_URL', ['https:', 'http:']),
  TELEGRAM_WEBHOOK_SECRET: z.string().optional(),
  TELEGRAM_WEBHOOK_PORT: wholeNumber('TELEGRAM_WEBHOOK_PORT', 1, 65_535, 8080),
});

/** Telegram's token form, `<bot id>:<secret>`; checked so a pasted typo fails at start, not on the first call. */
const TELEGRAM_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{1,100}$/;
/** What Telegram accepts as a webhook secret_token. */
const WEBHOOK_SECRET = /^[A-Za-z0-9_-]{1,256}$/;

/**
 * Telegram's settings, or null without TELEGRAM_BOT_TOKEN. `config` is the rest of the settings:
 * its `env` holds the variables, its roles and HTTP server what the webhook is checked against.
 */
export function readTelegramSettings(config: Pick<Config, 'env' | 'roles' | 'http'>): TelegramSettings | null {
  const parsed = TelegramSchema.parse(config.env);
  const token = parsed.TELEGRAM_BOT_TOKEN?.trim() ?? '';
  const secret = parsed.TELEGRAM_WEBHOOK_SECRET?.trim() ?? '';
  if (token === '') {
    if (parsed.TELEGRAM_WEBHOOK_URL !== undefined)
      throw new ConfigError('TELEGRAM_BOT_TOKEN', 'is required when TELEGRAM_WEBHOOK_URL is set');
    return null;
  }
  // The value is never echoed: it is a secret.
  if (!TELEGRAM_TOKEN.test(token))
    throw new ConfigError('TELEGRAM_BOT_TOKEN', 'must be the token BotFather gave, digits, a colon, then letters, digits, _ or -');
  if (secret !== '' && !WEBHOOK_SECRET.test(secret))
    throw new ConfigError('TELEGRAM_WEBHOOK_SECRET', 'must be 1-256 letters, digits, _ or -');
  const webhook =
    parsed.TELEGRAM_WEBHOOK_URL === undefined
      ? null
      : { url: parsed.TELEGRAM_WEBHOOK_URL, secret: secret === '' ? null : secret, port: parsed.TELEGRAM_WEBHOOK_PORT };
  checkWebhook(webhook, config);
  return { token, apiRoot: parsed.TELEGRAM_API_ROOT ?? null, webhook };
}

/**
 * The webhook against the other settings. Served by every process with the telegram role behind
 * one address (TOKENWATCH_ROLES), it needs one fixed secret they all check: each would otherwise
 * set its own random one and refuse the others' updates. Its server listens on every interface at
 * its own port: the operators' server (HTTP_PORT) on the same one would fail at start, so it is
 * named now.
 */
function checkWebhook(webhook: TelegramSettings['webhook'], config: Pick<Config, 'roles' | 'http'>): void {
  if (webhook === null) return;
  if (config.roles.clustered && config.roles.set.has('telegram') && webhook.secret === null) {
    throw new ConfigError(
      'TELEGRAM_WEBHOOK_SECRET',
      'is required with TOKENWATCH_ROLES and TELEGRAM_WEBHOOK_URL: every process serving the webhook must check the same secret',
    );
  }
  if (config.http !== null && config.http.port === webhook.port) {
    throw new ConfigError(
      'HTTP_PORT',
      `and TELEGRAM_WEBHOOK_PORT are both ${config.http.port}: the operators' server and Telegram's webhook need a port each`,
    );
  }
}
