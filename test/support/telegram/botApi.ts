/**
 * A local Telegram Bot API for tests and for trying the bot by hand: telegram-test-api (from the
 * npm registry) behind a small node:http front that adds what it lacks (see
 * ../shared/notes/testing-chat-platforms.md):
 *
 * - getUpdates that waits (up to `pollWaitMs`) for new updates instead of answering at once, and
 *   that also hands out raw updates a test pushes (chat member changes, migrations, forum topics);
 * - sendPhoto and sendDocument read as multipart (busboy), `attach://` parts resolved;
 * - getChatMember answering the status a test set (member by default), setMyCommands recorded,
 *   answerCallbackQuery recorded, editMessageText applied and recorded, getMe with a username;
 * - setWebhook with a secret token: updates are then POSTed to the bot with the
 *   X-Telegram-Bot-Api-Secret-Token header, as Telegram does;
 * - per chat failures: 403 "bot was blocked by the user", 403 "bot was kicked", 400 "chat not
 *   found", 400 "group chat was upgraded to a supergroup chat" with migrate_to_chat_id, and a
 *   429 with a chosen retry_after;
 * - a pace mode that answers 429 with retry_after past Telegram's limits (pace.ts), counting them.
 *
 * Everything else (the stock test client's routes: sendCommand, sendMessage, getUpdatesHistory)
 * goes to telegram-test-api's own request handler, so its TelegramClient works against this too.
 */
import { once } from 'node:events';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import busboy from 'busboy';
import TelegramServer from 'telegram-test-api';
import type { TelegramClient } from 'telegram-test-api/lib/modules/telegramClient';
import { PaceKeeper, TELEGRAM_LIMITS, type PaceLimits } from './pace';

export type ChatType = 'private' | 'group' | 'supergroup';

/** The user Telegram puts in `from` of a message an administrator sends anonymously, as the group. */
export const GROUP_ANONYMOUS_BOT = { id: 1_087_968_824, is_bot: true, first_name: 'Group', username: 'GroupAnonymousBot' } as const;
export type MemberStatus = 'creator' | 'administrator' | 'member' | 'restricted' | 'left' | 'kicked';

export interface TestUser {
  id: number;
  first_name: string;
  username?: string;
  is_bot: false;
}

export interface TestChat {
  id: number;
  type: ChatType;
  title?: string;
  first_name?: string;
  is_forum?: boolean;
}

/** A message the bot sent (or edited), as the tests read it. */
export interface BotMessage {
  method: string;
  messageId: number;
  chatId: string;
  /** Text, or the caption of a photo or document. */
  text: string;
  parseMode: string | null;
  threadId: number | null;
  replyTo: number | null;
  replyMarkup: { inline_keyboard: Array<Array<{ text: string; callback_data?: string; url?: string }>> } | null;
  linkPreview: Record<string, unknown> | null;
  photo: { filename: string; bytes: number } | null;
  document: { filename: string; bytes: number } | null;
  edited: boolean;
  at: number;
}

export interface CallbackAnswer {
  callbackQueryId: string;
  text: string | null;
  showAlert: boolean;
}

export type ChatFailure =
  | { kind: 'blocked' }
  | { kind: 'kicked' }
  | { kind: 'not-found' }
  | { kind: 'migrated'; toChatId: number }
  | { kind: 'retry-after'; seconds: number };

export interface BotApiOptions {
  botId?: number;
  botUsername?: string;
  /** Longest wait of a getUpdates with a timeout; the stock server answers at once. */
  pollWaitMs?: number;
  /** Answer 429 past Telegram's limits. */
  pace?: boolean | PaceLimits;
  /** Listen port (default 0: any free one). */
  port?: number;
}

