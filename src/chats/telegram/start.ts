/**
 * The Telegram chat: grammY over long polling (grammY's runner: updates handled concurrently, in
 * order within a chat) or a webhook, every command of `commands/` through the Dispatcher, cards as
 * HTML with inline keyboards, pasted addresses answered with the token card, and the alert sender
 * for delivery. The only place (with its folder) that imports grammY.
 *
 * Where a reply goes: to the message it answers, in that message's forum topic when it has one
 * (handlers.ts). When: each chat's commands, pastes and button presses wait in that chat's own
 * queue through the inbox (src/chats/inbox.ts), answered one at a time at the chat's pace, so a
 * chat that floods the bot delays only itself; past 20 waiting, what it sends is skipped, and the
 * chat told so at most once a minute. How updates come: updates.ts.
 */
import { GrammyError, type Bot, type Context, type Transformer } from 'grammy';
import type { Dispatcher } from '../../dispatch/dispatcher';
import type { ChatQueue, ChatQueueOptions } from '../../dispatch/chatQueue';
import { registerSecret, type Logger } from '../../log';
import { redactUrl } from '../../urlCredentials';
import type { Store } from '../../store/store';
import { chatKey } from '../../model/chat';
import { AdminCache, DEFAULT_ADMIN_CACHE_MS } from './admins';
import { createTelegramBot, type TelegramPace } from './api';
import { describeFailures } from './failureBodies';
import { classifyTelegramError } from './failures';
import { escapeHtml } from './html';
import type { PasteLimitOptions } from '../pasteLimits';
import { sendRendered } from './send';
import { TelegramRequestCounts } from './requestCounts';
import { TelegramAlertSender } from './sender';
import { ChatStartTimeoutError, DEFAULT_CHAT_START_TIMEOUT_MS, reachAtStart } from '../reachAtStart';
import { ChatInbox, SKIPPED_NOTICE } from '../inbox';
import { chatRefOf, handleTelegramUpdates, telegramCommandName } from './handlers';
import { longPolling, serveWebhook, type TelegramWebhook, type TelegramWebhookOptions } from './updates';
import { newErrorId } from '../../dispatch/dispatcher';
import { TELEGRAM_POLLER_LEASE } from './pollerLease';
import type { LeasedWork } from '../../cluster/parts';

export { ALLOWED_UPDATES, type TelegramWebhookOptions } from './updates';
export { chatRefOf };

export interface TelegramChatOptions {
  token: string;
  apiRoot?: string | null;
  /** Told when the bot's removal from a chat, or its return, paused or resumed it: the watcher re-reads its targets. */
  onPausesChanged?: () => void;
  webhook?: TelegramWebhookOptions | null;
  dispatcher: Dispatcher;
  store: Store;
  logger: Logger;
  pasteLimits?: PasteLimitOptions;
  adminCacheMs?: number;
  /** Longest 429 retry_after waited for inside one call (see api.ts). */
  maxRetryDelaySeconds?: number;
  pace?: TelegramPace;
  /** Each chat's queue of input: its cap and how often a chat is told input was skipped. */
  chatQueue?: ChatQueueOptions;
  /** How long getMe is asked again at start before start-up stops (CHAT_START_TIMEOUT; default 60 s). */
  startTimeoutMs?: number;
  now?: () => Date;
  /**
   * How updates come (default 'poll'): 'poll' polls from the start; 'held' is long polling started
   * and stopped by `poller` (several processes: the one holding the poller lease polls, as
   * Telegram serves getUpdates to one client); 'none' takes no updates at all (a process that only
   * sends alerts: it neither polls nor touches the webhook). A webhook, when set, overrides it.
   */
  updates?: 'poll' | 'held' | 'none';
}

