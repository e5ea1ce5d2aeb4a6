/**
 * The chats part: every configured platform of the registry (src/chats/platforms.ts, with those
 * registered before the start), or the console when none is; each hands what people type to the
 * commands through its inbox.
 */
import { createConsoleChat, type ConsoleIo } from '../chats/console/start';
import { consoleSimulator } from './consoleSimulator';
import { platformChats, startChats, type ChatStarter, type PlatformEnv, type RunningChat } from '../chats/startChats';
import type { Config } from '../config';
import type { Dispatcher } from '../dispatch/dispatcher';
import type { Logger } from '../log';
import type { Store } from '../store/store';
import type { Lifecycle } from './lifecycle';
import type { MarketPart } from './market';
import type { RunningChats } from './runningChats';

export interface ChatsDeps {
  config: Config;
  logger: Logger;
  store: Store;
  market: MarketPart;
  dispatcher: Dispatcher;
  resync(address: string | null): Promise<void>;
  console: ConsoleIo;
  /** The chats to try instead of the registry's platforms (tests' fakes); undefined: every platform of the registry. */
  platforms: readonly ChatStarter[] | undefined;
  /** Where a platform's own settings section reads its variables; undefined: the process's environment. */
  env: PlatformEnv | undefined;
  running: RunningChats;
  lifecycle: Lifecycle;
}

export async function startChatsPart(deps: ChatsDeps): Promise<RunningChat[]> {
  const { config, logger, store, market, dispatcher, resync, lifecycle } = deps;
  const pausesChanged = (): void =>
    void resync(null).catch((error: unknown) => logger.warn({ err: error }, 'resync after a chat was paused or resumed failed'));
  const fallback = createConsoleChat(
    deps.console,
    market.simulator === null ? null : consoleSimulator(market.simulator),
    market.endpoints.baseUrl,
  );
  const env = deps.env ?? process.env;
  const chatDeps = { config, logger, dispatcher, store, roles: config.roles.set, env, pausesChanged };
  const chats = await startChats(chatDeps, deps.platforms ?? platformChats(), fallback);
  deps.running.started(chats);
  lifecycle.onStop('chats', async () => Promise.allSettled(chats.map((chat) => chat.stop())), 'drains');
  return chats;
}
