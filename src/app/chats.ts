/**
 * The chats part: every configured platform of the registry (src/chats/platforms.ts, with those
 * registered before the start), or the console when none is; each hands what people type to the
 * commands through its inbox.
 */
import { createConsoleChat, type ConsoleIo } from '../chats/console/start';
import { platformChats, startChats, type ChatStarter, type PlatformEnv, type RunningChat } from '../chats/startChats';
import type { ClusterMember } from '../cluster/member';
import type { Config } from '../config';
import type { Dispatcher } from '../dispatch/dispatcher';
import type { Logger } from '../log';
import { PgDiscordGateway } from '../store/postgres/pgDiscordGateway';
import { PostgresStore } from '../store/postgres/postgresStore';
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
  cluster: ClusterMember | null;
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
  const { config, logger, store, market, dispatcher, cluster, resync, lifecycle } = deps;
  // Several gateway processes pace their IDENTIFYs and share their sessions through the database.
  const gateway = cluster !== null && store instanceof PostgresStore ? new PgDiscordGateway(store.db) : null;
  const pausesChanged = (): void =>
    void resync(null).catch((error: unknown) => logger.warn({ err: error }, 'resync after a chat was paused or resumed failed'));
  const fallback = createConsoleChat(deps.console, market.simulator, market.endpoints.baseUrl);
  const env = deps.env ?? process.env;
  const chatDeps = { config, logger, dispatcher, store, roles: config.roles.set, env, gateway, pausesChanged };
  const chats = await startChats(chatDeps, deps.platforms ?? platformChats(), fallback);
  deps.running.started(chats);
  lifecycle.onStop('chats', async () => Promise.allSettled(chats.map((chat) => chat.stop())), 'drains');
  return chats;
}
