/**
 * The Discord chat: a discord.js client with the Guilds intent only (plus message content when
 * pasted addresses are to be answered), caches cut to what the bot uses, and one error boundary
 * around every interaction. It hands commands to the Dispatcher and returns the AlertSender that
 * delivery uses for channels.
 *
 * The REST base address is configurable (DISCORD_REST_API); the gateway address comes from its
 * `/gateway/bot`, as discord.js reads it, so a proxy or a local fake works for both.
 *
 * discord.js runs the gateway's shards in this process (shards.ts): every shard's servers reach
 * the same handlers, and commands are registered once per start, after every shard is ready. When
 * other processes run the bot's other shards, a GatewayCoordination paces the IDENTIFYs of them all
 * and shares the sessions, for a replacement process to resume (clusterGateway.ts).
 */
import { Client, Events, GatewayIntentBits, MessageFlags, Options, Routes, type Interaction } from 'discord.js';
import type { ChatQueue, ChatQueueOptions } from '../../dispatch/chatQueue';
import type { Dispatcher } from '../../dispatch/dispatcher';
import { newErrorId } from '../../dispatch/dispatcher';
import { watchRemovals } from './removals';
import { registerSecret, silentLogger, type Logger } from '../../log';
import { ChatInbox } from '../inbox';
import type { Store } from '../../store/store';
import { InteractionHandler, chatOf } from './interactions';
import { createAlertSender } from './alertRest';
import { clusterWsOptions } from './clusterGateway';
import type { GatewayCoordination } from './gatewayCoordination';
import { discordRestOptions } from './restOptions';
import { DiscordAlertSender, messageBody } from './sender';
import type { SkippedRepliesOptions } from './skippedReplies';
import { renderCardMessage } from './embed';
import { serverMessageOf } from './serverMessages';
import { fatalCloseLine, shardOptions, shardStates, type ShardSetting } from './shards';
import { DiscordRequestCounts } from './requestCounts';
import type { ShardState } from '../../follows/status';
import { slashCommandsJson } from './slashCommands';
import { ChatStartTimeoutError, DEFAULT_CHAT_START_TIMEOUT_MS, reachAtStart } from '../reachAtStart';

export const DEFAULT_REST_API = 'https://discord.com/api';
/** Under Discord's three seconds, with room for the defer to travel. */
export const DEFAULT_DEFER_AFTER_MS = 2000;

export interface DiscordChatOptions {
  token: string;
  appId: string;
  /** Commands are registered in this server at start (instant, for development); see registerCommands. */
  guildId?: string | null;
  /** REST base, without the version (`https://discord.com/api`). */
  restApi?: string;
  dispatcher: Dispatcher;
  store: Store;
  logger: Logger;
  /** Answer a message that is just an address with its token card (needs the Message Content intent). */
  detectAddresses?: boolean;
  /** The gateway shards to run: 'auto' (default) runs as many as Discord recommends. */
  shards?: ShardSetting;
  /** Register the slash commands at start: in guildId when set, else nowhere (use `npm run register`). */
  registerOnStart?: boolean;
  deferAfterMs?: number;
  /** Each channel's queue of commands: its cap (what is past it is skipped). */
  chatQueue?: ChatQueueOptions;
  /** Shared with the bot's other gateway processes (IDENTIFY pacing, sessions); absent or null: this process alone. */
  gateway?: GatewayCoordination | null;
  /** How the answers to skipped interactions are spread out (skippedReplies.ts). */
  skippedReplies?: SkippedRepliesOptions;
  /** Told when leaving a server or losing a channel paused chats, or coming back resumed them (removals.ts). */
  onPausesChanged?: () => void;
  /** How long the login and the gateway's READY are waited for at start (CHAT_START_TIMEOUT; default 60 s). */
  startTimeoutMs?: number;
}

export interface DiscordChat {
  client: Client;
  sender: DiscordAlertSender;
  /** What each channel asked that waits for its turn, and what was skipped. */
  queue: ChatQueue;
  /** Stops taking interactions and closes the gateway; sends already under way finish. */
  stop(): Promise<void>;
  /** The gateway shards and their state, for /status. */
  shards(): ShardState[];
  /** REST responses by status (the chat's and the alerts'), for the operators' metrics. */
  requests(): Record<string, number>;
  /** Resolves once the server and channel removals seen so far are recorded. */
  removalsSettled(): Promise<void>;
}

/** Caches the bot never reads are off; the bot's own member and user stay, as discord.js needs them. */
function makeCache() {
  return Options.cacheWithLimits({
    ...Options.DefaultMakeCacheSettings,
    MessageManager: 0,
    GuildMessageManager: 0,
    DMMessageManager: 0,
    ThreadMemberManager: 0,
    PresenceManager: 0,
    ReactionManager: 0,
    ReactionUserManager: 0,
    GuildEmojiManager: 0,
    BaseGuildEmojiManager: 0,
    GuildStickerManager: 0,
    GuildInviteManager: 0,
    GuildBanManager: 0,
    GuildScheduledEventManager: 0,
    StageInstanceManager: 0,
    VoiceStateManager: 0,
    AutoModerationRuleManager: 0,
    ApplicationCommandManager: 0,
    GuildMemberManager: { maxSize: 0, keepOverLimit: (member) => member.id === member.client.user.id },
    UserManager: { maxSize: 0, keepOverLimit: (user) => user.id === user.client.user.id },
  });
}

