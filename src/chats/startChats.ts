/**
 * The chats the bot talks through, started once the commands and the store are ready. Each
 * platform is one starter: it returns null when it is not configured (no token), else a running
 * chat with its alert sender. With no platform configured, the console chat runs instead, so a
 * fresh checkout answers at once (not in one of several processes, where a watcher runs no chat).
 *
 * Adding a platform is adding its name to PLATFORMS (src/model/chat.ts) and its starter to STARTERS
 * (src/chats/<platform>/start.ts): a name without a starter does not compile.
 */
import type { Config } from '../config';
import type { AlertSender } from '../delivery/sender';
import type { Dispatcher } from '../dispatch/dispatcher';
import type { ShardState } from '../follows/status';
import type { Logger } from '../log';
import { PLATFORMS, type Platform } from '../model/chat';
import type { Role } from '../model/roles';
import type { Store } from '../store/store';
import { discordChat } from './discord/chatStarter';
import type { GatewayCoordination } from './discord/gatewayCoordination';
import { telegramChat } from './telegram/chatStarter';
import { idleRoles } from './idleRoles';

export interface ChatDeps {
  config: Config;
  logger: Logger;
  dispatcher: Dispatcher;
  store: Store;
  /**
   * The roles this process runs (TOKENWATCH_ROLES). A platform's starter runs its gateway with the
   * platform's role; with `sender` alone it starts only what sends alerts (no gateway, no updates).
   */
  roles: ReadonlySet<Role>;
  /** Several gateway processes: IDENTIFY pacing and shared sessions through the database (Discord). */
  gateway?: GatewayCoordination | null;
  /**
   * Told when a platform's own event paused or resumed chats (the bot removed from a group or a
   * server, a channel lost, the bot back): the watcher re-reads its targets, so streams no chat
   * reads any more are let go at once rather than at its next poll.
   */
  pausesChanged?: () => void;
}

export interface RunningChat {
  /** For log lines: "console", "discord", "telegram". */
  name: string;
  /** Where the platform's alerts go; null for a chat that shows none. */
  sender: AlertSender | null;
  /** Resolves when the chat ends by itself (the console at the end of its input); null when it runs until stopped. */
  ended: Promise<void> | null;
  /** Stops taking commands; answers under way finish. */
  stop(): Promise<void>;
  /** The gateway shards this chat runs, for /status (Discord). */
  shards?: () => ShardState[];
  /** Requests to the platform's API by status label, for the operators' metrics; absent for the console. */
  requests?: () => Readonly<Record<string, number>>;
  /** Whether the chat reaches its platform now, for readiness; absent: always (the console). */
  connected?: () => boolean;
  /** Long polling started and stopped from outside (several processes: under the poller lease); absent otherwise. */
  poller?: { start(): Promise<void>; stop(): Promise<void> };
}

/** Starts a platform's chat, or returns null when the platform is not configured. */
export type ChatStarter = (deps: ChatDeps) => Promise<RunningChat | null>;

/** Every platform but the console (the fallback), by name: each starts when its token is configured. */
const STARTERS: Record<Exclude<Platform, 'console'>, ChatStarter> = {
  discord: discordChat, // src/chats/discord/chatStarter.ts
  telegram: telegramChat, // src/chats/telegram/chatStarter.ts
};

export const PLATFORM_CHATS: readonly ChatStarter[] = PLATFORMS.flatMap((platform) => (platform === 'console' ? [] : [STARTERS[platform]]));

/**
 * Starts every configured platform; when none is, `fallback` (the console). A platform that fails
 * to start stops start-up: the chats started before it are stopped first.
 */
export async function startChats(deps: ChatDeps, platforms: readonly ChatStarter[], fallback: ChatStarter): Promise<RunningChat[]> {
  // A process whose roles have nothing to do would run silently: one line says what it lacks.
  const idle = idleRoles(deps.config);
  if (idle !== null) deps.logger.warn({ roles: idle.roles }, idle.line);
  const running: RunningChat[] = [];
  try {
    for (const start of platforms) {
      const chat = await start(deps);
      if (chat !== null) running.push(chat);
    }
    // One of several processes (TOKENWATCH_ROLES) never falls back to the console: a watcher needs
    // no chat, and a console reading a service's empty standard input would end the process.
    if (running.length === 0 && !deps.config.roles.clustered) {
      const chat = await fallback(deps);
      if (chat !== null) running.push(chat);
    }
  } catch (error) {
    await Promise.allSettled(running.map((chat) => chat.stop()));
    throw error;
  }
  // The built-in simulator (no service configured) serves invented prices: the line says so.
  const simulated = deps.config.market === null;
  for (const chat of running) {
    if (simulated)
      deps.logger.info(
        { chat: chat.name, marketData: 'simulated' },
        'chat started on simulated data: every card and alert says so in its footer',
      );
    else deps.logger.info({ chat: chat.name, marketData: 'service' }, 'chat started');
  }
  return running;
}
