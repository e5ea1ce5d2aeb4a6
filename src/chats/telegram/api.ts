/**
 * The grammY bot as TokenWatch uses it: pointed at the configured Bot API server, with Telegram's
 * pace kept on every message it sends, and a capped retry of what Telegram asks to be retried.
 *
 * Order matters: the pace is installed first and auto-retry second, so auto-retry wraps the pace
 * and a retried call waits again for the chat's next slot.
 *
 * The pace (sendSlots.ts: each message waits for a time it reserved, which keeps every limit when
 * it leaves) applies only to what Telegram counts as messages — sends and edits — not to
 * getChatMember, answerCallbackQuery or getUpdates, which would otherwise wait a second behind a
 * chat's alerts. Its settings keep a small margin under Telegram's published limits, because
 * Telegram counts arrivals and a request's time on the wire varies: 29.4 messages a second overall
 * (one every 34 ms, evenly, never a burst of 30 at the turn of a second), one a second and a bit in
 * a chat, and 20 a minute in a group.
 *
 * Auto-retry waits out a 429's retry_after only up to `maxRetryDelaySeconds` (Telegram has
 * answered hours): past it, the error comes back to the caller, and delivery reschedules that
 * chat's alerts instead of holding a send — and the chats behind it — for an hour. Network errors
 * are not retried here (the plugin would retry them forever); delivery and the runner retry.
 */
import { autoRetry } from '@grammyjs/auto-retry';
import { Bot, type Context, type Transformer } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { DEFAULT_PACE, SendSlots, type TelegramPace } from './sendSlots';

export { DEFAULT_PACE, type TelegramPace } from './sendSlots';

/** Methods Telegram counts against a chat's and the bot's sending limits. */
export const PACED_METHODS: ReadonlySet<string> = new Set([
  'sendMessage',
  'sendPhoto',
  'sendDocument',
  'sendMediaGroup',
  'copyMessage',
  'forwardMessage',
  'editMessageText',
  'editMessageCaption',
  'editMessageMedia',
  'editMessageReplyMarkup',
]);

export interface TelegramBotOptions {
  token: string;
  /** A Bot API server other than Telegram's (no trailing slash). */
  apiRoot?: string | null;
  /** Longest 429 retry_after waited for inside a call; longer ones come back as errors. */
  maxRetryDelaySeconds?: number;
  /** Retries of one call after a 429 or a 5xx. */
  maxRetryAttempts?: number;
  pace?: TelegramPace;
  /** Bot info known beforehand (tests and restarts skip a getMe). */
  botInfo?: UserFromGetMe;
  /** Installed first, so it sees every HTTP answer under the pace and the retries (requestCounts.ts). */
  innermost?: Transformer;
}

export const DEFAULT_MAX_RETRY_DELAY_SECONDS = 30;

/** Resolves at `at` (epoch ms), or rejects when `signal` aborts first. */
/** What a grammY transformer is given to abort with (its own AbortSignal type). */
type Abort = Parameters<Transformer>[3];

function waitUntil(at: number, signal: Abort): Promise<void> {
  const delay = at - Date.now();
  if (delay <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (): void => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const timer = setTimeout(done, delay);
    const aborted = (): void => {
      clearTimeout(timer);
      reject(new Error("aborted while waiting for Telegram's pace"));
    };
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** The pace (sendSlots.ts), for paced methods only: each waits for the slot it reserved, then goes. */
export function pacedTransformer(pace: TelegramPace = DEFAULT_PACE): Transformer {
  const slots = new SendSlots(pace);
  return async (prev, method, payload, signal) => {
    const chatId =
      PACED_METHODS.has(method) && payload !== undefined && payload !== null && 'chat_id' in payload ? String(payload.chat_id) : null;
    if (chatId !== null) await waitUntil(slots.reserve(chatId), signal);
    return prev(method, payload, signal);
  };
}

export function createTelegramBot(options: TelegramBotOptions): Bot<Context> {
  const bot = new Bot(options.token, {
    ...(options.botInfo === undefined ? {} : { botInfo: options.botInfo }),
    client: {
      ...(options.apiRoot ? { apiRoot: options.apiRoot } : {}),
      // A long poll is held up to 30 s by Telegram; anything else answers well within this.
      timeoutSeconds: 60,
    },
  });
  if (options.innermost !== undefined) bot.api.config.use(options.innermost);
  bot.api.config.use(pacedTransformer(options.pace ?? DEFAULT_PACE));
  bot.api.config.use(
    autoRetry({
      maxDelaySeconds: options.maxRetryDelaySeconds ?? DEFAULT_MAX_RETRY_DELAY_SECONDS,
      maxRetryAttempts: options.maxRetryAttempts ?? 3,
      rethrowHttpErrors: true,
    }),
  );
  return bot;
}