export interface RunningTelegramChat {
  readonly name: 'telegram';
  readonly sender: TelegramAlertSender;
  readonly bot: Bot<Context>;
  /** The bot's @username, without the @. */
  readonly username: string;
  /** Never ends by itself: runs until stopped. */
  readonly ended: null;
  /** In webhook mode, the local address the webhook server listens on (http://host:port). */
  readonly webhookAddress: string | null;
  /** What each chat sent that waits for its answer, and what was skipped. */
  readonly queue: ChatQueue;
  /** Bot API requests by status, for the operators' metrics. */
  requests(): Record<string, number>;
  /** Whether the Bot API answers: the last poll for updates got an answer (webhook mode: always). */
  connected(): boolean;
  /** With `updates: 'held'`: starts and stops long polling. */
  readonly poller?: LeasedWork;
  stop(): Promise<void>;
}

/**
 * The runner retries a failed getUpdates by itself, and would print each failure to standard error
 * as a plain stack trace (a network error's holds the request URL, bot token included). It runs
 * silent; each failure is one log line here instead. A poll cut short by stop is no failure.
 */
function logPollingFailures(logger: Logger): Transformer {
  return async (prev, method, payload, signal) => {
    if (method !== 'getUpdates') return prev(method, payload, signal);
    try {
      const answer = await prev(method, payload, signal);
      if (!answer.ok)
        logger.warn(
          { reason: classifyTelegramError(new GrammyError('getUpdates failed', answer, method, payload)).reason },
          'Telegram getUpdates failed',
        );
      return answer;
    } catch (error) {
      if (signal?.aborted !== true) logger.warn({ reason: classifyTelegramError(error).reason }, 'Telegram getUpdates failed');
      throw error;
    }
  };
}

/** The bot, reached at start: getMe for a bounded time (reachAtStart.ts), as grammY's own init would retry it without end. */
async function connectBot(options: TelegramChatOptions, requests: TelegramRequestCounts, logger: Logger): Promise<Bot<Context>> {
  const bot = createTelegramBot({
    token: options.token,
    apiRoot: options.apiRoot ?? null,
    innermost: requests.transformer,
    ...(options.maxRetryDelaySeconds === undefined ? {} : { maxRetryDelaySeconds: options.maxRetryDelaySeconds }),
    ...(options.pace === undefined ? {} : { pace: options.pace }),
  });
  // A failure a server tells in a body of its own still gives its reason (setMyCommands, sends).
  bot.api.config.use(describeFailures, logPollingFailures(logger));
  try {
    bot.botInfo = await reachAtStart({
      timeoutMs: options.startTimeoutMs ?? DEFAULT_CHAT_START_TIMEOUT_MS,
      // grammY types its signal with its own AbortSignal shim; Node's is what it is given at run time.
      attempt: (signal) => bot.api.getMe(signal as unknown as Parameters<typeof bot.api.getMe>[0]),
      // The network, Telegram's front (5xx) or its rate limit may clear; a refused token or address will not.
      retryable: (error) => !(error instanceof GrammyError) || error.error_code >= 500 || error.error_code === 429,
      describe: (error) => classifyTelegramError(error).reason,
    });
  } catch (error) {
    if (error instanceof ChatStartTimeoutError) {
      const api = redactUrl(options.apiRoot ?? 'https://api.telegram.org');
      throw new Error(
        `Telegram: the Bot API at ${api} did not answer getMe: ${error.message}; ` +
          'check TELEGRAM_API_ROOT and the network, or raise CHAT_START_TIMEOUT',
      );
    }
    const failure = classifyTelegramError(error);
    throw new Error(`Telegram: the Bot API refused to start the bot (${failure.reason}); check TELEGRAM_BOT_TOKEN and TELEGRAM_API_ROOT`);
  }
  return bot;
}

