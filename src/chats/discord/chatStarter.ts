/**
 * The Discord chat as the app starts it: from the settings, or not at all when no DISCORD_TOKEN is
 * set. Commands are registered at start only in DISCORD_GUILD_ID (instant, for a development
 * server); globally they are registered once, with `npm run register`.
 */
import type { ChatDeps, RunningChat } from '../startChats';
import { startDiscordChat } from './start';

export async function discordChat(deps: ChatDeps): Promise<RunningChat | null> {
  const settings = deps.config.discord;
  if (settings === null) return null;
  const chat = await startDiscordChat({
    token: settings.token,
    appId: settings.appId,
    guildId: settings.guildId,
    registerOnStart: settings.guildId !== null,
    restApi: settings.restApi ?? undefined,
    detectAddresses: settings.detectAddresses,
    dispatcher: deps.dispatcher,
    store: deps.store,
    logger: deps.logger,
  });
  return { name: 'discord', sender: chat.sender, ended: null, stop: () => chat.stop() };
}
