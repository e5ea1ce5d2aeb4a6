/**
 * The chats the bot talks through, started once the commands and the store are ready: each chat
 * platform of the registry (src/chats/platforms.ts) starts when it is configured and this
 * process's roles ask for it, else nothing. With no platform configured, the console chat runs
 * instead, so a fresh checkout answers at once (not in one of several processes, where a watcher
 * runs no chat).
 */
import { idleRoles } from './idleRoles';
import type { ChatDeps, ChatStarter, RunningChat } from './platform';

export type { ChatDeps, ChatPlatform, ChatStarter, PlatformEnv, PlatformSettings, RunningChat } from './platform';
export { chatPlatformNames, chatPlatforms, platformChats, registerChatPlatform } from './platforms';

/**
 * Starts every configured platform; when none is, `fallback` (the console). A platform that fails
 * to start stops start-up: the chats started before it are stopped first.
 */
export async function startChats(deps: ChatDeps, platforms: readonly ChatStarter[], fallback: ChatStarter): Promise<RunningChat[]> {
  // A process whose roles have nothing to do would run silently: one line says what it lacks.
  const idle = idleRoles(deps.config, deps.env);
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
