/**
 * The Discord chat as the app starts it (PLATFORM_CHATS in src/chats/startChats.ts): from the
 * settings, or not at all when no DISCORD_TOKEN is set. Commands are registered at start only in
 * DISCORD_GUILD_ID (instant, for a development server); globally they are registered once, with
 * `npm run register`.
 *
 * discord.js loads only when a token is set: it takes about half a second, which a console or
 * Telegram-only bot should not pay at every start.
 */
import type { Config } from '../../config';
import type { AlertSender } from '../../delivery/sender';
import type { Dispatcher } from '../../dispatch/dispatcher';
import type { ShardState } from '../../follows/status';
import type { Logger } from '../../log';
import type { Store } from '../../store/store';

export interface DiscordChatDeps {
  config: Config;
  logger: Logger;
  dispatcher: Dispatcher;
  store: Store;
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

export async function discordChat(deps: DiscordChatDeps): Promise<RunningDiscordChat | null> {
  const settings = deps.config.discord;
  if (settings === null) return null;
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
