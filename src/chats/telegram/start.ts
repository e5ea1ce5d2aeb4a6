/**
 * The Telegram chat: grammY over long polling (grammY's runner: updates handled concurrently, in
 * order within a chat) or a webhook, every command of `commands/` through the Dispatcher, cards as
 * HTML with inline keyboards, pasted addresses answered with the token card, and the alert sender
 * for delivery. The only place (with its folder) that imports grammY.
 *
 * Where a reply goes: to the message it answers, in that message's forum topic when it has one.
 * When: each chat's commands, pastes and button presses wait in that chat's own queue
 * (src/dispatch/chatQueue.ts), answered one at a time at the chat's pace, so a chat that floods
 * the bot delays only itself; past 20 waiting, what it sends is skipped (see `enqueue`).
 * Who may change a group (track, untrack, mute, settings): its administrators and creator, asked
 * of Telegram and remembered for a minute (admins.ts); in a private chat, the person in it.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { run, sequentialize, type RunnerHandle } from '@grammyjs/runner';
import { GrammyError, webhookCallback, type Bot, type Context, type Transformer } from 'grammy';
import type { Message, MessageEntity } from 'grammy/types';
import { plainText } from '../../cards/card';
import { cooldownCard } from '../../cards/noticeCard';
import { ChatQueue, ChatQueueStoppedError, DEFAULT_CHAT_QUEUE, SKIPPED_NOTICE, type ChatQueueOptions } from '../../dispatch/chatQueue';
import type { Dispatcher, CommandCaller } from '../../dispatch/dispatcher';
import { registerSecret, type Logger } from '../../log';
import { redactUrl } from '../../urlCredentials';
import type { Store } from '../../store/store';
import { chatKey, type ChatRef } from '../../model/chat';
import { type ChatReply } from '../../dispatch/reply';
import { AdminCache, DEFAULT_ADMIN_CACHE_MS } from './admins';
import { createTelegramBot, type TelegramPace } from './api';
import { detectAddress } from '../pasteDetect';
import { describeFailures } from './failureBodies';
import { classifyTelegramError } from './failures';
import { escapeHtml, plainNotice, renderCardMessages } from './html';
import { DEFAULT_PASTE_LIMITS, PasteLimiter, type PasteLimitOptions } from '../pasteLimits';
import { sendRendered, type SendTarget } from './send';
import { TelegramRequestCounts } from './requestCounts';
import { TelegramAlertSender } from './sender';
import { ChatStartTimeoutError, DEFAULT_CHAT_START_TIMEOUT_MS, reachAtStart } from '../reachAtStart';

/** The updates the bot asks for; anything else Telegram keeps to itself. */
export const ALLOWED_UPDATES = ['message', 'callback_query', 'my_chat_member'] as const;

/**
 * A message an administrator sent anonymously, "as the group": Telegram gives it from
 * GroupAnonymousBot, a bot, with the group itself as sender_chat. Every other bot's message is
 * dropped (bots answering bots loop), but this one is a manager speaking (admins.ts), so a group
 * whose administrators all post anonymously can still configure the bot. A linked channel's post
 * (sender_chat the channel, not the group) stays dropped.
 */
function isAnonymousAdmin(message: Message): boolean {
  return message.sender_chat !== undefined && message.sender_chat.id === message.chat.id;
}

export interface TelegramWebhookOptions {
  /** The public HTTPS address Telegram posts to; its path is where the local server listens. */
  url: string;
  /** Telegram's secret_token, checked on every post; a random one per start when null. */
  secret: string | null;
  port: number;
  /** Listen address (default all interfaces, as behind a reverse proxy). */
  host?: string;
}

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
  readonly poller?: { start(): Promise<void>; stop(): Promise<void> };
  stop(): Promise<void>;
}

/** A message's chat as the rest of the bot names it: the forum topic is part of it. */
export function chatRefOf(message: Pick<Message, 'chat' | 'message_thread_id' | 'is_topic_message'>): ChatRef {
  const thread = message.is_topic_message === true && message.message_thread_id !== undefined ? String(message.message_thread_id) : null;
  return { platform: 'telegram', chatId: String(message.chat.id), threadId: thread, scopeId: null };
}