/** The inbox of every chat of the bot: a skipped input is told in the chat itself, as a message. */
function telegramInbox(options: TelegramChatOptions, bot: Bot<Context>, now: () => Date): ChatInbox {
  const { logger } = options;
  const inbox: ChatInbox = new ChatInbox({
    dispatcher: options.dispatcher,
    ...(options.chatQueue === undefined ? {} : { queue: options.chatQueue }),
    ...(options.pasteLimits === undefined ? {} : { pasteLimits: options.pasteLimits }),
    now: () => now().getTime(),
    failed: (error, chat) => logger.error({ errorId: newErrorId(), err: error, chat: chatKey(chat) }, 'Telegram update failed'),
    tellSkipped: async (chat) => {
      logger.info(
        { chat: chatKey(chat), skippedSinceStart: inbox.queue.counts().dropped },
        'Telegram chat sent more than its queue holds: the rest is skipped',
      );
      const target = { chatId: chat.chatId, threadId: chat.threadId === null ? null : Number(chat.threadId), replyTo: null };
      await sendRendered(bot.api, target, [{ kind: 'text', html: escapeHtml(SKIPPED_NOTICE), keyboard: null, previewUrl: null }]).catch(
        (error: unknown) =>
          logger.warn({ chat: chat.chatId, reason: classifyTelegramError(error).reason }, 'Telegram notice of skipped commands not sent'),
      );
    },
  });
  return inbox;
}

/** The command menu; a process that only sends alerts leaves it to the one that takes updates. */
async function setMenu(bot: Bot<Context>, dispatcher: Dispatcher, logger: Logger): Promise<void> {
  try {
    await bot.api.setMyCommands(
      dispatcher.commands
        .map((command) => ({ command: telegramCommandName(command.name), description: command.description.slice(0, 256) }))
        .filter((command) => /^[a-z0-9_]{1,32}$/.test(command.command) && command.description.length >= 1),
    );
  } catch (error) {
    // The menu is a convenience; commands still work without it.
    logger.warn({ reason: classifyTelegramError(error).reason }, 'Telegram setMyCommands failed');
  }
}

const MODES = {
  webhook: 'webhook',
  poll: 'long polling',
  held: 'long polling while this process holds the poller lease',
  none: 'alerts only, no updates',
} as const;

export async function startTelegramChat(options: TelegramChatOptions): Promise<RunningTelegramChat> {
  const { dispatcher, store, logger } = options;
  const now = options.now ?? (() => new Date());
  registerSecret(options.token);
  const requests = new TelegramRequestCounts();
  const bot = await connectBot(options, requests, logger);
  const username = bot.botInfo.username;
  const admins = new AdminCache(bot.api, options.adminCacheMs ?? DEFAULT_ADMIN_CACHE_MS, () => now().getTime());
  const inbox = telegramInbox(options, bot, now);
  const sender = new TelegramAlertSender({
    api: bot.api,
    logger,
    onMigrated: (from, to) => store.chats.migrate('telegram', from, to),
    now: () => now().getTime(),
  });
  handleTelegramUpdates({
    ...{ bot, inbox, store, logger, admins, username, now },
    ...(options.onPausesChanged === undefined ? {} : { onPausesChanged: options.onPausesChanged }),
  });

  const updates = options.webhook ? 'webhook' : (options.updates ?? 'poll');
  if (updates !== 'none') await setMenu(bot, dispatcher, logger);
  const webhook: TelegramWebhook | null = options.webhook ? await serveWebhook(bot, options.webhook, logger) : null;
  const polling = longPolling(bot, logger);
  if (updates === 'poll') await polling.start();
  logger.info({ bot: username, mode: MODES[updates] }, 'Telegram chat started');

  return {
    name: 'telegram',
    sender,
    bot,
    username,
    ended: null,
    webhookAddress: webhook?.address ?? null,
    queue: inbox.queue,
    requests: () => requests.statuses(),
    connected: () => updates === 'none' || (updates === 'held' && !polling.running()) || requests.pollingAnswered(),
    ...(updates === 'held' ? { poller: { lease: TELEGRAM_POLLER_LEASE, start: polling.start, stop: polling.stop } } : {}),
    async stop() {
      await polling.stop();
      // The webhook stays set: Telegram keeps the updates for the next start.
      await webhook?.close();
      // What still waits for its turn is not run (a chat's turn can be seconds away at its pace);
      // answers under way finish, before the store they may write to closes.
      const dropped = await inbox.stop();
      if (dropped > 0) logger.info({ dropped }, 'Telegram: commands still waiting at shutdown were not run');
    },
  };
}