export function discordIntents(detectAddresses: boolean): GatewayIntentBits[] {
  return detectAddresses
    ? [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent]
    : [GatewayIntentBits.Guilds];
}

export interface DiscordClientOptions {
  restApi?: string;
  detectAddresses?: boolean;
  shards?: ShardSetting;
  /** Shared with the bot's other gateway processes; absent or null: discord.js's own pacing and sessions, in this process. */
  gateway?: GatewayCoordination | null;
  /** For the gateway coordination's lines. */
  logger?: Logger;
}

export function createDiscordClient(options: DiscordClientOptions): Client {
  const gateway = options.gateway ?? null;
  return new Client({
    ...shardOptions(options.shards ?? 'auto'),
    ...(gateway === null ? {} : { ws: clusterWsOptions(gateway, options.logger ?? silentLogger) }),
    intents: discordIntents(options.detectAddresses === true),
    makeCache: makeCache(),
    sweepers: {
      ...Options.DefaultSweeperSettings,
      threads: { interval: 3600, lifetime: 3600 },
    },
    rest: discordRestOptions(options.restApi ?? DEFAULT_REST_API),
    // Never let a message ping, whatever a path forgets.
    allowedMentions: { parse: [] },
    // Ready even if a server is unavailable at start.
    waitGuildTimeout: 5000,
  });
}

export async function registerCommands(
  client: Pick<Client, 'rest'>,
  appId: string,
  guildId: string | null,
  dispatcher: Pick<Dispatcher, 'commands'>,
): Promise<number> {
  const body = slashCommandsJson(dispatcher.commands);
  const route = guildId === null ? Routes.applicationCommands(appId) : Routes.applicationGuildCommands(appId, guildId);
  await client.rest.put(route, { body });
  return body.length;
}

/**
 * Pasted addresses in server channels, read from the raw event: discord.js's messageCreate skips
 * channels it has not cached (serverMessages.ts). Read as Telegram reads a paste
 * (src/chats/pasteDetect.ts): a bare address, or one inside a link to an explorer or a DEX; a
 * guild channel is a group, so its paste limits are silent, and a paste past its channel's cap is
 * not answered, as a paste is no question.
 */
function answerPastes(client: Client, inbox: ChatInbox, stopping: () => boolean): void {
  client.on(Events.Raw, (packet: unknown) => {
    const message = serverMessageOf(packet);
    if (stopping() || message === null || message.byBot) return;
    const chat = chatOf({ guildId: message.guildId, channelId: message.channelId });
    if (chat === null) return;
    const caller = { chat, userId: message.authorId, userName: message.authorName, messageId: message.id, isManager: async () => false };
    inbox.paste(caller, message.content, { private: false }, async (reply) => {
      const { body, files } = messageBody(renderCardMessage(reply.card, reply.buttons));
      await client.rest.post(Routes.channelMessages(message.channelId), {
        body: { ...body, message_reference: { message_id: message.id, fail_if_not_exists: false } },
        files: files.length > 0 ? files : undefined,
      });
    });
  });
}

/** One error boundary around every interaction: a failure is logged, and answered with its error id alone. */
function handleInteractions(client: Client, handler: InteractionHandler, logger: Logger, stopping: () => boolean): Set<Promise<void>> {
  const inFlight = new Set<Promise<void>>();
  const boundary = async (interaction: Interaction): Promise<void> => {
    try {
      if (interaction.isChatInputCommand()) await handler.command(interaction);
      else if (interaction.isButton()) await handler.button(interaction);
      else if (interaction.isAutocomplete()) await handler.autocomplete(interaction);
    } catch (error) {
      const errorId = newErrorId();
      logger.error(
        { err: error, errorId, interaction: interaction.type, guild: interaction.guildId, channel: interaction.channelId },
        'discord interaction failed',
      );
      // One last, short answer when nothing was sent yet; never the error itself.
      if (interaction.isRepliable() && !interaction.replied) {
        const content = `Something went wrong. Error id ${errorId}.`;
        const answer = interaction.deferred
          ? interaction.followUp({ content, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } })
          : interaction.reply({ content, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
        await answer.catch((replyError: unknown) => logger.warn({ err: replyError, errorId }, 'discord error answer not sent'));
      }
    }
  };
  client.on(Events.InteractionCreate, (interaction) => {
    if (stopping()) return;
    const run = boundary(interaction).finally(() => inFlight.delete(run));
    inFlight.add(run);
  });
  return inFlight;
}

/** The client's and the gateway's own lines; the shards' closes, for /status and the start's failure. */
function watchGateway(client: Client, logger: Logger): { closedFor: Map<number, number>; fatalClose: () => string | null } {
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.Warn, (warning) => logger.warn({ warning }, 'discord client warning'));
  // The gateway's own failures (a close Discord gives a reason for, a broken socket) come only as
  // this event; unheard, they would leave no trace.
  client.on(Events.ShardError, (error, shardId) => logger.error({ err: error, shard: shardId }, 'discord gateway error'));
  // A close Discord never takes back (4011: more shards needed; 4014: an intent to enable): one line
  // that says what to do, and /status shows the shard closed.
  const closedFor = new Map<number, number>();
  let fatalClose: string | null = null;
  client.on(Events.ShardDisconnect, ({ code }, shardId) => {
    closedFor.set(shardId, code);
    const line = fatalCloseLine(shardId, code);
    fatalClose ??= line;
    if (line !== null) logger.error({ shard: shardId, code }, line);
    else logger.error({ shard: shardId, code }, 'discord shard closed for good');
  });
  client.rest.on('invalidRequestWarning', (info) =>
    logger.warn({ count: info.count, remainingMs: info.remainingTime }, 'discord invalid requests are adding up'),
  );
  client.rest.on('rateLimited', (info) =>
    logger.debug({ route: info.route, retryAfter: info.retryAfter, global: info.global }, 'discord rate limit'),
  );
  return { closedFor, fatalClose: () => fatalClose };
}

