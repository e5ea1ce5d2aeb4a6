/**
 * A new chat platform is its entry and its folder: the echo platform, registered from this folder
 * alone, is started by the app from its settings section, answers /token and a pasted address,
 * runs a button pressed under its card, receives an alert through the real outbox and delivery,
 * and tells a chat that flooded it that input was skipped. The bot on the simulator, a real
 * SQLite store, the real watcher, dispatcher and delivery, as the other end-to-end tests run it.
 */
import { PassThrough } from 'node:stream';
import type { RunningSimulator } from 'tmds-simulator';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { startApp, type App } from '../../../src/app';
import { chatPlatformNames, platformLeaseLabels, registerChatPlatform } from '../../../src/chats/platforms';
import { SKIPPED_NOTICE } from '../../../src/chats/inbox';
import { loadConfig } from '../../../src/config';
import { silentLogger } from '../../../src/log';
import type { Platform } from '../../../src/model/chat';
import { tempDb } from '../../delivery/helpers';
import { KEY, quietSimulator } from '../../e2e/harness';
import { EchoNetwork } from './network';
import { ECHO, echoPlatform } from './platform';

const WAIT = { timeout: 15_000, interval: 25 };
const ROOM = 'room-1';
const CHAT = { platform: ECHO as Platform, chatId: ROOM, threadId: null, scopeId: null };

let unregister: () => void = () => undefined;
let sim: RunningSimulator;
let db: { path: string; cleanup: () => void };
let network: EchoNetwork;
let app: App;
let token: string;

beforeAll(async () => {
  unregister = registerChatPlatform(echoPlatform);
  sim = await quietSimulator();
  const hostile = new Set(sim.market.hostileTokens());
  token = sim.market.tokenAddresses().find((address) => !hostile.has(address)) ?? '';
});

afterAll(async () => {
  unregister();
  await sim.close();
});

beforeEach(async () => {
  db = tempDb();
  network = EchoNetwork.open(`echo-${process.pid}-${Math.random().toString(36).slice(2)}`);
  // The roles TOKENWATCH_ROLES may name are the registry's platforms, echo included.
  const config = loadConfig(
    {
      TMDS_BASE_URL: sim.baseUrl,
      TMDS_WS_URL: sim.wsUrl,
      TMDS_API_KEY: KEY,
      DATABASE_PATH: db.path,
      RECONCILE_CRON: '0 0 1 1 *',
      TMDS_CACHE_TTL: 'token-data=0,wallet-tracker=0',
    },
    { platforms: chatPlatformNames() },
  );
  app = await startApp({
    config,
    logger: silentLogger,
    console: { input: new PassThrough(), output: new PassThrough(), interactive: false, outDir: '/tmp' },
    // The echo platform's own settings section reads these.
    env: { ECHO_NETWORK: network.name, ECHO_QUEUE_MAX: '2' },
  });
});

afterEach(async () => {
  await app.stop();
  network.close();
  db.cleanup();
});

it('is started from its settings section, and the roles and lease labels name it', () => {
  // Configured, it runs instead of the console fallback.
  expect(app.chats.map((chat) => chat.name)).toEqual([ECHO]);
  expect(loadConfig({}, { platforms: chatPlatformNames() }).roles.set.has(ECHO)).toBe(true);
  expect(platformLeaseLabels()).toContain('sender:echo');
  expect(echoPlatform.settings.read(loadConfig({}), {})).toBeNull();
  expect(() => echoPlatform.settings.read(loadConfig({}), { ECHO_NETWORK: 'x', ECHO_QUEUE_MAX: 'many' })).toThrow(
    /^Invalid configuration: ECHO_QUEUE_MAX must be a whole number/,
  );
});

it('answers /token and a paste, runs a pressed button, and receives the alert of what it tracks', async () => {
  network.type(ROOM, 'ann', `/token ${token}`);
  await vi.waitFor(() => expect(network.messages(ROOM, 'answer')).toHaveLength(1), WAIT);
  const card = network.messages(ROOM, 'answer')[0];
  // The token card: its name and symbol on the first line, its risk among the fields.
  const title = card?.text.split('\n')[0] ?? '';
  expect(title).toMatch(/ \([A-Z0-9]+\)$/);
  expect(card?.text).toMatch(/^Risk: /m);
  const track = card?.buttons.find((button) => button.label === 'Track');
  expect(track).toBeDefined();

  // A pasted address is /token of it, read through the paste limits.
  network.type(ROOM, 'bob', `look at https://dexscreener.com/solana/${token}`);
  await vi.waitFor(() => expect(network.messages(ROOM, 'answer')).toHaveLength(2), WAIT);
  expect(network.messages(ROOM, 'answer')[1]?.text.split('\n')[0]).toBe(title);

  // The card's Track button follows the token from this chat.
  network.press(ROOM, 'ann', track?.key ?? '');
  await vi.waitFor(() => expect(network.messages(ROOM, 'answer')).toHaveLength(3), WAIT);
  const { follows } = await app.store.follows.list(CHAT, { offset: 0, limit: 10 });
  expect(follows.map((follow) => follow.address)).toEqual([token]);

  // A risk change reaches the chat once, through the outbox and the echo platform's sender.
  await vi.waitFor(async () => expect(await app.store.state.token(token)).not.toBeNull(), WAIT);
  const before = sim.market.token(token)?.riskStatus;
  sim.controls.risk({ tokenAddress: token, riskStatus: before === 'DANGER' ? 'WARNING' : 'DANGER' });
  await vi.waitFor(() => expect(network.messages(ROOM, 'alert')).toHaveLength(1), WAIT);
  await app.watcher.idle();
  await app.delivery.drain();
  expect(network.messages(ROOM, 'alert')).toHaveLength(1);
  expect(network.messages(ROOM, 'alert')[0]?.text).toMatch(/risk/i);
});

it('tells a chat that floods it that input was skipped, once, and answers what it kept', async () => {
  network.holdAnswers();
  // One runs (its answer held), two wait (ECHO_QUEUE_MAX), the rest are skipped.
  for (let i = 0; i < 6; i += 1) network.type(ROOM, 'ann', '/help');
  await vi.waitFor(() => expect(network.messages(ROOM, 'notice')).toHaveLength(1), WAIT);
  expect(network.messages(ROOM, 'notice')[0]?.text).toBe(SKIPPED_NOTICE);
  expect(network.messages(ROOM, 'answer')).toHaveLength(0);
  network.letAnswersGo();
  await vi.waitFor(() => expect(network.messages(ROOM, 'answer')).toHaveLength(3), WAIT);
  expect(network.messages(ROOM, 'notice')).toHaveLength(1);
});
