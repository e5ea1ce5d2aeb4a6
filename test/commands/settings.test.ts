/** /settings budget through the Dispatcher on a real SQLite file: set, shown, refused forms, off; detect as before. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import type { ChatRef } from '../../src/model/chat';
import { Dispatcher } from '../../src/dispatch/dispatcher';
import { loadCommands } from '../../src/dispatch/registry';
import { silentLogger } from '../../src/log';
import type { QueryService } from '../../src/query/service';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { tempDb } from '../delivery/helpers';

const group: ChatRef = { platform: 'telegram', chatId: '-1001', threadId: null, scopeId: null };
let store: SqliteStore;
let db: { path: string; cleanup: () => void };
let dispatcher: Dispatcher;

function text(card: Card): string {
  return [card.title, plainText(card.description ?? []), ...card.fields.map((f) => `${f.name}: ${plainText(f.value)}`)].join('\n');
}

async function say(line: string, manager = true): Promise<string> {
  const reply = await dispatcher.runLine(line, { chat: group, userId: manager ? 'admin' : 'member', isManager: async () => manager });
  if (reply === null) throw new Error(`not a command: ${line}`);
  return text(reply.card);
}

beforeEach(async () => {
  db = tempDb();
  store = openSqliteStore(db.path);
  // /quiet reads no market: a query service is required by the type only.
  dispatcher = new Dispatcher({ commands: await loadCommands(), services: { query: {} as QueryService, chatSettings: store.chats }, actionKeys: store.actionKeys, logger: silentLogger, now: () => new Date('2025-01-15T12:00:00Z') });
});

afterEach(async () => {
  await store.close();
  db.cleanup();
});

describe('/settings budget', () => {
  it('sets a budget, shows it, and removes it with off or 0', async () => {
    expect(await say('/settings')).toContain('(budget): none');
    expect(await say('/settings budget 30')).toContain('(budget): 30');
    expect((await store.chats.settings(group)).budget).toBe(30);
    expect(await say('/settings')).toContain('(budget): 30');
    await say('/settings budget off');
    expect((await store.chats.settings(group)).budget).toBeUndefined();
    await say('/settings budget 5');
    await say('/settings budget 0');
    expect((await store.chats.settings(group)).budget).toBeUndefined();
    expect(await say('/settings detect on')).toContain('(detect): on');
  });

  it('refuses what is not a number of alerts, and members', async () => {
    expect(await say('/settings budget lots')).toMatch(/number of alerts or off/);
    expect(await say('/settings budget 5000')).toMatch(/at most 1000/);
    expect(await say('/settings detect maybe')).toMatch(/on or off/);
    await say('/settings budget 10', false);
    expect((await store.chats.settings(group)).budget).toBeUndefined();
  });
});
