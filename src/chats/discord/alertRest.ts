/**
 * The REST client and sender Discord alerts go through: a client of their own, apart from the
 * gateway client's, so that delivery finishes its sends after the chat stops (a destroyed
 * discord.js client's REST loses its token), and so that a process running no gateway at all (the
 * `sender` role without `discord`) sends alerts the same way.
 */
import { REST } from 'discord.js';
import type { Logger } from '../../log';
import type { DiscordRequestCounts } from './requestCounts';
import { discordRestOptions } from './restOptions';
import { DiscordAlertSender } from './sender';

export interface AlertRestOptions {
  token: string;
  /** REST base, without the version (`https://discord.com/api`). */
  restApi: string;
  logger: Logger;
  /** Where the alerts' REST answers are counted, with the chat's. */
  requests: DiscordRequestCounts;
}

export function createAlertSender(options: AlertRestOptions): DiscordAlertSender {
  const rest = new REST(discordRestOptions(options.restApi)).setToken(options.token);
  rest.on('invalidRequestWarning', (info) =>
    options.logger.warn({ count: info.count, remainingMs: info.remainingTime }, 'discord invalid requests are adding up (alerts)'),
  );
  options.requests.watch(rest);
  return new DiscordAlertSender({ rest, logger: options.logger });
}
