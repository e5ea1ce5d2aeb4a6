/**
 * The Telegram chat as the app starts it: from the settings, or not at all when no
 * TELEGRAM_BOT_TOKEN is set. grammY loads only then.
 */
import type { Config } from '../../config';
import type { Dispatcher } from '../../dispatch/dispatcher';
import type { Logger } from '../../log';
import type { Store } from '../../store/store';
import type { RunningTelegramChat } from './start';

export interface TelegramChatDeps {
  config: Config;
  logger: Logger;
  dispatcher: Dispatcher;
  store: Store;
}

export async function telegramChat(deps: TelegramChatDeps): Promise<RunningTelegramChat | null> {
  const settings = deps.config.telegram;
  if (settings === null) return null;
  const { startTelegramChat } = await import('./start');
  return startTelegramChat({
    token: settings.token,
    apiRoot: settings.apiRoot,
    webhook: settings.webhook,
    dispatcher: deps.dispatcher,
    store: deps.store,
    logger: deps.logger,
  });
}
