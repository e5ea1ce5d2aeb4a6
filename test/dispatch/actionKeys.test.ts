/**
 * Every kind of card's actions pushed through the action keys, as the chats will show them: each
 * button's key fits Telegram's callback_data (64 bytes) and Discord's custom_id (100 characters)
 * whatever the action holds, and presses back to exactly the action it stands for.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Card } from '../../src/cards/card';
import type { ChatRef, ChatReply } from '../../src/chats/chat';
import type { AnyCommand } from '../../src/dispatch/command';
import { Dispatcher, type CommandCaller } from '../../src/dispatch/dispatcher';
import { loadCommands } from '../../src/dispatch/registry';
import { silentLogger } from '../../src/log';
import { MemoryActionKeyStore } from '../../src/store/memoryActionKeys';
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
      expect(reply.buttons.map((button) => button.label), line).toEqual(shown.map((action) => action.label));
      for (const [index, button] of reply.buttons.entries()) {
        buttons++;
        expect(Buffer.byteLength(button.key), line).toBeLessThanOrEqual(KEY_BYTES);
        expect(button.key, line).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(Buffer.byteLength(button.key)).toBeLessThanOrEqual(TELEGRAM_CALLBACK_DATA_BYTES);
        expect(button.key.length).toBeLessThanOrEqual(DISCORD_CUSTOM_ID_CHARS);
        const action = shown[index];
        const resolved = await keys.resolve(button.key, CHAT, new Date());
        expect(resolved, line).toEqual({ status: 'ok', action: { command: action?.command, args: action?.args, ...(action?.refresh ? { refresh: true } : {}) } });
        longestAction = Math.max(longestAction, Buffer.byteLength(`/${action?.command} ${action?.args.join(' ')}`));
      }
    }
    // The cards do offer actions, and some of them would not fit a button written out.
    expect(buttons).toBeGreaterThan(10);
    expect(longestAction).toBeGreaterThan(TELEGRAM_CALLBACK_DATA_BYTES);
  });
});

describe('MemoryActionKeyStore', () => {
  const chat: ChatRef = { platform: 'discord', chatId: '111', threadId: null, scopeId: '999' };
  const now = new Date(Date.UTC(2026, 0, 1));
  const later = (ms: number) => new Date(now.getTime() + ms);

  it('issues distinct keys that resolve in their chat until they expire, then are pruned', async () => {
    const store = new MemoryActionKeyStore();
    const action = { command: 'token', args: ['a'] };
    const first = await store.issue(action, chat, later(1000));
    const second = await store.issue(action, chat, later(5000));
    expect(first).not.toBe(second);
    action.args.push('changed later');
    expect(await store.resolve(first, chat, now)).toEqual({ status: 'ok', action: { command: 'token', args: ['a'] } });
    expect(await store.resolve(first, { ...chat, chatId: '112' }, now)).toEqual({ status: 'wrong-chat' });
    expect(await store.resolve(first, chat, later(1000))).toEqual({ status: 'expired' });
    expect(await store.resolve('nope', chat, now)).toEqual({ status: 'unknown' });
    expect(await store.prune(later(1000))).toBe(1);
    expect(store.size).toBe(1);
    expect(await store.resolve(first, chat, later(1000))).toEqual({ status: 'unknown' });
    expect(await store.resolve(second, chat, later(1000))).toMatchObject({ status: 'ok' });
  });

  it('tells a Telegram forum topic from the rest of its group', async () => {
    const store = new MemoryActionKeyStore();
    const group: ChatRef = { platform: 'telegram', chatId: '-100', threadId: null, scopeId: null };
    const key = await store.issue({ command: 'help', args: [] }, { ...group, threadId: '7' }, later(1000));
    expect(await store.resolve(key, group, now)).toEqual({ status: 'wrong-chat' });
    expect(await store.resolve(key, { ...group, threadId: '7' }, now)).toMatchObject({ status: 'ok' });
  });

  it('holds at most its maximum of keys, dropping the oldest first', async () => {
    const MAX = 1000;
    const store = new MemoryActionKeyStore(MAX);
    const first = await store.issue({ command: 'help', args: [] }, chat, later(1000));
    let last = '';
    for (let index = 0; index < MAX; index++) last = await store.issue({ command: 'help', args: [] }, chat, later(1000));
    expect(store.size).toBe(MAX);
    expect(await store.resolve(first, chat, now)).toEqual({ status: 'unknown' });
    expect(await store.resolve(last, chat, now)).toMatchObject({ status: 'ok' });
  });

  it('evicts the oldest key still held, across prunes and overflows, as a list of keys in issue order would', async () => {
    // Each step issues a key living `life` ms, or prunes at `at` ms; the model is the keys held, oldest first.
    const step = fc.oneof(
      fc.record({ kind: fc.constant('issue' as const), life: fc.integer({ min: 1, max: 10 }) }),
      fc.record({ kind: fc.constant('prune' as const), at: fc.integer({ min: 0, max: 10 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.array(step, { maxLength: 60 }), async (max, steps) => {
        const store = new MemoryActionKeyStore(max);
        const issued: string[] = [];
        let held: Array<{ key: string; expiresAtMs: number }> = [];
        for (const s of steps) {
          if (s.kind === 'issue') {
            const expiresAt = later(s.life);
            const key = await store.issue({ command: 'help', args: [] }, chat, expiresAt);
            issued.push(key);
            held.push({ key, expiresAtMs: expiresAt.getTime() });
            if (held.length > max) held.shift();
          } else {
            const before = held.length;
            held = held.filter((entry) => entry.expiresAtMs > later(s.at).getTime());
            expect(await store.prune(later(s.at))).toBe(before - held.length);
          }
          expect(store.size).toBe(held.length);
        }
        const heldKeys = new Set(held.map((entry) => entry.key));
        for (const key of issued) {
          const resolved = await store.resolve(key, chat, now);
          expect(resolved.status).toBe(heldKeys.has(key) ? 'ok' : 'unknown');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('evicts without walking its map: asking a Map for its first key walks past every hole its deletions left', async () => {
    const MAX = 50;
    const store = new MemoryActionKeyStore(MAX);
    for (let index = 0; index < MAX * 3; index++) await store.issue({ command: 'help', args: [] }, chat, later(1000));
    const walks = [vi.spyOn(Map.prototype, 'keys'), vi.spyOn(Map.prototype, 'entries'), vi.spyOn(Map.prototype, 'values'), vi.spyOn(Map.prototype, 'forEach')];
    try {
      for (let index = 0; index < MAX * 3; index++) await store.issue({ command: 'help', args: [] }, chat, later(1000));
      for (const walk of walks) expect(walk).not.toHaveBeenCalled();
    } finally {
      for (const walk of walks) walk.mockRestore();
    }
    expect(store.size).toBe(MAX);
  });
});