/** Targets of links hidden behind text and of plain links, for address detection. */
function linksOf(entities: readonly MessageEntity[] | undefined): string[] {
  return (entities ?? []).flatMap((entity) => (entity.type === 'text_link' ? [entity.url] : []));
}

/** Telegram command names allow letters, digits and underscores; ours may have dashes. */
function telegramCommandName(name: string): string {
  return name.replace(/-/g, '_');
}

/** A refusal or notice shown in a callback answer: Telegram shows 200 characters of plain text. */
function noticeText(reply: ChatReply): string {
  const description = reply.card.description === undefined ? '' : plainText(reply.card.description);
  return plainNotice(description === '' ? reply.card.title : `${reply.card.title}: ${description}`);
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

export async function startTelegramChat(options: TelegramChatOptions): Promise<RunningTelegramChat> {
  const { dispatcher, store, logger } = options;
  const now = options.now ?? (() => new Date());
  registerSecret(options.token);
  const requests = new TelegramRequestCounts();
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
    // getMe for a bounded time (reachAtStart.ts): grammY's own init would retry it without end.
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
      throw new Error(
        `Telegram: the Bot API at ${redactUrl(options.apiRoot ?? 'https://api.telegram.org')} did not answer getMe: ${error.message}; check TELEGRAM_API_ROOT and the network, or raise CHAT_START_TIMEOUT`,
      );
    }
    const failure = classifyTelegramError(error);
    throw new Error(`Telegram: the Bot API refused to start the bot (${failure.reason}); check TELEGRAM_BOT_TOKEN and TELEGRAM_API_ROOT`);
  }
  const username = bot.botInfo.username;
  const admins = new AdminCache(bot.api, options.adminCacheMs ?? DEFAULT_ADMIN_CACHE_MS, () => now().getTime());
  const pastes = new PasteLimiter(options.pasteLimits ?? DEFAULT_PASTE_LIMITS);
  const queue = new ChatQueue(options.chatQueue ?? DEFAULT_CHAT_QUEUE);
  /** Notices that a chat's input was skipped, on their way (stop waits for them). */
  const notices = new Set<Promise<void>>();
  // Telegram's menu names (underscores) and our own (dashes) both lead to the command.
  const byName = new Map(
    dispatcher.commands.flatMap((command) => [
      [telegramCommandName(command.name), command.name] as const,
      [command.name, command.name] as const,
    ]),
  );
  const sender = new TelegramAlertSender({
    api: bot.api,
    logger,
    onMigrated: (from, to) => store.chats.migrate('telegram', from, to),
    now: () => now().getTime(),
  });

  /** The author as the chat shows them (untrusted text): an anonymous administrator is the group's title. */
  const displayNameOf = (message: Message): string | null => {
    if (message.sender_chat !== undefined && 'title' in message.sender_chat) return message.sender_chat.title ?? null;
    const from = message.from;
    if (from === undefined) return null;
    return [from.first_name, from.last_name].filter((part) => part !== undefined && part !== '').join(' ') || (from.username ?? null);
  };

  const callerOf = (message: Message, userId: number): CommandCaller => ({
    chat: chatRefOf(message),
    userId: String(userId),
    isManager: () =>
      admins.isManager({ chatId: message.chat.id, chatType: message.chat.type, userId, senderChatId: message.sender_chat?.id ?? null }),
  });

  const answer = async (reply: ChatReply, target: SendTarget): Promise<void> => {
    try {
      await sendRendered(bot.api, target, renderCardMessages(reply.card, reply.buttons));
    } catch (error) {
      logger.warn(
        { chat: String(target.chatId), reason: classifyTelegramError(error).reason, errorId: reply.errorId },
        'Telegram reply not sent',
      );
    }
  };

  /** `/name@bot args` as the command to run and its arguments, or null for a command meant for another bot. */
  const commandOf = (message: Message, text: string): { name: string; args: string } | null => {
    const head = text.split(/\s/, 1)[0] ?? '';
    const rest = text.slice(head.length).trim();
    const addressed = /@(\w+)$/.exec(head)?.[1];
    if (addressed !== undefined && addressed.toLowerCase() !== username.toLowerCase()) return null;
    const typed = head.replace(/^\//, '').replace(/@\w+$/, '').toLowerCase();
    // /start opens every private chat; with a deep-link address (t.me/bot?start=ADDR) it is /token.
    if (typed === 'start') {
      const address = detectAddress(rest);
      return address !== null && byName.has('token') ? { name: 'token', args: address.address } : { name: 'help', args: '' };
    }
    const name = byName.get(typed);
    // In a group, an unknown bare command is another bot's: answering it would be noise.
    if (name === undefined && message.chat.type !== 'private' && addressed === undefined) return null;
    return { name: name ?? typed, args: rest };
  };

  /**
   * Hands one piece of a chat's input to that chat's queue and returns at once: running it,
   * answering and waiting for the chat's pace happen in the chat's own lane, never in the runner's
   * slot (or the webhook's request), which another chat's update may need. Past the lane's cap the
   * input is dropped and the chat told so, at most once a minute. False when dropped.
   */
  const enqueue = (chat: ChatRef, target: SendTarget, work: () => Promise<void>): boolean => {
    const offer = queue.offer(chatKey(chat), work);
    if (offer.accepted) {
      offer.done.catch((error: unknown) => {
        // Input still waiting at shutdown is not run: nothing failed.
        if (error instanceof ChatQueueStoppedError) return;
        logger.error({ errorId: randomBytes(4).toString('hex'), err: error, chat: chatKey(chat) }, 'Telegram update failed');
      });
      return true;
    }
    if (offer.notice) {
      logger.info(
        { chat: chatKey(chat), skippedSinceStart: queue.counts().dropped },
        'Telegram chat sent more than its queue holds: the rest is skipped',
      );
      const notice = sendRendered(bot.api, { ...target, replyTo: null }, [
        { kind: 'text', html: escapeHtml(SKIPPED_NOTICE), keyboard: null, previewUrl: null },
      ]).then(
        () => undefined,
        (error: unknown) =>
          logger.warn(
            { chat: String(target.chatId), reason: classifyTelegramError(error).reason },
            'Telegram notice of skipped commands not sent',
          ),
      );
      notices.add(notice);
      void notice.finally(() => notices.delete(notice));
    }
    return false;
  };

  /** A button press, in its chat's turn: the action's answer, a Refresh's edit, or a refusal shown to the presser. */
  const press = async (message: Message, queryId: string, data: string, caller: CommandCaller, target: SendTarget): Promise<void> => {
    const reply = await dispatcher.press(data, caller);
    if (reply.ephemeral) {
      // Refusals and expired buttons are shown to the presser alone, as an alert.
      await bot.api.answerCallbackQuery(queryId, { text: noticeText(reply), show_alert: true });
      return;
    }
    await bot.api.answerCallbackQuery(queryId);
    const messages = renderCardMessages(reply.card, reply.buttons);
    const [only] = messages;
    if (reply.refresh && messages.length === 1 && only?.kind === 'text' && message.text !== undefined) {
      try {
        await bot.api.editMessageText(message.chat.id, message.message_id, only.html, {
          parse_mode: 'HTML',
          ...(only.keyboard === null ? {} : { reply_markup: only.keyboard }),
          link_preview_options: only.previewUrl === null ? { is_disabled: true } : { url: only.previewUrl, prefer_small_media: true },
        });
        return;
      } catch (error) {
        // Nothing changed since the card was shown: Telegram refuses the edit, and the card is right as it is.
        if (/message is not modified/i.test(classifyTelegramError(error).reason)) return;
        logger.debug({ reason: classifyTelegramError(error).reason }, 'refresh could not edit; sending anew');
      }
    }
    await answer(reply, target);
  };

  const detectionOn = async (chat: ChatRef, chatType: string): Promise<boolean> => {
    if (!byName.has('token')) return false;
    const setting = (await store.chats.settings(chat)).detectAddresses;
    // On by default in private chats, off in groups until an administrator switches it on.
    return setting ?? chatType === 'private';
  };

  // One chat's updates are handed to its queue in the order they came, even past an await (a
  // paste reads the chat's settings first); the handing is quick, the work waits in the queue.
  bot.use(sequentialize((ctx: Context) => (ctx.chat === undefined ? undefined : String(ctx.chat.id))));

  bot.on('message:migrate_to_chat_id', async (ctx) => {
    const from = String(ctx.message.chat.id);
    const to = String(ctx.message.migrate_to_chat_id);
    await store.chats.migrate('telegram', from, to);
    logger.info({ from, to }, 'Telegram group became a supergroup: its follows moved');
  });

  bot.on('my_chat_member', async (ctx) => {
    const chat = { platform: 'telegram' as const, chatId: String(ctx.myChatMember.chat.id) };
    const status = ctx.myChatMember.new_chat_member.status;
    if (status === 'kicked' || status === 'left') {
      await store.chats.pause(chat, status === 'kicked' ? 'bot removed or blocked' : 'bot left the chat', now());
      logger.info({ chat: chat.chatId, status }, 'Telegram chat paused: the bot was removed');
      options.onPausesChanged?.();
    } else if ((await store.chats.pausedReason(chat)) !== null) {
      await store.chats.resume(chat);
      logger.info({ chat: chat.chatId, status }, 'Telegram chat resumed: the bot is back');
      options.onPausesChanged?.();
    }
  });

  bot.on('callback_query:data', async (ctx) => {
    const query = ctx.callbackQuery;
    const pressed = query.message;
    if (pressed === undefined || !('chat' in pressed) || pressed.date === 0) {
      await ctx.answerCallbackQuery({ text: 'This button can no longer be used. Run the command again.', show_alert: true });
      return;
    }
    const message = pressed as Message;
    const caller = callerOf(message, query.from.id);
    const target: SendTarget = {
      chatId: message.chat.id,
      threadId: caller.chat.threadId === null ? null : Number(caller.chat.threadId),
      replyTo: null,
    };
    if (enqueue(caller.chat, target, () => press(message, query.id, query.data, caller, target))) return;
    // Telegram shows the presser a spinner until the press is answered: a skipped one is told so, to the presser alone.
    await ctx.answerCallbackQuery({ text: SKIPPED_NOTICE });
  });

  bot.on(['message:text', 'message:caption'], async (ctx) => {
    const message = ctx.message;
    const from = message.from;
    if (from === undefined || (from.is_bot && !isAnonymousAdmin(message))) return;
    const text = message.text ?? message.caption ?? '';
    // A post names its author and itself: a token's first post may be recorded as that person's call.
    const caller: CommandCaller = {
      ...callerOf(message, from.id),
      userName: displayNameOf(message),
      messageId: String(message.message_id),
    };
    const target: SendTarget = {
      chatId: message.chat.id,
      threadId: caller.chat.threadId === null ? null : Number(caller.chat.threadId),
      replyTo: message.message_id,
    };
    if (text.startsWith('/')) {
      const command = commandOf(message, text);
      if (command !== null)
        enqueue(caller.chat, target, async () =>
          answer(await dispatcher.run(command.name, { kind: 'text', text: command.args }, caller), target),
        );
      return;
    }
    if (!(await detectionOn(caller.chat, message.chat.type))) return;
    const found = detectAddress(text, linksOf(message.entities ?? message.caption_entities));
    if (found === null) return;
    const isPrivate = message.chat.type === 'private';
    const waitMs = pastes.take(chatKey(caller.chat), caller.userId, found.address, now().getTime());
    if (waitMs > 0) {
      // A group is not told (the answer would be the flood the limits keep out); in a private chat the
      // person is the only reader, and silence would look like a dead bot: they are told how long to wait.
      if (isPrivate)
        enqueue(caller.chat, target, () =>
          answer({ card: cooldownCard('token', waitMs), buttons: [], ephemeral: true, errorId: null }, target),
        );
      return;
    }
    enqueue(caller.chat, target, async () => {
      const reply = await dispatcher.run('token', { kind: 'text', text: found.address }, caller);
      // A paste that is no token (a wallet, a pool, a typo) gets no answer in a group: only the card is wanted there.
      if ((reply.errorId !== null || reply.card.color === 'error') && !isPrivate) return;
      await answer(reply, target);
    });
  });

  bot.catch((error) => {
    const errorId = randomBytes(4).toString('hex');
    logger.error({ errorId, err: error.error, updateId: error.ctx.update.update_id }, 'Telegram update failed');
  });

  const updates = options.webhook ? 'webhook' : (options.updates ?? 'poll');
  // A process that only sends alerts leaves the menu to the one that takes updates.
  if (updates !== 'none') {
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

  let runner: RunnerHandle | null = null;
  let server: Server | null = null;
  let webhookAddress: string | null = null;
  if (options.webhook) {
    const secret = options.webhook.secret ?? randomBytes(24).toString('base64url');
    registerSecret(secret);
    const path = new URL(options.webhook.url).pathname || '/';
    // Updates go to the chats' queues, so a post ends at once; the timeout only guards the rest.
    const handle = webhookCallback(bot, 'http', { secretToken: secret, onTimeout: 'return', timeoutMilliseconds: 9_000 });
    server = createServer((req, res) => {
      const requestPath = (req.url ?? '/').split('?', 1)[0];
      if (req.method !== 'POST' || requestPath !== path) {
        res.writeHead(404).end();
        return;
      }
      handle(req, res).catch((error: unknown) => {
        logger.warn({ err: error }, 'Telegram webhook request failed');
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    const listening = server;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(options.webhook?.port ?? 8080, options.webhook?.host ?? '0.0.0.0', () => resolve());
    });
    const address = listening.address() as AddressInfo;
    webhookAddress = `http://${address.address}:${address.port}`;
    await bot.api.setWebhook(options.webhook.url, { secret_token: secret, allowed_updates: [...ALLOWED_UPDATES] });
    logger.info({ url: redactUrl(options.webhook.url), listen: webhookAddress }, 'Telegram webhook set');
  }
  const startPolling = async (): Promise<void> => {
    if (runner?.isRunning() === true) return;
    // Telegram refuses getUpdates while a webhook is set (from an earlier run in webhook mode).
    await bot.api.deleteWebhook();
    const started = run(bot, { runner: { fetch: { allowed_updates: [...ALLOWED_UPDATES] }, silent: true } });
    runner = started;
    // The runner gives up on what retrying cannot mend (401: the token was revoked; 409: another
    // process polls with it); its task would end in an unhandled rejection. Alerts still go out.
    started.task()?.catch((error: unknown) => {
      logger.error(
        { reason: classifyTelegramError(error).reason },
        'Telegram long polling stopped: commands are not received until the bot restarts',
      );
    });
  };
  const stopPolling = async (): Promise<void> => {
    if (runner?.isRunning() === true) await runner.stop();
  };
  if (updates === 'poll') await startPolling();
  const modes = {
    webhook: 'webhook',
    poll: 'long polling',
    held: 'long polling while this process holds the poller lease',
    none: 'alerts only, no updates',
  } as const;
  logger.info({ bot: username, mode: modes[updates] }, 'Telegram chat started');

  return {
    name: 'telegram',
    sender,
    bot,
    username,
    ended: null,
    webhookAddress,
    queue,
    requests: () => requests.statuses(),
    connected: () => updates === 'none' || (updates === 'held' && runner?.isRunning() !== true) || requests.pollingAnswered(),
    ...(updates === 'held' ? { poller: { start: startPolling, stop: stopPolling } } : {}),
    async stop() {
      await stopPolling();
      const closing = server;
      if (closing !== null) {
        // The webhook stays set: Telegram keeps the updates for the next start.
        closing.closeIdleConnections();
        await new Promise<void>((resolve) => closing.close(() => resolve()));
      }
      // What still waits for its turn is not run (a chat's turn can be seconds away at its pace);
      // answers under way finish, before the store they may write to closes.
      const dropped = await queue.stop();
      if (dropped > 0) logger.info({ dropped }, 'Telegram: commands still waiting at shutdown were not run');
      await Promise.all([...notices]);
    },
  };
}
