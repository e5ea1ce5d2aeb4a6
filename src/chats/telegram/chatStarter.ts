/**
 * The Telegram platform's entry (src/chats/platforms.ts): its chat as the app starts it, from the
 * settings, or not at all when no TELEGRAM_BOT_TOKEN is set. grammY loads only then.
 *
 * Its updates follow the process's roles (TOKENWATCH_ROLES): with the telegram role, the webhook
 * (every such process serves it) or long polling (one process at a time when several run: the one
 * holding the poller lease, src/cluster/); with the sender role alone, no updates at all, only the
 * alert sender.
 */
import type { Config } from '../../config';
import type { Dispatcher } from '../../dispatch/dispatcher';
import type { Logger } from '../../log';
import type { Role } from '../../model/roles';
import type { Store } from '../../store/store';
import { senderLeaseOf, type ChatPlatform, type ChatDeps } from '../platform';
import { TELEGRAM_POLLER_LEASE } from './pollerLease';
import { readTelegramSettings, TELEGRAM_TOKEN_VARIABLE, type TelegramSettings } from './settings';
import type { RunningTelegramChat } from './start';

export interface TelegramChatDeps {
  config: Config;
  logger: Logger;
  dispatcher: Dispatcher;
  store: Store;
  roles: ReadonlySet<Role>;
  /** Told when the bot's removal from a chat, or its return, paused or resumed it. */
  pausesChanged?: () => void;
}

/** The chat with updates (`gateway`), or the alert sender alone (no updates, no webhook). */
async function startTelegram(deps: ChatDeps, settings: TelegramSettings, gateway: boolean): Promise<RunningTelegramChat> {
  const { startTelegramChat } = await import('./start');
  return startTelegramChat({
    token: settings.token,
    apiRoot: settings.apiRoot,
    webhook: gateway ? settings.webhook : null,
    updates: !gateway ? 'none' : deps.config.roles.clustered ? 'held' : 'poll',
    dispatcher: deps.dispatcher,
    store: deps.store,
    logger: deps.logger,
    startTimeoutMs: deps.config.chatStartTimeoutMs,
    ...(deps.pausesChanged === undefined ? {} : { onPausesChanged: deps.pausesChanged }),
  });
}

export const telegramPlatform: ChatPlatform<TelegramSettings> = {
  name: 'telegram',
  // Its section (settings.ts), read from the environment the other settings were read from, and checked against them.
  settings: {
    read: (config) => readTelegramSettings(config),
    token: TELEGRAM_TOKEN_VARIABLE,
    addresses: (settings) => ({ TELEGRAM_API_ROOT: settings.apiRoot }),
  },
  start: (deps, settings) => startTelegram(deps, settings, true),
  sendOnly: (deps, settings) => startTelegram(deps, settings, false),
  // Long polling (no webhook) runs in one process at a time: the poller lease's holder.
  leases: (settings, roles) => (roles.has('telegram') && settings.webhook === null ? [TELEGRAM_POLLER_LEASE] : []),
  leaseLabels: [senderLeaseOf('telegram'), TELEGRAM_POLLER_LEASE],
};
