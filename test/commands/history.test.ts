/**
 * /history after a restart: alerts delivered on one store are listed, newest first, with when each
 * was detected and delivered, by the same file opened again; other chats' alerts are not shown.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import { Dispatcher } from '../../src/dispatch/dispatcher';
import { loadCommands } from '../../src/dispatch/registry';
import { silentLogger } from '../../src/log';
import type { QueryService } from '../../src/query/service';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { Clock, RecordingSender, chat, commitAlerts, tempDb, testDelivery } from '../delivery/helpers';

let db: { path: string; cleanup: () => void };
let store: SqliteStore;

beforeEach(() => {
  db = tempDb();
  store = openSqliteStore(db.path);
});

afterEach(async () => {
  await store.close();
  db.cleanup();
});

function text(card: Card): string {
  return [card.title, ...card.fields.map((f) => `${f.name}: ${plainText(f.value)}`)].join('\n');
}

describe('/history', () => {
  it('lists the chat’s delivered alerts after a restart, newest first, with detected and delivered times', async () => {
    const clock = new Clock(Date.UTC(2025, 0, 15, 12, 0));
    const here = chat('here');
    const sender = new RecordingSender('telegram');
    const delivery = testDelivery(store, [sender], clock);
    await commitAlerts(store, ['e1', 'e2'], [here, chat('elsewhere')], clock.now());
    clock.advance(3_000);
    await delivery.drain();
    await commitAlerts(store, ['e3'], [here], clock.now());
    clock.advance(90_000);
    await delivery.drain();
    await delivery.stop();
    await store.close();

    store = openSqliteStore(db.path);
    const dispatcher = new Dispatcher({
      commands: await loadCommands(),
      services: { query: {} as QueryService, alertHistory: store.outbox },
      actionKeys: store.actionKeys,
      logger: silentLogger,
      now: clock.now,
    });
    const ask = async (line: string): Promise<Card> => {
      const reply = await dispatcher.runLine(line, { chat: here, userId: 'u', isManager: async () => false });
      if (reply === null) throw new Error('not a command');
      return reply.card;
    };
    const all = await ask('/history');
    expect(all.title).toBe('Last 3 alerts delivered here');
    const lines = all.fields.map((f) => plainText(f.value));
    expect(lines).toEqual([
      'detected 2025-01-15 12:00 UTC · delivered 90s later',
      'detected 2025-01-15 12:00 UTC · delivered 3s later',
      'detected 2025-01-15 12:00 UTC · delivered 3s later',
    ]);
    // The price kind's own card titles, not a generic word.
    expect(all.fields[0]?.name).toMatch(/TOK/);
    expect((await ask('/history 1')).fields).toHaveLength(1);
    expect(text(await ask('/history lots'))).toMatch(/number of alerts/);
    expect((await ask('/history 500')).fields).toHaveLength(3);
  });
});
