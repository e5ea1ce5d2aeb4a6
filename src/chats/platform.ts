/**
 * What a chat platform is to the bot: one ChatPlatform entry (its name, its settings section, its
 * start, its alert sender, the leases and metric labels it needs), registered in
 * src/chats/platforms.ts, and the running chat its start returns. Everything else reads a
 * platform's name and needs from its entry: the roles (TOKENWATCH_ROLES), the cluster's leases,
 * the lease metric's labels, the idle-roles line, the console fallback and the app.
 */
import type { Config } from '../config';
import type { AlertSender } from '../delivery/sender';
import type { Dispatcher } from '../dispatch/dispatcher';
import type { ShardState } from '../follows/status';
import type { Logger } from '../log';
import type { Role } from '../model/roles';
import type { Store } from '../store/store';
import type { LeasedWork } from '../cluster/parts';

/** Environment variables, as a platform's settings section reads its own. */
export type PlatformEnv = Readonly<Record<string, string | undefined>>;

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
  /**
   * Where a platform registered from elsewhere may read its section's variables (default: the
   * process's environment); the built-in platforms read theirs from `config.env`.
   */
  env?: PlatformEnv;
  /**
   * Told when a platform's own event paused or resumed chats (the bot removed from a group or a
   * server, a channel lost, the bot back): the watcher re-reads its targets, so streams no chat
   * reads any more are let go at once rather than at its next poll.
   */
  pausesChanged?: () => void;
}

export interface RunningChat {
  /** For log lines: "console", "discord", "telegram"; a platform's entry name. */
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
  /**
   * Work run only while this process holds the named lease (several processes: Telegram's long
   * polling under `telegram:poller`), started and stopped from outside; absent otherwise.
   */
  poller?: LeasedWork;
}

/** Starts a platform's chat, or returns null when the platform is not configured. */
export type ChatStarter = (deps: ChatDeps) => Promise<RunningChat | null>;

/** How a platform reads its settings, and what switches it on. */
export interface PlatformSettings<S> {
  /**
   * The platform's settings, or null when it is not configured (its token unset), throwing
   * ConfigError (src/config.ts) for a wrong variable. Each platform's section is its own, in its
   * folder (src/chats/<name>/settings.ts), and may check itself against the other settings in
   * `config`. A built-in platform reads its variables from `config.env`, the environment the other
   * settings were read from; a platform registered from elsewhere may read them from `env` instead.
   * Every section is read once at start, before anything starts (`loadSettings`, src/chats/platforms.ts).
   */
  read(config: Config, env: PlatformEnv): S | null;
  /** The variable that switches the platform on, as the line about a role with nothing to do names it. */
  token: string;
  /**
   * The addresses the platform sends its token to, by the variable that set each (null: the
   * platform's own): the start-up line about plain addresses to another machine names them.
   */
  addresses?(settings: S): Readonly<Record<string, string | null>>;
}

/**
 * One chat platform. Its name is its chats' `ChatRef.platform`, its role in TOKENWATCH_ROLES, its
 * sender's lease (`sender:<name>`) and its label in the metrics. Its folder (src/chats/<name>/)
 * translates the platform's SDK into the inbox's calls (src/chats/inbox.ts) and renders Cards.
 */
export interface ChatPlatform<S = unknown> {
  readonly name: string;
  readonly settings: PlatformSettings<S>;
  /** Its chat, in a process with the platform's role: commands in, answers out, and its alert sender. */
  start(deps: ChatDeps, settings: S): Promise<RunningChat>;
  /** Its alert sender alone, in a process with the sender role and not the platform's. Absent: nothing runs there. */
  sendOnly?(deps: ChatDeps, settings: S): Promise<RunningChat>;
  /** Named leases it wants in a process of several beside its sender's (`sender:<name>`): Telegram's poller. */
  leases?(settings: S, roles: ReadonlySet<Role>): readonly string[];
  /** Every named lease it may hold, its sender's included: the lease metric's labels, each reading 0 when not held. */
  readonly leaseLabels: readonly string[];
}

/** The named lease of a platform's alert sender: one process of several sends its alerts. */
export function senderLeaseOf(platform: string): string {
  return `sender:${platform}`;
}

/**
 * The entry's chat for a process's roles: its chat with its role, its alert sender alone with the
 * sender role, else nothing; nothing too when the platform is not configured.
 */
export function platformStarter(platform: ChatPlatform): ChatStarter {
  return async (deps) => {
    const settings = platform.settings.read(deps.config, deps.env ?? process.env);
    if (settings === null) return null;
    if (deps.roles.has(platform.name)) return platform.start(deps, settings);
    if (deps.roles.has('sender') && platform.sendOnly !== undefined) return platform.sendOnly(deps, settings);
    return null;
  };
}
