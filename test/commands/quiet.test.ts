/** /quiet through the Dispatcher on a real SQLite file: set across midnight, shown, strict, refused forms, off. */
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

describe('/quiet', () => {
  it('sets hours across midnight in a zone, shows them, takes strict, and turns off', async () => {
    expect(await say('/quiet')).toContain('Quiet hours: off');
    expect(await say('/quiet 23:00-07:00 America/New_York')).toContain('23:00 to 07:00 (America/New_York)');
    expect((await store.chats.settings(group)).quiet).toEqual({ from: '23:00', to: '07:00', zone: 'America/New_York', strict: false });
    expect(await say('/quiet')).toContain('A change to DANGER: sent at once');
    await say('/quiet 22:30-06:00 strict');
    expect((await store.chats.settings(group)).quiet).toEqual({ from: '22:30', to: '06:00', zone: 'UTC', strict: true });
    await say('/quiet 22:30-06:00 Europe/Paris strict');
    expect((await store.chats.settings(group)).quiet?.zone).toBe('Europe/Paris');
    expect(await say('/quiet off')).toContain('Quiet hours off');
    expect((await store.chats.settings(group)).quiet).toBeUndefined();
  });

  it('refuses bad hours and zones, and members', async () => {
    expect(await say('/quiet 25:00-07:00')).toMatch(/two times of day/);
    expect(await say('/quiet 07:00-07:00')).toMatch(/different times/);
    expect(await say('/quiet 23:00-07:00 Mars/Olympus')).toMatch(/not a time zone/);
    await say('/quiet 23:00-07:00', false);
    expect((await store.chats.settings(group)).quiet).toBeUndefined();
  });
});
