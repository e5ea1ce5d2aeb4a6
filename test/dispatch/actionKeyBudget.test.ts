/**
 * The Dispatcher issues a card's buttons in the budget of the person it answers and of the chat
 * (ACTION_KEYS_PER_PERSON, ACTION_KEYS_PER_CHAT): past a budget the oldest buttons stop working,
 * never the newest, and another person's are untouched. On the simulator and a real SQLite store.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { Dispatcher, type CommandCaller } from '../../src/dispatch/dispatcher';
import { loadCommands } from '../../src/dispatch/registry';
import { silentLogger } from '../../src/log';
import type { ChatRef } from '../../src/model/chat';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { tempDb } from '../delivery/helpers';
import { startTestMarket, type TestMarket } from '../support/market';

const group: ChatRef = { platform: 'telegram', chatId: '-1001', threadId: null, scopeId: null };
const NOW = new Date('2025-01-15T12:00:00Z');

let market: TestMarket;
let store: SqliteStore;
let db: { path: string; cleanup: () => void };
let token: string;

function caller(userId: string): CommandCaller {
  return { chat: group, userId, isManager: async () => false };
}

beforeAll(async () => {
  market = await startTestMarket();
  token = market.sim.market.tokenAddresses()[0] ?? '';
});
afterAll(async () => {
  await market.close();
});
beforeEach(() => {
  db = tempDb();
  store = openSqliteStore(db.path);
});
afterEach(async () => {
  await store.close();
  db.cleanup();
});

it('drops a person’s oldest buttons past their budget, and keeps another person’s', async () => {
  const dispatcher = new Dispatcher({
    commands: await loadCommands(),
    services: { query: market.query },
    actionKeys: store.actionKeys,
    logger: silentLogger,
    now: () => NOW,
    actionKeyBudget: { perPerson: 6, perChat: 100 },
  });
  const bobs = await dispatcher.runLine(`/token ${token}`, caller('bob'));
  const first = await dispatcher.runLine(`/token ${token}`, caller('alice'));
  const second = await dispatcher.runLine(`/token ${token}`, caller('alice'));
  const perCard = first?.buttons.length ?? 0;
  expect(perCard).toBeGreaterThan(3);
  const oldest = first?.buttons[0]?.key ?? '';
  expect(await store.actionKeys.resolve(oldest, group, NOW)).toEqual({ status: 'unknown' });
  for (const button of second?.buttons ?? []) expect((await store.actionKeys.resolve(button.key, group, NOW)).status).toBe('ok');
  for (const button of bobs?.buttons ?? []) expect((await store.actionKeys.resolve(button.key, group, NOW)).status).toBe('ok');
});