/** Logs in and waits for READY, the whole bounded (reachAtStart.ts): discord.js asks the gateway again by itself, without end. */
async function logIn(client: Client, options: DiscordChatOptions, fatalClose: () => string | null): Promise<void> {
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  try {
    await reachAtStart({
      timeoutMs: options.startTimeoutMs ?? DEFAULT_CHAT_START_TIMEOUT_MS,
      attempt: async (signal) => {
        const login = client.login(options.token).then(() => ready);
        // Destroyed at the deadline, the client may still reject the login left behind; nobody waits for it then.
        login.catch(() => undefined);
        const spent = new Promise<never>((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(new Error('start time spent')), { once: true }),
        );
        await Promise.race([login, spent]);
      },
      retryable: () => false,
      describe: (error) => (error instanceof Error ? error.message : String(error)),
    });
  } catch (error) {
    if (error instanceof ChatStartTimeoutError) {
      // Not waited for: discord.js's close of a gateway that never said HELLO waits on that gateway too.
      void client.destroy().catch(() => undefined);
      throw new Error(
        `Discord: the gateway was not reached: ${error.message}; check DISCORD_REST_API and the network, or raise CHAT_START_TIMEOUT`,
      );
    }
    await client.destroy();
    // Start-up stops with the line that says what to do, rather than discord.js's own words.
    throw fatalClose() === null ? error : new Error(fatalClose() ?? '');
  }
}

export async function startDiscordChat(options: DiscordChatOptions): Promise<DiscordChat> {
  const { dispatcher, logger } = options;
  registerSecret(options.token);
  const detectAddresses = options.detectAddresses === true;
  const client = createDiscordClient({
    restApi: options.restApi,
    detectAddresses,
    shards: options.shards,
    gateway: options.gateway ?? null,
    logger,
  });
  const inbox = new ChatInbox({
    dispatcher,
    ...(options.chatQueue === undefined ? {} : { queue: options.chatQueue }),
    failed: (error, chat) => logger.warn({ err: error, channel: chat.chatId }, 'discord address answer failed'),
  });
  const handler = new InteractionHandler({
    store: options.store,
    logger,
    deferAfterMs: options.deferAfterMs ?? DEFAULT_DEFER_AFTER_MS,
    inbox,
    ...(options.skippedReplies === undefined ? {} : { skippedReplies: options.skippedReplies }),
  });
  let stopping = false;
  const inFlight = handleInteractions(client, handler, logger, () => stopping);
  if (detectAddresses) answerPastes(client, inbox, () => stopping);
  const removals = watchRemovals({
    client,
    store: options.store,
    logger,
    ...(options.onPausesChanged === undefined ? {} : { onPausesChanged: options.onPausesChanged }),
  });
  const gateway = watchGateway(client, logger);
  const requests = new DiscordRequestCounts();
  requests.watch(client.rest);
  await logIn(client, options, gateway.fatalClose);
  logger.info(
    {
      guilds: client.guilds.cache.size,
      shards: client.ws.shards.size,
      shardCount: client.options.shardCount,
      intents: discordIntents(detectAddresses).length,
    },
    'discord chat ready',
  );

  if (options.registerOnStart === true && options.guildId !== undefined && options.guildId !== null) {
    const count = await registerCommands(client, options.appId, options.guildId, dispatcher);
    logger.info({ guild: options.guildId, count }, 'discord commands registered in the development server');
  }

  const sender = createAlertSender({ token: options.token, restApi: options.restApi ?? DEFAULT_REST_API, logger, requests });
  return {
    client,
    sender,
    queue: inbox.queue,
    shards: () => shardStates(client, gateway.closedFor),
    requests: () => requests.statuses(),
    removalsSettled: () => removals.settled(),
    async stop() {
      stopping = true;
      // Interactions and pastes under way are answered, those waiting for their turn included.
      await Promise.allSettled([...inFlight]);
      await inbox.settled();
      await inbox.stop();
      await client.destroy();
      await removals.settled();
    },
  };
}
