/**
 * The one statement that writes commits of last-seen state together with their alerts: token and
 * wallet snapshots upserted, each event kept once under its key, one outbox row per (event, chat),
 * all as arrays in one round trip. A single statement is atomic, so a crash leaves either all of
 * it or none (never an alert without its state, which would repeat it, nor a state without its
 * alert, which would lose it), and no BEGIN or COMMIT is needed around it. Running it twice writes
 * nothing new the second time, which is what lets a lost connection retry it.
 *
 * Rules kept from SQLite: a snapshot written twice in one statement keeps the last; an event key
 * seen again keeps its first JSON; a chat that already has an event key gets no second row.
 */
import type { AlertEvent } from '../../model/events';
import type { AlertDelivery } from '../../model/follow';
import type { TokenSnapshot, WalletSnapshot } from '../../model/snapshot';
import { threadColumn } from '../rows';
import { pgText } from './pgText';

export type Alerts = ReadonlyArray<{ event: AlertEvent; to: readonly AlertDelivery[] }>;

/** One commitToken or commitWallet, or one entry of a commitMany batch. */
export type StateWrite = { now: number; alerts: Alerts } & (
  | { kind: 'token'; snapshot: TokenSnapshot }
  | { kind: 'wallet'; snapshot: WalletSnapshot }
);

export const COMMIT_SQL = `
WITH
tok AS (
  INSERT INTO token_state (address, snapshot, updated_at)
  SELECT a, s, t FROM unnest($1::text[], string_to_array($2::text, chr(30)), $3::bigint[]) AS x(a, s, t)
  ON CONFLICT (address) DO UPDATE SET snapshot = excluded.snapshot, updated_at = excluded.updated_at),
wal AS (
  INSERT INTO wallet_state (address, snapshot, updated_at)
  SELECT a, s, t FROM unnest($4::text[], string_to_array($5::text, chr(30)), $6::bigint[]) AS x(a, s, t)
  ON CONFLICT (address) DO UPDATE SET snapshot = excluded.snapshot, updated_at = excluded.updated_at),
ev AS (SELECT * FROM unnest($7::text[], $8::text[], string_to_array($9::text, chr(30)), $10::bigint[]) AS e(key, kind, event, t)),
new_ev AS (
  INSERT INTO events (key, kind, event, created_at) SELECT key, kind, event, t FROM ev
  ON CONFLICT (key) DO NOTHING RETURNING id, key),
ids AS (SELECT id, key FROM new_ev UNION ALL SELECT events.id, events.key FROM events WHERE events.key = ANY($7::text[])),
added AS (
  INSERT INTO outbox (event_id, platform, chat_id, thread_id, scope_id, label, created_at, next_attempt_at)
  SELECT ids.id, r.platform, r.chat_id, r.thread_id, r.scope_id, r.label, r.t, r.t
  FROM unnest($11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::bigint[]) WITH ORDINALITY
    AS r(key, platform, chat_id, thread_id, scope_id, label, t, n)
  JOIN ids USING (key)
  ORDER BY r.n
  ON CONFLICT DO NOTHING
  RETURNING event_id, platform, chat_id, thread_id)
SELECT ids.key, a.platform, a.chat_id, a.thread_id FROM added a JOIN ids ON ids.id = a.event_id`;

/**
 * Between two JSON texts in one parameter: JSON.stringify writes every control character escaped,
 * so a raw U+001E (record separator) never occurs inside one.
 */
const SEPARATOR = '\u001e';

/** A row the statement added, named by event key and chat. */
export interface AddedRow {
  key: string;
  platform: string;
  chat_id: string;
  thread_id: string;
}

function rowId(key: string, platform: string, chatId: string, threadId: string): string {
  return `${key}\u0000${platform}\u0000${chatId}\u0000${threadId}`;
}

/**
 * The statement's values for some writes, and which write each possible new row belongs to. The
 * snapshots' and events' JSON travel as one text each, joined by SEPARATOR and split by the server
 * (string_to_array): as text arrays they would be escaped again element by element on the way,
 * which cost more than serialising them (measured: 160 ms against 130 ms for 5,000 token
 * snapshots), and as one JSON document the server would parse each snapshot again.
 */
export class CommitValues {
  private readonly tokens = new Map<string, [json: string, now: number]>();
  private readonly wallets = new Map<string, [json: string, now: number]>();
  private readonly events = new Map<string, [kind: string, json: string, now: number]>();
  private readonly rows = new Map<
    string,
    { write: number; values: [string, string, string, string, string | null, string | null, number] }
  >();

  /**
   * Adds one write, serialised now: a snapshot or event that cannot be written as JSON throws here,
   * before anything is sent, and leaves these values as they were.
   */
  add(write: StateWrite, index: number): void {
    const snapshot = JSON.stringify(write.snapshot);
    const events: Array<[string, [string, string, number]]> = [];
    for (const { event } of write.alerts) events.push([event.key, [event.kind, JSON.stringify(event), write.now]]);
    (write.kind === 'token' ? this.tokens : this.wallets).set(write.snapshot.address, [snapshot, write.now]);
    for (const [key, value] of events) if (!this.events.has(key)) this.events.set(key, value);
    for (const { event, to } of write.alerts) {
      for (const { chat, label } of to) {
        const thread = threadColumn(chat.threadId);
        const id = rowId(event.key, chat.platform, chat.chatId, thread);
        if (!this.rows.has(id))
          this.rows.set(id, {
            write: index,
            values: [event.key, chat.platform, chat.chatId, thread, chat.scopeId, pgText(label), write.now],
          });
      }
    }
  }

  get empty(): boolean {
    return this.tokens.size === 0 && this.wallets.size === 0 && this.rows.size === 0;
  }

  values(): unknown[] {
    const tokens = [...this.tokens];
    const wallets = [...this.wallets];
    const events = [...this.events];
    const rows = [...this.rows.values()].map((row) => row.values);
    return [
      tokens.map(([address]) => address),
      tokens.map(([, [json]]) => json).join(SEPARATOR),
      tokens.map(([, [, now]]) => now),
      wallets.map(([address]) => address),
      wallets.map(([, [json]]) => json).join(SEPARATOR),
      wallets.map(([, [, now]]) => now),
      events.map(([key]) => key),
      events.map(([, [kind]]) => kind),
      events.map(([, [, json]]) => json).join(SEPARATOR),
      events.map(([, [, , now]]) => now),
      ...[0, 1, 2, 3, 4, 5, 6].map((field) => rows.map((row) => row[field])),
    ];
  }

  /** How many of the added rows each write (by index) asked for first. */
  countsOf(added: readonly AddedRow[], writes: number): number[] {
    const counts: number[] = Array.from({ length: writes }, () => 0);
    for (const row of added) {
      const asked = this.rows.get(rowId(row.key, row.platform, row.chat_id, row.thread_id));
      if (asked !== undefined) counts[asked.write] = (counts[asked.write] ?? 0) + 1;
    }
    return counts;
  }
}
