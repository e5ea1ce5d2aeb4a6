/** /track cluster N [WINDOW] through the one Dispatcher on a real SQLite file: sets, changes and turns off a chat's setting; managers only. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plainText } from '../../src/cards/card';
import type { ChatRef } from '../../src/model/chat';
import { Dispatcher } from '../../src/dispatch/dispatcher';
import { loadCommands } from '../../src/dispatch/registry';
import type { QueryService } from '../../src/query/service';
import { silentLogger } from '../../src/log';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { tempDb } from '../delivery/helpers';

const group: ChatRef = { platform: 'telegram', chatId: '-1001', threadId: null, scopeId: null };
let db: { path: string; cleanup: () => void };
let store: SqliteStore;
let dispatcher: Dispatcher;

beforeEach(async () => {
  db = tempDb();
  store = openSqliteStore(db.path);
  // /track cluster reads no market.
  dispatcher = new Dispatcher({
    commands: await loadCommands(),
    services: { query: undefined as unknown as QueryService, chatSettings: store.chats },
    actionKeys: store.actionKeys,
    logger: silentLogger,
    now: () => new Date('2025-01-15T12:00:00Z'),
  });
});
afterEach(async () => {
  await store.close();
  db.cleanup();
});

async function say(line: string, manager = true) {
  const reply = await dispatcher.runLine(line, { chat: group, userId: manager ? 'admin' : 'member', isManager: async () => manager });
  if (reply === null) throw new Error(`not a command: ${line}`);
  return { ...reply, text: `${reply.card.title} ${plainText(reply.card.description ?? [])}` };
}

describe('/track cluster', () => {
  it('sets the number and window, defaults the window to 30 minutes, and 0 turns it off', async () => {
    const on = await say('/track cluster 3 15m');
    expect(on.text).toContain('3 of its followed wallets buy the same token within 15m');
    expect((await store.chats.settings(group)).cluster).toEqual({ wallets: 3, windowSecs: 900 });
    await say('/track cluster 4');
    expect((await store.chats.settings(group)).cluster).toEqual({ wallets: 4, windowSecs: 1_800 });
    expect((await say('/track cluster 0')).card.title).toBe('Wallets moving together: off');
    expect((await store.chats.settings(group)).cluster).toBeUndefined();
  });

  it('refuses one wallet, too many, a window past a day, and a member', async () => {
    for (const line of ['/track cluster 1 30m', '/track cluster 21', '/track cluster 3 2d']) {
      expect((await say(line)).card.color, line).toBe('error');
    }
    await say('/track cluster 3 30m', false);
    expect((await store.chats.settings(group)).cluster).toBeUndefined();
  });
});
