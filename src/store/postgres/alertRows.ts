/**
 * Alerts written outside a watcher's commit (a daily watchlist, a call's milestone): a handful at a
 * time, so plain statements in the caller's transaction, with a commit's rules: an event is written
 * once by its key, and a chat gets it once.
 */
import type { PoolClient } from 'pg';
import type { AlertEvent } from '../../model/events';
import type { AlertDelivery } from '../../model/follow';
import { threadColumn } from '../rows';
import { pgText } from './pgText';

/** Writes each event and its outbox rows in `client`'s transaction; returns the outbox rows added. */
export async function insertAlertRows(
  client: PoolClient,
  alerts: ReadonlyArray<{ event: AlertEvent; to: readonly AlertDelivery[] }>,
  at: number,
): Promise<number> {
  let added = 0;
  for (const { event, to } of alerts) {
    await client.query('INSERT INTO events (key, kind, event, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (key) DO NOTHING', [
      event.key,
      event.kind,
      pgText(JSON.stringify(event)),
      at,
    ]);
    for (const { chat, label } of to) {
      const result = await client.query(
        `INSERT INTO outbox (event_id, platform, chat_id, thread_id, scope_id, label, created_at, next_attempt_at)
         SELECT id, $2, $3, $4, $5, $6, $7, $7 FROM events WHERE key = $1 ON CONFLICT DO NOTHING`,
        [event.key, chat.platform, chat.chatId, threadColumn(chat.threadId), chat.scopeId, pgText(label), at],
      );
      added += result.rowCount ?? 0;
    }
  }
  return added;
}
