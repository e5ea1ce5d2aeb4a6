/**
 * On the built-in simulator the prices are invented: every card and every alert says "simulated
 * data" in its footer, on every platform, and the start-up log line says so too. The whole bot
 * in-process (startApp), with a real SQLite file; chat platforms are recording senders, and what
 * they were handed is rendered by the real Discord, Telegram and console renderers.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startApp, type App } from '../src/app';
import type { Card } from '../src/cards/card';
import type { ChatRef } from '../src/model/chat';
import { renderCardText } from '../src/chats/console/render';
import { renderCardMessage } from '../src/chats/discord/embed';
import type { ChatStarter } from '../src/chats/startChats';
import { renderCardMessages } from '../src/chats/telegram/html';
import { loadConfig } from '../src/config';
import { startSimulator, type RunningSimulator } from 'tmds-simulator';
import { RecordingSender, capturedLogger, tempDb } from './delivery/helpers';

const WAIT = { timeout: 15_000, interval: 25 };
const CHAT_TOKENS = {
  TELEGRAM_BOT_TOKEN: '123456789:AAsimulated-data-test',
  DISCORD_TOKEN: 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfakeX.abcdefghijklmnopqrstuvwxyz0123456789',
  DISCORD_APP_ID: '1100000000000000001',
};
// Reconciliation at start only: the test decides when the market changes.
const QUIET = { RECONCILE_CRON: '0 0 1 1 *' };

const telegramChat: ChatRef = { platform: 'telegram', chatId: '-100111', threadId: null, scopeId: null };
const discordChat: ChatRef = { platform: 'discord', chatId: '555', threadId: null, scopeId: 'guild-1' };

function fakePlatform(sender: RecordingSender): ChatStarter {
  return async () => ({ name: sender.platform, sender, ended: null, stop: async () => undefined });
}

/** The footer as Discord and Telegram show it (the embed's, the message's last line), and the console's whole text, where the footer is a line of its own. */
function footers(card: Card): { discord: string; telegram: string; console: string } {
  const telegram = renderCardMessages(card).at(-1);
  const html = telegram === undefined ? '' : telegram.kind === 'text' ? telegram.html : telegram.caption;
  return {
    discord: renderCardMessage(card).embeds[0]?.footer?.text ?? '',
    telegram: html.split('\n').at(-1) ?? '',
    console: renderCardText(card, { width: 200 }),
  };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(
  env: Record<string, string>,
  platforms?: RecordingSender[],
): Promise<{ app: App; lines: Array<Record<string, unknown>>; output: () => string; input: PassThrough }> {
  const db = tempDb();
  cleanups.push(db.cleanup);
  const { logger, lines } = capturedLogger();
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const app = await startApp({
    config: loadConfig({ ...env, ...QUIET, DATABASE_PATH: db.path }),
    logger,
    console: { input, output, interactive: false, outDir: db.path.replace(/tokenwatch\.db$/, 'out') },
    ...(platforms === undefined ? {} : { platforms: platforms.map(fakePlatform) }),
  });
  cleanups.push(() => app.stop());
  return { app, lines, output: () => printed, input };
}

async function say(app: App, chat: ChatRef, line: string) {
  const reply = await app.dispatcher.runLine(line, { chat, userId: 'manager-1', isManager: async () => true });
  if (reply === null) throw new Error(`not a command: ${line}`);
  return reply;
}

describe('simulated data', () => {
  it('TMDS_BASE_URL=simulator with chat tokens: a command card and an alert say so on Discord, Telegram and the console, and so does the start-up line', async () => {
    const telegram = new RecordingSender('telegram');
    const discord = new RecordingSender('discord');
    const { app, lines } = await start({ ...CHAT_TOKENS, TMDS_BASE_URL: 'simulator' }, [telegram, discord]);
    const simulator = app.simulator as RunningSimulator;
    expect(simulator).not.toBeNull();
    expect(
      lines
        .filter((line) => line.msg === 'chat started on simulated data: every card and alert says so in its footer')
        .map((line) => line.chat),
    ).toEqual(['telegram', 'discord']);

    const hostile = new Set(simulator.market.hostileTokens());
    const token = simulator.market.tokenAddresses().find((address) => !hostile.has(address)) as string;

    // A look-up, a refusal of a typo and an error all carry the mark.
    for (const line of [`/token ${token}`, '/token nonsense', '/nosuchcommand']) {
      const shown = footers((await say(app, telegramChat, line)).card);
      expect(shown.discord, line).toMatch(/^simulated data/);
      expect(shown.telegram, line).toMatch(/^<i>simulated data/);
      expect(shown.console, line).toMatch(/^simulated data/m);
    }
    // The token card keeps its own footer after the mark.
    expect(footers((await say(app, telegramChat, `/token ${token}`)).card).discord).toContain(`simulated data · ${token.slice(0, 4)}`);

    for (const chat of [telegramChat, discordChat]) expect((await say(app, chat, `/track token ${token} risk`)).errorId).toBeNull();
    await vi.waitFor(async () => expect(await app.store.state.token(token)).not.toBeNull(), WAIT);
    const before = simulator.market.token(token)?.riskStatus;
    simulator.controls.risk({ tokenAddress: token, riskStatus: before === 'DANGER' ? 'WARNING' : 'DANGER' });
    await vi.waitFor(() => expect(telegram.sent.length + discord.sent.length).toBe(2), WAIT);
    for (const { card } of [...telegram.sent, ...discord.sent]) {
      const shown = footers(card);
      // After "alert", the timing line when the frame gave its own time (src/delivery/timingFooter.ts).
      expect(shown.discord).toMatch(/^simulated data · .* · alert( · seen .+ later)?$/);
      expect(shown.telegram).toMatch(/^<i>simulated data · .* · alert( · seen .+ later)? · \d{4}-\d\d-\d\d \d\d:\d\d UTC<\/i>$/);
      expect(shown.console).toMatch(/^simulated data · .* · alert · /m);
    }
  }, 60_000);

  it('the console quick start (no chat token, no TMDS_BASE_URL) prints the mark under every card', async () => {
    const { app, input, output } = await start({});
    const simulator = app.simulator as RunningSimulator;
    expect(simulator).not.toBeNull();
    const token = simulator.market.tokenAddresses()[0] as string;
    input.end(`/token ${token}\n/help\n`);
    await app.ended;
    expect(output()).toContain('built-in simulator');
    // One mark per card: the token card and the help card.
    expect(output().match(/^simulated data/gm)?.length, output()).toBe(2);
  }, 60_000);

  it('on a service, no card and no start-up line says it', async () => {
    const sim = await startSimulator({ apiKey: 'service-key-1a2b', port: 0, seed: 42 });
    cleanups.push(() => sim.close());
    const telegram = new RecordingSender('telegram');
    const { app, lines } = await start({ ...CHAT_TOKENS, TMDS_BASE_URL: sim.baseUrl, TMDS_API_KEY: 'service-key-1a2b' }, [telegram]);
    expect(app.simulator).toBeNull();
    expect(lines.find((line) => line.msg === 'chat started')).toMatchObject({ chat: 'telegram', marketData: 'service' });
    const token = sim.market.tokenAddresses()[0] as string;
    const shown = footers((await say(app, telegramChat, `/token ${token}`)).card);
    expect(shown.discord).not.toContain('simulated data');
    expect(shown.telegram).not.toContain('simulated data');
    expect(shown.console).not.toContain('simulated data');
    expect(shown.discord).toContain(token.slice(0, 4));
  }, 60_000);
});
