/**
 * The Telegram chat as the app starts it: from the settings, or not at all when no
 * TELEGRAM_BOT_TOKEN is set. grammY loads only then.
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

export async function telegramChat(deps: TelegramChatDeps): Promise<RunningTelegramChat | null> {
  const settings = deps.config.telegram;
  if (settings === null) return null;
  const gateway = deps.roles.has('telegram');
  if (!gateway && !deps.roles.has('sender')) return null;
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
