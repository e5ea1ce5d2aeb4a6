/**
 * A chat's settings commands through the Dispatcher on a real SQLite file, as its manager (or a
 * member) types them: what the tests of /quiet and /settings share.
 */
import { afterEach, beforeEach } from 'vitest';
import { plainText, type Card } from '../../../src/cards/card';
import type { ChatRef } from '../../../src/model/chat';
import { Dispatcher } from '../../../src/dispatch/dispatcher';
import { loadCommands } from '../../../src/dispatch/registry';
import { silentLogger } from '../../../src/log';
import type { QueryService } from '../../../src/query/service';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqliteStore';
import { tempDb } from '../../delivery/helpers';

export const group: ChatRef = { platform: 'telegram', chatId: '-1001', threadId: null, scopeId: null };

export interface SettingsChat {
  store: SqliteStore;
  /** The answer's text to `line`, typed by the manager (or a member). */
  say(line: string, manager?: boolean): Promise<string>;
}

function text(card: Card): string {
  return [card.title, plainText(card.description ?? []), ...card.fields.map((f) => `${f.name}: ${plainText(f.value)}`)].join('\n');
}

/** Registers a fresh store and dispatcher before each test, and their cleanup after. */
export function settingsChat(): SettingsChat {
  let db: { path: string; cleanup: () => void };
  let dispatcher: Dispatcher;
  const chat: SettingsChat = {
    store: undefined as unknown as SqliteStore,
    async say(line, manager = true) {
      const reply = await dispatcher.runLine(line, { chat: group, userId: manager ? 'admin' : 'member', isManager: async () => manager });
      if (reply === null) throw new Error(`not a command: ${line}`);
      return text(reply.card);
    },
  };
  beforeEach(async () => {
    db = tempDb();
    chat.store = openSqliteStore(db.path);
    // The settings commands read no market: a query service is required by the type only.
    dispatcher = new Dispatcher({
      commands: await loadCommands(),
      services: { query: {} as QueryService, chatSettings: chat.store.chats },
      actionKeys: chat.store.actionKeys,
      logger: silentLogger,
      now: () => new Date('2025-01-15T12:00:00Z'),
    });
  });
  afterEach(async () => {
    await chat.store.close();
    db.cleanup();
  });
  return chat;
}
