/**
 * `npm run register`: registers the slash commands, generated from `commands/`, with Discord.
 * Globally (every server the bot is in; Discord may take a while to show changes), or in
 * DISCORD_GUILD_ID only (at once: for a development server). Re-running replaces the whole set,
 * so a removed command disappears too. Needs DISCORD_TOKEN and DISCORD_APP_ID.
 */
import { REST } from 'discord.js';
import { ConfigError, loadDotEnv } from '../config';
import { loadCommands } from '../dispatch/registry';
import { registerSecret, scrubSecrets } from '../log';
import { discordRestOptions } from '../chats/discord/restOptions';
import { readDiscordSettings } from '../chats/discord/settings';
import { registerCommands, DEFAULT_REST_API } from '../chats/discord/start';

async function main(): Promise<number> {
  loadDotEnv();
  // Discord's section alone: registering talks to Discord and never to the market data service.
  const discord = readDiscordSettings(process.env);
  if (discord === null) {
    process.stderr.write('DISCORD_TOKEN is not set: there is no Discord application to register commands with.\n');
    return 2;
  }
  registerSecret(discord.token);
  const rest = new REST(discordRestOptions(discord.restApi ?? DEFAULT_REST_API)).setToken(discord.token);
  const commands = await loadCommands();
  const count = await registerCommands({ rest }, discord.appId, discord.guildId, { commands });
  const where =
    discord.guildId === null ? 'globally (Discord may take up to an hour to show changes everywhere)' : `in server ${discord.guildId}`;
  process.stdout.write(`Registered ${count} commands ${where}: ${commands.map((c) => `/${c.name}`).join(' ')}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
    else process.stderr.write(`Registering failed: ${scrubSecrets(error instanceof Error ? error.message : String(error))}\n`);
    process.exit(error instanceof ConfigError ? 2 : 1);
  },
);
