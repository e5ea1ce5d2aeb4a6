/**
 * How Telegram's updates come: long polling (grammY's runner: updates handled concurrently, in
 * order within a chat), started at once or while this process holds the poller lease, or a
 * webhook served on a port of its own. Each update ends at once: its work waits in its chat's
 * queue (src/chats/inbox.ts).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { run, type RunnerHandle } from '@grammyjs/runner';
import { webhookCallback, type Bot, type Context } from 'grammy';
import { registerSecret, type Logger } from '../../log';
import { redactUrl } from '../../urlCredentials';
import { classifyTelegramError } from './failures';

/** The updates the bot asks for; anything else Telegram keeps to itself. */
export const ALLOWED_UPDATES = ['message', 'callback_query', 'my_chat_member'] as const;

export interface TelegramWebhookOptions {
  /** The public HTTPS address Telegram posts to; its path is where the local server listens. */
  url: string;
  /** Telegram's secret_token, checked on every post; a random one per start when null. */
  secret: string | null;
  port: number;
  /** Listen address (default all interfaces, as behind a reverse proxy). */
  host?: string;
}

export interface TelegramWebhook {
  /** The local address the webhook server listens on (http://host:port). */
  address: string;
  /** Closes the server; the webhook stays set, so Telegram keeps the updates for the next start. */
  close(): Promise<void>;
}

/** Serves the webhook on its port and tells Telegram where it is. */
export async function serveWebhook(bot: Bot<Context>, options: TelegramWebhookOptions, logger: Logger): Promise<TelegramWebhook> {
  const secret = options.secret ?? randomBytes(24).toString('base64url');
  registerSecret(secret);
  const path = new URL(options.url).pathname || '/';
  // Updates go to the chats' queues, so a post ends at once; the timeout only guards the rest.
  const handle = webhookCallback(bot, 'http', { secretToken: secret, onTimeout: 'return', timeoutMilliseconds: 9_000 });
  const server: Server = createServer((req, res) => {
    const requestPath = (req.url ?? '/').split('?', 1)[0];
    if (req.method !== 'POST' || requestPath !== path) {
      res.writeHead(404).end();
      return;
    }
    handle(req, res).catch((error: unknown) => {
      logger.warn({ err: error }, 'Telegram webhook request failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const listening = server.address() as AddressInfo;
  const address = `http://${listening.address}:${listening.port}`;
  await bot.api.setWebhook(options.url, { secret_token: secret, allowed_updates: [...ALLOWED_UPDATES] });
  logger.info({ url: redactUrl(options.url), listen: address }, 'Telegram webhook set');
  return {
    address,
    async close() {
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface TelegramPolling {
  start(): Promise<void>;
  stop(): Promise<void>;
  running(): boolean;
}

/** Long polling, started and stopped at will (several processes: under the poller lease). */
export function longPolling(bot: Bot<Context>, logger: Logger): TelegramPolling {
  let runner: RunnerHandle | null = null;
  return {
    async start() {
      if (runner?.isRunning() === true) return;
      // Telegram refuses getUpdates while a webhook is set (from an earlier run in webhook mode).
      await bot.api.deleteWebhook();
      const started = run(bot, { runner: { fetch: { allowed_updates: [...ALLOWED_UPDATES] }, silent: true } });
      runner = started;
      // The runner gives up on what retrying cannot mend (401: the token was revoked; 409: another
      // process polls with it); its task would end in an unhandled rejection. Alerts still go out.
      started.task()?.catch((error: unknown) => {
        logger.error(
          { reason: classifyTelegramError(error).reason },
          'Telegram long polling stopped: commands are not received until the bot restarts',
        );
      });
    },
    async stop() {
      if (runner?.isRunning() === true) await runner.stop();
    },
    running: () => runner?.isRunning() === true,
  };
}