export interface FakeBotApi {
  /** For grammY's `client.apiRoot` and TELEGRAM_API_ROOT. */
  readonly apiRoot: string;
  readonly stock: TelegramServer;
  readonly botUser: { id: number; is_bot: true; first_name: string; username: string };
  /** Every message the bot sent or edited, in order. */
  readonly sent: BotMessage[];
  readonly callbackAnswers: CallbackAnswer[];
  /** setMyCommands calls, newest last. */
  readonly commandSets: Array<{ commands: Array<{ command: string; description: string }>; scope: unknown }>;
  /** Every Bot API call by method name. */
  readonly calls: Map<string, number>;
  /** 429 answers given by the pace mode. */
  readonly tooManyRequests: { count: number };
  readonly webhook: { url: string; secretToken: string | null } | null;
  /** The stock telegram-test-api client, pointed at this server. */
  client(
    token: string,
    options?: Partial<{ userId: number; chatId: number; type: ChatType; firstName: string; userName: string; chatTitle: string }>,
  ): TelegramClient;
  user(id: number, name?: string): TestUser;
  privateChat(user: TestUser): TestChat;
  group(id: number, title?: string, options?: { supergroup?: boolean; forum?: boolean }): TestChat;
  /**
   * A user's message; a leading /command gets its bot_command entity. Returns its message id.
   * `asChat`: sent "as the group" by an anonymous administrator, as Telegram delivers it: from
   * GroupAnonymousBot (a bot), with the group itself as sender_chat; `from` is then not shown.
   */
  sendText(input: {
    chat: TestChat;
    from: TestUser;
    text: string;
    threadId?: number;
    links?: string[];
    replyTo?: number;
    asChat?: TestChat;
  }): number;
  /** A button press on a message the bot sent. Returns the callback query id. */
  press(input: { from: TestUser; message: BotMessage; data: string }): string;
  /** Any other update (my_chat_member, a migration message...). Returns its update id. */
  pushUpdate(update: Record<string, unknown>): number;
  /** A service message in a group that became a supergroup. */
  migrate(from: TestChat, to: TestChat): void;
  setMember(chatId: number, userId: number, status: MemberStatus): void;
  failChat(chatId: number | string, failure: ChatFailure | null): void;
  /** Messages sent to a chat (thread), in order. */
  messagesIn(chatId: number | string, threadId?: number | null): BotMessage[];
  /** Waits until `predicate` holds over the messages sent, or fails after `timeoutMs`. */
  waitFor<T>(predicate: (sent: BotMessage[]) => T | null | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

const SEND_METHODS = new Set([
  'sendMessage',
  'sendPhoto',
  'sendDocument',
  'editMessageText',
  'editMessageCaption',
  'editMessageReplyMarkup',
  'sendMediaGroup',
]);
const CHAT_METHODS = new Set([...SEND_METHODS, 'getChatMember', 'sendChatAction', 'getChat', 'getChatAdministrators']);

type Body = Record<string, unknown>;
interface UploadedFile {
  filename: string;
  bytes: number;
}

/** The stock server's own counters and request handler, which its types keep private. */
interface StockInternals {
  updateId: number;
  messageId: number;
  webServer: RequestListener;
}

function readJson(req: IncomingMessage): Promise<Body> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', reject);
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve({});
      const type = req.headers['content-type'] ?? '';
      try {
        if (type.includes('application/x-www-form-urlencoded')) resolve(Object.fromEntries(new URLSearchParams(text)));
        else resolve(JSON.parse(text) as Body);
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** A multipart body: its fields (JSON-looking values parsed) and its files by part name. */
function readMultipart(req: IncomingMessage): Promise<{ fields: Body; files: Map<string, UploadedFile> }> {
  return new Promise((resolve, reject) => {
    const fields: Body = {};
    const files = new Map<string, UploadedFile>();
    const parser = busboy({ headers: req.headers });
    parser.on('field', (name, value) => {
      fields[name] = /^[[{]/.test(value) ? (JSON.parse(value) as unknown) : value;
    });
    parser.on('file', (name, stream, info) => {
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
      stream.on('end', () => files.set(name, { filename: info.filename ?? name, bytes }));
    });
    parser.on('error', reject);
    parser.on('close', () => resolve({ fields, files }));
    req.pipe(parser);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function ok(res: ServerResponse, result: unknown): void {
  send(res, 200, { ok: true, result });
}

function fail(res: ServerResponse, status: number, description: string, parameters?: Record<string, number>): void {
  send(res, status, { ok: false, error_code: status, description, ...(parameters === undefined ? {} : { parameters }) });
}

function asNumber(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  return null;
}

export async function startBotApi(options: BotApiOptions = {}): Promise<FakeBotApi> {
  const stock = new TelegramServer({ port: 1, host: '127.0.0.1' });
  const internals = stock as unknown as StockInternals;
  const botUser = {
    id: options.botId ?? 7_000_000_001,
    is_bot: true as const,
    first_name: 'TokenWatch',
    username: options.botUsername ?? 'TokenWatchTestBot',
  };
  const pollWaitMs = options.pollWaitMs ?? 500;
  const pace =
    options.pace === undefined || options.pace === false ? null : new PaceKeeper(options.pace === true ? TELEGRAM_LIMITS : options.pace);

  const sent: BotMessage[] = [];
  const callbackAnswers: CallbackAnswer[] = [];
  const commandSets: FakeBotApi['commandSets'] = [];
  const calls = new Map<string, number>();
  const tooManyRequests = { count: 0 };
  const members = new Map<string, MemberStatus>();
  const failures = new Map<string, ChatFailure>();
  const chats = new Map<string, TestChat>();
  const queued: Array<Record<string, unknown> & { update_id: number }> = [];
  const waiters = new Set<() => void>();
  const sentWaiters = new Set<() => void>();
  let webhook: { url: string; secretToken: string | null } | null = null;
  let webhookBusy = false;
  const openRequests = new Set<ServerResponse>();

  const nextUpdateId = () => internals.updateId++;
  const nextMessageId = () => internals.messageId++;
  const notifyUpdates = () => {
    for (const wake of [...waiters]) wake();
    void pushWebhook();
  };
  const notifySent = () => {
    for (const wake of [...sentWaiters]) wake();
  };
  // The stock client's messages land in the stock server's storage; they wake pollers too.
  for (const event of ['AddedUserMessage', 'AddedUserCommand', 'AddedUserCallbackQuery']) stock.on(event, notifyUpdates);

  const chatOf = (chatId: unknown): TestChat => {
    const key = String(chatId);
    const known = chats.get(key);
    if (known !== undefined) return known;
    const id = asNumber(chatId) ?? 0;
    return id < 0
      ? { id, type: id < -1_000_000_000_000 ? 'supergroup' : 'group', title: `Group ${id}` }
      : { id, type: 'private', first_name: `User ${id}` };
  };

  /** Pending updates for a token: pushed ones and the stock client's, by update id. */
  const takeUpdates = (token: string, limit: number): Array<Record<string, unknown>> => {
    const fromStock = stock.getUpdates(token) as unknown as Array<Record<string, unknown> & { update_id: number }>;
    queued.push(...fromStock);
    queued.sort((a, b) => a.update_id - b.update_id);
    return queued.splice(0, Math.max(1, Math.min(100, limit)));
  };
  let lastToken = '';

  async function pushWebhook(): Promise<void> {
    if (webhook === null || webhookBusy) return;
    webhookBusy = true;
    try {
      for (let batch = takeUpdates(lastToken, 1); batch.length > 0 && webhook !== null; batch = takeUpdates(lastToken, 1)) {
        for (const update of batch) await postUpdate(webhook, update);
      }
    } finally {
      webhookBusy = false;
    }
  }

  function postUpdate(target: { url: string; secretToken: string | null }, update: Record<string, unknown>): Promise<void> {
    const body = JSON.stringify(update);
    return new Promise((resolve) => {
      const req = httpRequest(
        target.url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            ...(target.secretToken === null ? {} : { 'x-telegram-bot-api-secret-token': target.secretToken }),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve());
        },
      );
      req.on('error', () => resolve());
      req.end(body);
    });
  }

  const recordSent = (method: string, body: Body, files: Map<string, UploadedFile>): BotMessage => {
    const fileOf = (field: string): UploadedFile | null => {
      const value = body[field];
      if (typeof value !== 'string') return null;
      const attached = /^attach:\/\/(.+)$/.exec(value);
      return attached === null ? { filename: value, bytes: 0 } : (files.get(attached[1] ?? '') ?? null);
    };
    const replyParameters = body.reply_parameters as { message_id?: number } | undefined;
    const message: BotMessage = {
      method,
      messageId: nextMessageId(),
      chatId: String(body.chat_id),
      text: String(body.text ?? body.caption ?? ''),
      parseMode: typeof body.parse_mode === 'string' ? body.parse_mode : null,
      threadId: asNumber(body.message_thread_id),
      replyTo: asNumber(replyParameters?.message_id ?? body.reply_to_message_id),
      replyMarkup: (body.reply_markup as BotMessage['replyMarkup']) ?? null,
      linkPreview: (body.link_preview_options as Record<string, unknown>) ?? null,
      photo: method === 'sendPhoto' ? fileOf('photo') : null,
      document: method === 'sendDocument' ? fileOf('document') : null,
      edited: false,
      at: Date.now(),
    };
    sent.push(message);
    notifySent();
    return message;
  };

  const asTelegramMessage = (message: BotMessage): Record<string, unknown> => ({
    message_id: message.messageId,
    date: Math.floor(message.at / 1000),
    chat: chatOf(message.chatId),
    from: botUser,
    ...(message.method === 'sendPhoto'
      ? {
          photo: [{ file_id: `photo-${message.messageId}`, file_unique_id: `p${message.messageId}`, width: 800, height: 600 }],
          caption: message.text,
        }
      : message.method === 'sendDocument'
        ? {
            document: {
              file_id: `doc-${message.messageId}`,
              file_unique_id: `d${message.messageId}`,
              file_name: message.document?.filename,
            },
            caption: message.text,
          }
        : { text: message.text }),
    ...(message.threadId === null ? {} : { message_thread_id: message.threadId, is_topic_message: true }),
    ...(message.replyMarkup === null ? {} : { reply_markup: message.replyMarkup }),
  });

  /** The failure a test set for the chat of this call, answered; true when one was. */
  const injectedFailure = (res: ServerResponse, body: Body): boolean => {
    const failure = failures.get(String(body.chat_id));
    if (failure === undefined) return false;
    switch (failure.kind) {
      case 'blocked':
        fail(res, 403, 'Forbidden: bot was blocked by the user');
        return true;
      case 'kicked':
        fail(res, 403, 'Forbidden: bot was kicked from the group chat');
        return true;
      case 'not-found':
        fail(res, 400, 'Bad Request: chat not found');
        return true;
      case 'migrated':
        fail(res, 400, 'Bad Request: group chat was upgraded to a supergroup chat', { migrate_to_chat_id: failure.toChatId });
        return true;
      case 'retry-after':
        tooManyRequests.count += 1;
        fail(res, 429, `Too Many Requests: retry after ${failure.seconds}`, { retry_after: failure.seconds });
        return true;
    }
  };

  async function handleBotMethod(token: string, method: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const multipart = (req.headers['content-type'] ?? '').includes('multipart/form-data');
    const { fields: body, files } = multipart
      ? await readMultipart(req)
      : { fields: await readJson(req), files: new Map<string, UploadedFile>() };
    calls.set(method, (calls.get(method) ?? 0) + 1);
    lastToken = token;
    if (CHAT_METHODS.has(method) && injectedFailure(res, body)) return;
    if (pace !== null && SEND_METHODS.has(method)) {
      const decision = pace.admit(String(body.chat_id));
      if (!decision.ok) {
        tooManyRequests.count += 1;
        fail(res, 429, `Too Many Requests: retry after ${decision.retryAfter}`, { retry_after: decision.retryAfter });
        return;
      }
    }
    switch (method) {
      case 'getMe':
        return ok(res, { ...botUser, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false });
      case 'getUpdates': {
        if (webhook !== null)
          return fail(
            res,
            409,
            "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
          );
        const limit = asNumber(body.limit) ?? 100;
        const timeoutMs = Math.min((asNumber(body.timeout) ?? 0) * 1000, pollWaitMs);
        let updates = takeUpdates(token, limit);
        if (updates.length === 0 && timeoutMs > 0) {
          await new Promise<void>((resolve) => {
            const done = () => {
              clearTimeout(timer);
              waiters.delete(done);
              resolve();
            };
            const timer = setTimeout(done, timeoutMs);
            waiters.add(done);
            res.once('close', done);
          });
          if (res.destroyed) return;
          updates = takeUpdates(token, limit);
        }
        return ok(res, updates);
      }
      case 'sendMessage':
      case 'sendPhoto':
      case 'sendDocument': {
        const message = recordSent(method, body, files);
        if (method === 'sendMessage') {
          // Kept in the stock storage too, so the stock client's history shows the conversation.
          stock.storage.botMessages.push({
            time: message.at,
            botToken: token,
            message: body as never,
            updateId: nextUpdateId(),
            messageId: message.messageId,
            isRead: false,
          });
        }
        if ((method === 'sendPhoto' && message.photo === null) || (method === 'sendDocument' && message.document === null)) {
          sent.pop();
          return fail(res, 400, 'Bad Request: there is no file in the request');
        }
        return ok(res, asTelegramMessage(message));
      }
      case 'editMessageText':
      case 'editMessageReplyMarkup': {
        const id = asNumber(body.message_id);
        const original = sent.find((m) => m.messageId === id && m.chatId === String(body.chat_id));
        if (original === undefined) return fail(res, 400, 'Bad Request: message to edit not found');
        const edited: BotMessage = {
          ...original,
          method,
          text: method === 'editMessageText' ? String(body.text ?? '') : original.text,
          parseMode: method === 'editMessageText' ? (typeof body.parse_mode === 'string' ? body.parse_mode : null) : original.parseMode,
          replyMarkup:
            (body.reply_markup as BotMessage['replyMarkup']) ?? (method === 'editMessageReplyMarkup' ? null : original.replyMarkup),
          linkPreview: (body.link_preview_options as Record<string, unknown>) ?? original.linkPreview,
          edited: true,
          at: Date.now(),
        };
        sent.push(edited);
        notifySent();
        return ok(res, asTelegramMessage(edited));
      }
      case 'answerCallbackQuery':
        callbackAnswers.push({
          callbackQueryId: String(body.callback_query_id),
          text: typeof body.text === 'string' ? body.text : null,
          showAlert: body.show_alert === true || body.show_alert === 'true',
        });
        notifySent();
        return ok(res, true);
      case 'getChatMember': {
        const status = members.get(`${String(body.chat_id)}:${String(body.user_id)}`) ?? 'member';
        const user = { id: asNumber(body.user_id) ?? 0, is_bot: false, first_name: `User ${String(body.user_id)}` };
        return ok(
          res,
          status === 'administrator'
            ? { status, user, can_be_edited: false, is_anonymous: false, can_manage_chat: true }
            : { status, user },
        );
      }
      case 'getChat':
        return ok(res, chatOf(body.chat_id));
      case 'sendChatAction':
        return ok(res, true);
      case 'setMyCommands':
        commandSets.push({ commands: (body.commands as Array<{ command: string; description: string }>) ?? [], scope: body.scope ?? null });
        return ok(res, true);
      case 'getMyCommands':
        return ok(res, commandSets[commandSets.length - 1]?.commands ?? []);
      case 'deleteMyCommands':
        return ok(res, true);
      case 'setWebhook':
        webhook = { url: String(body.url), secretToken: typeof body.secret_token === 'string' ? body.secret_token : null };
        void pushWebhook();
        return ok(res, true);
      case 'deleteWebhook':
        webhook = null;
        if (body.drop_pending_updates === true) takeUpdates(token, 100);
        return ok(res, true);
      case 'getWebhookInfo':
        return ok(res, { url: webhook?.url ?? '', has_custom_certificate: false, pending_update_count: queued.length });
      case 'close':
      case 'logOut':
        return ok(res, true);
      default:
        return fail(res, 404, 'Not Found: method not found');
    }
  }

  const server: Server = createServer((req, res) => {
    openRequests.add(res);
    res.once('close', () => openRequests.delete(res));
    const match = /^\/bot([^/]+)\/([A-Za-z]+)(?:\?.*)?$/.exec(req.url ?? '');
    if (match === null) {
      internals.webServer(req, res);
      return;
    }
    handleBotMethod(decodeURIComponent(match[1] ?? ''), match[2] ?? '', req, res).catch((error: unknown) => {
      if (!res.headersSent) fail(res, 500, `Internal Server Error: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const apiRoot = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The stock client posts to `${apiURL}/sendCommand` and the like.
  stock.config.apiURL = apiRoot;

  const messageBase = (chat: TestChat, from: TestUser) => ({
    message_id: nextMessageId(),
    date: Math.floor(Date.now() / 1000),
    chat,
    from,
  });

  const api: FakeBotApi = {
    apiRoot,
    stock,
    botUser,
    sent,
    callbackAnswers,
    commandSets,
    calls,
    tooManyRequests,
    get webhook() {
      return webhook;
    },
    client(token, clientOptions = {}) {
      return stock.getClient(token, { timeout: 5000, ...clientOptions });
    },
    user(id, name = `User${id}`) {
      return { id, first_name: name, username: name.toLowerCase(), is_bot: false };
    },
    privateChat(user) {
      const chat: TestChat = { id: user.id, type: 'private', first_name: user.first_name };
      chats.set(String(chat.id), chat);
      return chat;
    },
    group(id, title = `Group ${id}`, groupOptions = {}) {
      const chat: TestChat = {
        id,
        type: groupOptions.supergroup === true || groupOptions.forum === true ? 'supergroup' : 'group',
        title,
        ...(groupOptions.forum === true ? { is_forum: true } : {}),
      };
      chats.set(String(id), chat);
      return chat;
    },
    sendText({ chat, from, text, threadId, links = [], replyTo, asChat }) {
      const base =
        asChat === undefined ? messageBase(chat, from) : { ...messageBase(chat, from), from: GROUP_ANONYMOUS_BOT, sender_chat: asChat };
      const entities: Array<Record<string, unknown>> = [];
      const command = /^\/[A-Za-z0-9_]+(?:@[A-Za-z0-9_]+)?/.exec(text);
      if (command !== null) entities.push({ type: 'bot_command', offset: 0, length: command[0].length });
      links.forEach((url, i) => entities.push({ type: 'text_link', offset: 0, length: Math.min(text.length, 1 + i), url }));
      const message = {
        ...base,
        text,
        ...(entities.length > 0 ? { entities } : {}),
        ...(threadId === undefined ? {} : { message_thread_id: threadId, is_topic_message: true }),
        ...(replyTo === undefined ? {} : { reply_to_message: { message_id: replyTo, date: base.date, chat } }),
      };
      queued.push({ update_id: nextUpdateId(), message });
      notifyUpdates();
      return base.message_id;
    },
    press({ from, message, data }) {
      const id = `cb-${nextUpdateId()}`;
      queued.push({
        update_id: nextUpdateId(),
        callback_query: { id, from, chat_instance: `ci-${message.chatId}`, data, message: asTelegramMessage(message) },
      });
      notifyUpdates();
      return id;
    },
    pushUpdate(update) {
      const updateId = nextUpdateId();
      queued.push({ ...update, update_id: updateId });
      notifyUpdates();
      return updateId;
    },
    migrate(from, to) {
      chats.set(String(to.id), to);
      const admin = api.user(1, 'Admin');
      queued.push({ update_id: nextUpdateId(), message: { ...messageBase(from, admin), migrate_to_chat_id: to.id } });
      queued.push({ update_id: nextUpdateId(), message: { ...messageBase(to, admin), migrate_from_chat_id: from.id } });
      notifyUpdates();
    },
    setMember(chatId, userId, status) {
      members.set(`${chatId}:${userId}`, status);
    },
    failChat(chatId, failure) {
      if (failure === null) failures.delete(String(chatId));
      else failures.set(String(chatId), failure);
    },
    messagesIn(chatId, threadId) {
      return sent.filter((m) => m.chatId === String(chatId) && (threadId === undefined || m.threadId === threadId));
    },
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const result = predicate(sent);
          if (result !== null && result !== undefined && result !== false) {
            clearTimeout(timer);
            sentWaiters.delete(check);
            resolve(result);
          }
        };
        const timer = setTimeout(() => {
          sentWaiters.delete(check);
          reject(
            new Error(
              `fake Bot API: condition not met within ${timeoutMs} ms; sent so far: ${JSON.stringify(sent.map((m) => [m.method, m.chatId, m.text.slice(0, 60)]))}`,
            ),
          );
        }, timeoutMs);
        sentWaiters.add(check);
        check();
      });
    },
    async close() {
      for (const wake of [...waiters]) wake();
      for (const res of openRequests) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return api;
}
