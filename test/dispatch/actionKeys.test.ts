/**
 * Every kind of card's actions pushed through the action keys, as the chats will show them: each
 * button's key fits Telegram's callback_data (64 bytes) and Discord's custom_id (100 characters)
 * whatever the action holds, and presses back to exactly the action it stands for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Card } from '../../src/cards/card';
import type { ChatRef } from '../../src/model/chat';
import type { ChatReply } from '../../src/dispatch/reply';
import type { AnyCommand } from '../../src/dispatch/command';
import { Dispatcher, type CommandCaller } from '../../src/dispatch/dispatcher';
import { loadCommands } from '../../src/dispatch/registry';
import { silentLogger } from '../../src/log';
import { MemoryActionKeyStore } from '../support/memoryActionKeys';
import { startTestMarket, type TestMarket } from '../support/market';

const TELEGRAM_CALLBACK_DATA_BYTES = 64;
const DISCORD_CUSTOM_ID_CHARS = 100;
const KEY_BYTES = 20;

const CHAT: ChatRef = { platform: 'telegram', chatId: '-1001234567890', threadId: '42', scopeId: null };
const caller: CommandCaller = { chat: CHAT, userId: '123456789', isManager: () => Promise.resolve(true) };

let market: TestMarket;
let commands: AnyCommand[];
let keys: MemoryActionKeyStore;
let dispatcher: Dispatcher;

beforeAll(async () => {
  market = await startTestMarket();
  commands = await loadCommands();
  keys = new MemoryActionKeyStore();
  dispatcher = new Dispatcher({ commands, services: { query: market.query }, actionKeys: keys, logger: silentLogger });
});
afterAll(() => market.close());

/** One line per kind of card, hostile tokens and the longest inputs included. */
function lines(): string[] {
  const { tokens, wallets } = market.listing;
  const hostile = market.sim.market.hostileTokens();
  const token = tokens[0]?.address ?? '';
  const ten = wallets.slice(0, 10).join(' ');
  return [
    ...tokens.slice(0, 2).map((t) => `/token ${t.address}`),
    ...hostile.slice(0, 4).map((address) => `/token ${address}`),
    `/technicals ${token}`,
    `/technicals ${hostile[0] ?? ''}`,
    `/holders ${token} totalSoldUSD`,
    `/trades ${token} ${ten}`,
    `/wallet ${ten}`,
    `/chart ${token} 1h 7d`,
    '/help',
    '/help chart',
    '/help chrat',
    '/token not-an-address',
    '/trades not-an-address',
    '/nosuchcommand',
    '/token DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
  ];
}

describe('action keys for every kind of card', () => {
  it('fit every platform, and press back to the action they stand for', async () => {
    const replies: Array<{ line: string; reply: ChatReply }> = [];
    for (const line of lines()) {
      const reply = await dispatcher.runLine(line, caller);
      if (reply === null) throw new Error(`not a command: ${line}`);
      replies.push({ line, reply });
    }
    const loaded = new Set(commands.map((command) => command.name));
    let longestAction = 0;
    let buttons = 0;
    for (const { line, reply } of replies) {
      const card: Card = reply.card;
      const shown = card.actions.filter((action) => loaded.has(action.command));
      expect(
        reply.buttons.map((button) => button.label),
        line,
      ).toEqual(shown.map((action) => action.label));
      for (const [index, button] of reply.buttons.entries()) {
        buttons++;
        expect(Buffer.byteLength(button.key), line).toBeLessThanOrEqual(KEY_BYTES);
        expect(button.key, line).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(Buffer.byteLength(button.key)).toBeLessThanOrEqual(TELEGRAM_CALLBACK_DATA_BYTES);
        expect(button.key.length).toBeLessThanOrEqual(DISCORD_CUSTOM_ID_CHARS);
        const action = shown[index];
        const resolved = await keys.resolve(button.key, CHAT, new Date());
        expect(resolved, line).toEqual({
          status: 'ok',
          action: { command: action?.command, args: action?.args, ...(action?.refresh ? { refresh: true } : {}) },
        });
        longestAction = Math.max(longestAction, Buffer.byteLength(`/${action?.command} ${action?.args.join(' ')}`));
      }
    }
    // The cards do offer actions, and some of them would not fit a button written out.
    expect(buttons).toBeGreaterThan(10);
    expect(longestAction).toBeGreaterThan(TELEGRAM_CALLBACK_DATA_BYTES);
  });
});
