/**
 * The whole bot in-process, as main starts it: the simulator (quiet: no trades of its own, with its
 * controls; in the spec's wire style or the live service's), a real store (a SQLite file, or a
 * PostgreSQL database), the real stream client, watcher, reconciliation, dispatcher and delivery. Chats are fakes of the platforms' AlertSender that record what they were sent, and
 * commands are typed through the dispatcher as a chat would.
 */
import { PassThrough } from 'node:stream';
import type { ChatRef, Platform } from '../../src/model/chat';
import type { ChatReply } from '../../src/dispatch/reply';
import type { ChatStarter } from '../../src/chats/startChats';
import { loadConfig } from '../../src/config';
import { startApp, type App } from '../../src/app';
import { silentLogger, type Logger } from '../../src/log';
import { startSimulator, type RunningSimulator, type SimulatorProtocol, type WireStyle } from 'tmds-simulator';
import { RecordingSender } from '../delivery/helpers';

export const KEY = 'e2e-test-key-5f2a';

/**
 * `style`: how the simulator writes tokens; `real` as the live service does (packages/tmds-simulator/src/wireStyle.ts).
 * `protocol`: the streams' protocol; the vendor's writes in its own style.
 */
export async function quietSimulator(style: WireStyle = 'spec', protocol: SimulatorProtocol = 'spec'): Promise<RunningSimulator> {
  const written = protocol === 'vendor' ? { protocol } : { style };
  return startSimulator({ apiKey: KEY, port: 0, seed: 42, control: true, tradesPerSecond: 0, ...written });
}

/**
 * Settings for a simulator's protocol: pinned (a known simulator need not be asked), and on the
 * vendor's the REST polls at a second, so that a change only REST shows comes within a test's wait.
 */
export function protocolSettings(
  sim: Pick<RunningSimulator, 'baseUrl' | 'wsUrl'> & { protocol?: SimulatorProtocol },
): Record<string, string> {
  if (sim.protocol === undefined) return {};
  return sim.protocol === 'vendor'
    ? { TMDS_PROTOCOL: 'vendor', TOKEN_POLL_INTERVAL: '1s', WALLET_POLL_INTERVAL: '1s' }
    : { TMDS_PROTOCOL: 'spec' };
}

export interface Harness {
  app: App;
  senders: Map<Platform, RecordingSender>;
  /** Runs `/line` in `chat` as its manager. */
  say(chat: ChatRef, line: string): Promise<ChatReply>;
}

export function chatRef(platform: Platform, chatId: string): ChatRef {
  return { platform, chatId, threadId: null, scopeId: platform === 'discord' ? 'guild-1' : null };
}

function fakePlatform(sender: RecordingSender): ChatStarter {
  return async () => ({ name: sender.platform, sender, ended: null, stop: async () => undefined });
}

/**
 * `database` is the SQLite file's path, or the settings that name a store (`DATABASE_PATH` or
 * `DATABASE_URL`, as test/store/support/stores.ts gives them).
 */
export async function startHarness(
  sim: Pick<RunningSimulator, 'baseUrl' | 'wsUrl'> & { protocol?: SimulatorProtocol },
  database: string | Record<string, string>,
  options: {
    logger?: Logger;
    senders?: RecordingSender[] /** The operators' HTTP server on a free port of 127.0.0.1. */;
    http?: boolean;
    /** More settings, over the harness's own. */
    env?: Record<string, string>;
  } = {},
): Promise<Harness> {
  const settings = loadConfig({
    TMDS_BASE_URL: sim.baseUrl,
    TMDS_WS_URL: sim.wsUrl,
    TMDS_API_KEY: KEY,
    ...(typeof database === 'string' ? { DATABASE_PATH: database } : database),
    // Reconciliation at start and after reconnects only: a test decides when the market changes,
    // and reads it fresh after (a wallet's trades too: a /track wallet reads them first).
    RECONCILE_CRON: '0 0 1 1 *',
    TMDS_CACHE_TTL: 'token-data=0,wallet-tracker=0',
    ...protocolSettings(sim),
    ...options.env,
  });
  // HTTP_PORT takes 1–65535; port 0 (any free one) is for tests, which read the address back.
  const config = options.http === true ? { ...settings, http: { host: '127.0.0.1', port: 0 } } : settings;
  const senders = options.senders ?? [new RecordingSender('telegram'), new RecordingSender('discord')];
  const app = await startApp({
    config,
    logger: options.logger ?? silentLogger,
    console: { input: new PassThrough(), output: new PassThrough(), interactive: false, outDir: '/tmp' },
    platforms: senders.map(fakePlatform),
  });
  return {
    app,
    senders: new Map(senders.map((sender) => [sender.platform, sender])),
    say: async (chat, line) => {
      const reply = await app.dispatcher.runLine(line, { chat, userId: 'manager-1', isManager: async () => true });
      if (reply === null) throw new Error(`not a command: ${line}`);
      return reply;
    },
  };
}
