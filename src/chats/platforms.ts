/**
 * The chat platforms the bot talks through: this table, and nothing else. Each entry
 * (src/chats/platform.ts, ChatPlatform) holds a platform's name, its settings section, its start,
 * its alert sender, and the leases and metric labels it needs; whatever needs a platform's name or
 * needs reads them here: the roles TOKENWATCH_ROLES may name (`chatPlatformNames()`, handed to
 * src/config.ts), the variables that switch them on (`chatPlatformTokens()`), every settings
 * section read at start (`loadSettings`), the named leases of a process of several (`platformLeases`) and their metric
 * labels (`platformLeaseLabels`), the line about a role with nothing to do (idleRoles.ts), the
 * console fallback (console/logDestination.ts) and the app's chats (src/app/chats.ts).
 *
 * A platform is one folder, src/chats/<name>/, whose entry is added here, or registered from
 * anywhere before the bot starts with `registerChatPlatform(entry)` (test/platforms/echo/ does
 * so). The console is no entry: it is the fallback when no platform is configured.
 */
import { loadConfig, type Config } from '../config';
import { addPlatform } from '../model/chat';
import type { Role } from '../model/roles';
import { discordPlatform } from './discord/chatStarter';
import { platformStarter, senderLeaseOf, type ChatPlatform, type ChatStarter, type PlatformEnv } from './platform';
import { telegramPlatform } from './telegram/chatStarter';

/** The built-in platforms, in the order they start. */
const BUILT_IN: readonly ChatPlatform[] = [discordPlatform, telegramPlatform];

const registered: ChatPlatform[] = [];

/** Every chat platform: the built-in ones, then those registered, in the order they were. */
export function chatPlatforms(): readonly ChatPlatform[] {
  return [...BUILT_IN, ...registered];
}

/** Every platform's name: its role in TOKENWATCH_ROLES (`loadConfig(env, { platforms: chatPlatformNames() })`). */
export function chatPlatformNames(): string[] {
  return chatPlatforms().map((platform) => platform.name);
}

/** Every platform's switch variable (its token), in the table's order: with one set, TMDS_BASE_URL is required. */
export function chatPlatformTokens(): string[] {
  return chatPlatforms().map((platform) => platform.settings.token);
}

/**
 * Every setting, as a process reads them at start: the general ones (src/config.ts) with every
 * platform's name as a role and every platform's switch, then each platform's own section from the
 * same environment, so that a wrong one stops start-up with its one line before anything starts.
 * Throws ConfigError naming the first wrong variable.
 */
export function loadSettings(env: PlatformEnv = process.env): Config {
  const config = loadConfig(env, { platforms: chatPlatformNames(), chatTokens: chatPlatformTokens() });
  configuredPlatforms(config, env);
  return config;
}

/**
 * Adds a platform to the table, for every part that reads it; returns what takes it out again.
 * Its name must be new and its chats' rows readable by the store, which knows the platforms by
 * name (`addPlatform`, src/model/chat.ts): the name is added there too, and stays once known, as
 * the rows written under it do.
 */
export function registerChatPlatform<S>(platform: ChatPlatform<S>): () => void {
  const entry = platform as ChatPlatform;
  if (!/^[a-z][a-z0-9-]{0,19}$/.test(entry.name)) throw new Error(`chat platform "${entry.name}": a name is 1-20 of a-z, 0-9 and -`);
  if (chatPlatformNames().includes(entry.name) || entry.name === 'console' || entry.name === 'watcher' || entry.name === 'sender')
    throw new Error(`chat platform "${entry.name}" is already a platform or a role`);
  registered.push(entry);
  addPlatform(entry.name);
  return () => {
    const at = registered.indexOf(entry);
    if (at >= 0) registered.splice(at, 1);
  };
}

/** Every platform's chat, each started when it is configured and this process's roles ask for it. */
export function platformChats(): ChatStarter[] {
  return chatPlatforms().map(platformStarter);
}

/** The platforms configured in these settings, with their settings. */
export function configuredPlatforms(config: Config, env: PlatformEnv = process.env): Array<{ platform: ChatPlatform; settings: unknown }> {
  return chatPlatforms().flatMap((platform) => {
    const settings = platform.settings.read(config, env);
    return settings === null ? [] : [{ platform, settings }];
  });
}

/** The addresses the configured platforms send their tokens to, by the variable that set each. */
export function platformAddresses(config: Config, env: PlatformEnv = process.env): Array<[string, string]> {
  return configuredPlatforms(config, env).flatMap(({ platform, settings }) =>
    Object.entries(platform.settings.addresses?.(settings) ?? {}).flatMap(
      ([variable, address]): Array<[string, string]> => (address === null ? [] : [[variable, address]]),
    ),
  );
}

/**
 * The named leases this process wants as one of several: each configured platform's sender lease
 * with the sender role, and what the platform needs beside it (Telegram's poller).
 */
export function platformLeases(config: Config, roles: ReadonlySet<Role>, env: PlatformEnv = process.env): string[] {
  return configuredPlatforms(config, env).flatMap(({ platform, settings }) => [
    ...(roles.has('sender') ? [senderLeaseOf(platform.name)] : []),
    ...(platform.leases?.(settings, roles) ?? []),
  ]);
}

/** Every named lease a platform may hold: the lease metric's labels, a fixed list read when scraped. */
export function platformLeaseLabels(): string[] {
  return chatPlatforms().flatMap((platform) => platform.leaseLabels);
}
