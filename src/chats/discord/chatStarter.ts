/**
 * The Discord platform's entry (src/chats/platforms.ts): its chat as the app starts it, from the
 * settings, or not at all when no DISCORD_TOKEN is set. Commands are registered at start only in
 * DISCORD_GUILD_ID (instant, for a development server); globally they are registered once, with
 * `npm run register`.
 *
 * Which part runs follows the process's roles: with `discord`, the gateway (its shards, commands
 * and buttons) and the alert sender; with `sender` and not `discord`, the alert sender alone, over
 * REST, with no gateway connection; with neither, nothing.
 *
 * discord.js loads only when a token is set: it takes about half a second, which a console or
 * Telegram-only bot should not pay at every start.
 */
import type { Config } from '../../config';
import type { AlertSender } from '../../delivery/sender';
import type { Dispatcher } from '../../dispatch/dispatcher';
import type { ShardState } from '../../follows/status';
import { registerSecret, type Logger } from '../../log';
import type { Role } from '../../model/roles';
import { PgDiscordGateway } from '../../store/postgres/pgDiscordGateway';
import { PostgresStore } from '../../store/postgres/postgresStore';
import type { Store } from '../../store/store';
import { senderLeaseOf, type ChatPlatform } from '../platform';
import type { GatewayCoordination } from './gatewayCoordination';
import { DISCORD_TOKEN_VARIABLE, readDiscordSettings, type DiscordSettings } from './settings';

export interface DiscordChatDeps {
  config: Config;
  logger: Logger;
  dispatcher: Dispatcher;
  store: Store;
  /** The roles this process runs (TOKENWATCH_ROLES). */
  roles: ReadonlySet<Role>;
  /**
   * Shared with the bot's other gateway processes (IDENTIFY pacing, sessions); null: this process
   * alone. Absent: through the database when this process is one of several over PostgreSQL.
   */
  gateway?: GatewayCoordination | null;
  /** Told when leaving a server or losing a channel paused chats, or coming back resumed them. */
  pausesChanged?: () => void;
}

/** The shape of a running chat that startChats expects. */
export interface RunningDiscordChat {
  name: 'discord';
  sender: AlertSender;
  /** Discord runs until stopped. */
  ended: null;
  stop(): Promise<void>;
  /** The gateway shards this process runs, for /status. */
  shards: () => ShardState[];
  /** REST responses by status, for the operators' metrics. */
  requests: () => Readonly<Record<string, number>>;
  /** Some shard of this process is connected to the gateway and ready. */
  connected: () => boolean;
}

export const discordPlatform: ChatPlatform<DiscordSettings> = {
  name: 'discord',
  // Its section (settings.ts), read from the environment the other settings were read from; `npm run register` reads it alone.
  settings: {
    read: (config) => readDiscordSettings(config.env),
    token: DISCORD_TOKEN_VARIABLE,
    addresses: (settings) => ({ DISCORD_REST_API: settings.restApi }),
  },
  start: gatewayChat,
  sendOnly: senderOnlyChat,
  leaseLabels: [senderLeaseOf('discord')],
};

/** Several gateway processes pace their IDENTIFYs and share their sessions through the database. */
function coordinationOf(deps: DiscordChatDeps): GatewayCoordination | null {
  if (deps.gateway !== undefined) return deps.gateway;
  return deps.config.roles.clustered && deps.store instanceof PostgresStore ? new PgDiscordGateway(deps.store.db) : null;
}

async function gatewayChat(deps: DiscordChatDeps, settings: DiscordSettings): Promise<RunningDiscordChat> {
  const { startDiscordChat } = await import('./start');
  const chat = await startDiscordChat({
    token: settings.token,
    appId: settings.appId,
    guildId: settings.guildId,
    registerOnStart: settings.guildId !== null,
    restApi: settings.restApi ?? undefined,
    detectAddresses: settings.detectAddresses,
    shards: settings.shards,
    dispatcher: deps.dispatcher,
    store: deps.store,
    logger: deps.logger,
    gateway: coordinationOf(deps),
    startTimeoutMs: deps.config.chatStartTimeoutMs,
    ...(deps.pausesChanged === undefined ? {} : { onPausesChanged: deps.pausesChanged }),
  });
  return {
    name: 'discord',
    sender: chat.sender,
    ended: null,
    stop: () => chat.stop(),
    shards: () => chat.shards(),
    requests: () => chat.requests(),
    connected: () => chat.shards().some((shard) => shard.state === 'ready'),
  };
}

/** Alerts only, over REST: no gateway connection, so no shards, and nothing to wait for to be connected. */
async function senderOnlyChat(deps: DiscordChatDeps, settings: DiscordSettings): Promise<RunningDiscordChat> {
  registerSecret(settings.token);
  const [{ createAlertSender }, { DiscordRequestCounts }, { DEFAULT_REST_API }] = await Promise.all([
    import('./alertRest'),
    import('./requestCounts'),
    import('./start'),
  ]);
  const requests = new DiscordRequestCounts();
  const sender = createAlertSender({ token: settings.token, restApi: settings.restApi ?? DEFAULT_REST_API, logger: deps.logger, requests });
  deps.logger.info({ roles: [...deps.roles] }, 'discord alerts sent over REST only; this process runs no Discord gateway');
  return {
    name: 'discord',
    sender,
    ended: null,
    stop: async () => undefined,
    shards: () => [],
    requests: () => requests.statuses(),
    connected: () => true,
  };
}
