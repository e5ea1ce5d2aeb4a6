/**
 * The outbox in PostgreSQL, shared by senders: `due` claims the rows it gives with
 * SELECT … FOR UPDATE SKIP LOCKED, writing its claimer id and a lease on each, so that two senders
 * (two processes) never take the same row; `markDelivered` marks only rows this claimer holds.
 * A claimer asking again gets its own claimed rows back (and renews the lease), so a chat held
 * after a failure is taken up where it was; `retryAt` and `close` give claims back, and a claim
 * whose lease has run out (its sender died) may be taken by another.
 *
 * Delivery's calls wait for the server through an outage (`durable`); `pending` (the /status
 * command's) fails at once.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ChatRef, Platform } from '../../model/chat';
import type { AlertEvent } from '../../model/events';
import type { AlertDelivery, OutboxEntry } from '../../model/follow';
import { entriesOf, historyOf, MAX_ERROR_LENGTH, toldOf, type DueRow, type HistoryRow, type ToldRow } from '../outboxRows';
import { ChatInterner } from '../rows';
import type { AlertTold, DeliveredAlert, HoldReason, OutboxRepository } from '../store';
import type { PgDatabase } from './pgDatabase';
import { insertAlertRows } from './alertRows';
import { pgText } from './pgText';

/**
 * How long a claim holds without being renewed. Each delivery round renews its own, so this only
 * bounds how long the rows of a sender that died wait for another (or for the next start).
 */
export const CLAIM_LEASE_MS = 60_000;

const CLAIM_DUE = `
WITH picked AS (
  SELECT o.id FROM outbox o
  WHERE o.platform = $1 AND o.delivered_at IS NULL AND o.next_attempt_at <= $2
    AND (o.claimed_by IS NULL OR o.claimed_by = $4 OR o.claimed_until <= $2)
    AND NOT EXISTS (SELECT 1 FROM chats c WHERE c.platform = o.platform AND c.chat_id = o.chat_id AND c.paused_at IS NOT NULL)
  ORDER BY o.id
  LIMIT $3
  FOR UPDATE OF o SKIP LOCKED),
claimed AS (
  UPDATE outbox o SET claimed_by = $4, claimed_until = $5 FROM picked WHERE o.id = picked.id
  RETURNING o.id, o.event_id, o.platform, o.chat_id, o.thread_id, o.scope_id, o.label, o.attempts, o.created_at, o.next_attempt_at, o.held)
SELECT c.*, e.event FROM claimed c JOIN events e ON e.id = c.event_id ORDER BY c.id`;

export class PgOutbox implements OutboxRepository {
  /** Who this store is to the other senders: host, process and a random part (a process may open two stores). */
  readonly claimer = `${hostname().slice(0, 40)}:${process.pid}:${randomBytes(6).toString('hex')}`;
  private readonly chats = new ChatInterner();

  /** `settle` writes commits still waiting (see PgState), so that every read sees them. */
  constructor(
    private readonly db: PgDatabase,
    private readonly settle: () => Promise<void> = async () => undefined,
  ) {}

  async due(platform: Platform, now: Date, limit: number): Promise<OutboxEntry[]> {
    const count = Math.max(0, Math.floor(limit));
    if (count === 0) return [];
    await this.settle();
    const at = now.getTime();
    const { rows } = await this.db.durableQuery<DueRow>({
      name: 'tw_outbox_claim',
      text: CLAIM_DUE,
      values: [platform, at, count, this.claimer, at + CLAIM_LEASE_MS],
    });
    return entriesOf(rows, this.chats);
  }

  /** Only rows this store claimed: a row another sender holds is its to mark. */
  async markDelivered(ids: number[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db.durableQuery({
      name: 'tw_outbox_delivered',
      text:
        'UPDATE outbox SET delivered_at = $1, claimed_by = NULL, claimed_until = NULL WHERE id = ANY($2::bigint[]) ' +
        'AND delivered_at IS NULL AND claimed_by = $3',
      values: [at.getTime(), ids, this.claimer],
    });
  }

  /** One more failed attempt, and the claim given back, so that every sender may take the row when it is due. */
  async retryAt(ids: number[], next: Date, error: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db.durableQuery({
      name: 'tw_outbox_retry',
      text: `UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $1, last_error = $2, claimed_by = NULL, claimed_until = NULL
             WHERE id = ANY($3::bigint[]) AND delivered_at IS NULL AND (claimed_by IS NULL OR claimed_by = $4)`,
      values: [next.getTime(), pgText(error.slice(0, MAX_ERROR_LENGTH)), ids, this.claimer],
    });
  }

  async deferChat(chat: Pick<ChatRef, 'platform' | 'chatId'>, until: Date): Promise<void> {
    await this.settle();
    await this.db.durableQuery({
      text:
        'UPDATE outbox SET next_attempt_at = greatest(next_attempt_at, $1) WHERE delivered_at IS NULL AND platform = $2 ' +
        'AND chat_id = $3',
      values: [until.getTime(), chat.platform, chat.chatId],
    });
  }

  async pending(): Promise<{ count: number; oldest: Date | null }> {
    await this.settle();
    const { rows } = await this.db.query<{ count: number; oldest: number | null }>({
      text: 'SELECT count(*)::int AS count, min(created_at) AS oldest FROM outbox WHERE delivered_at IS NULL',
    });
    const row = rows[0];
    return { count: row?.count ?? 0, oldest: row?.oldest == null ? null : new Date(row.oldest) };
  }

  async waiting(platform: Platform, limit: number): Promise<{ count: number; oldest: Date | null }> {
    await this.settle();
    const waitingRows = `FROM outbox o WHERE o.platform = $1 AND o.delivered_at IS NULL
               AND NOT EXISTS (SELECT 1 FROM chats c WHERE c.platform = o.platform AND c.chat_id = o.chat_id AND c.paused_at IS NOT NULL)`;
    // Rows are numbered in the order they were written: the first is the oldest, found without a scan.
    const { rows } = await this.db.query<{ count: number; oldest: number | null }>({
      text:
        `SELECT (SELECT count(*)::int FROM (SELECT 1 ${waitingRows} LIMIT $2) w) AS count, (SELECT o.created_at ${waitingRows} ` +
        `ORDER BY o.id LIMIT 1) AS oldest`,
      values: [platform, limit],
    });
    const row = rows[0];
    return { count: row?.count ?? 0, oldest: row?.oldest == null ? null : new Date(Number(row.oldest)) };
  }

  async add(alerts: Array<{ event: AlertEvent; to: AlertDelivery[] }>, now: Date): Promise<number> {
    if (alerts.length === 0) return 0;
    await this.settle();
    const at = now.getTime();
    // A handful a day (daily watchlists), in one transaction (alertRows.ts).
    return this.db.transaction((client) => insertAlertRows(client, alerts, at));
  }

  async known(keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const { rows } = await this.db.query<{ key: string }>({
      text: 'SELECT key FROM events WHERE key = ANY($1::text[])',
      values: [[...keys]],
    });
    return new Set(rows.map((row) => row.key));
  }

  /** Held rows give their claim back too: whichever sender holds the lease then sends the digest. */
  async hold(ids: number[], until: Date, reason: HoldReason): Promise<void> {
    if (ids.length === 0) return;
    await this.db.durableQuery({
      name: 'tw_outbox_hold',
      text: `UPDATE outbox SET next_attempt_at = $1, held = $2, claimed_by = NULL, claimed_until = NULL
             WHERE id = ANY($3::bigint[]) AND delivered_at IS NULL AND (claimed_by IS NULL OR claimed_by = $4)`,
      values: [until.getTime(), reason, ids, this.claimer],
    });
  }

  async deliveredCount(chat: Pick<ChatRef, 'platform' | 'chatId'>, since: Date): Promise<number> {
    const { rows } = await this.db.durableQuery<{ count: number }>({
      name: 'tw_outbox_delivered_count',
      text: 'SELECT count(*)::int AS count FROM outbox WHERE platform = $1 AND chat_id = $2 AND delivered_at >= $3 AND held IS NULL',
      values: [chat.platform, chat.chatId, since.getTime()],
    });
    return rows[0]?.count ?? 0;
  }

  async history(chat: Pick<ChatRef, 'platform' | 'chatId'>, limit: number): Promise<DeliveredAlert[]> {
    await this.settle();
    const { rows } = await this.db.query<HistoryRow>({
      name: 'tw_outbox_history',
      text: `SELECT o.label, o.created_at, o.delivered_at, o.held, e.event FROM outbox o JOIN events e ON e.id = o.event_id
             WHERE o.platform = $1 AND o.chat_id = $2 AND o.delivered_at IS NOT NULL ORDER BY o.delivered_at DESC, o.id DESC LIMIT $3`,
      values: [chat.platform, chat.chatId, Math.max(0, Math.floor(limit))],
    });
    return historyOf(rows);
  }

  async toldSince(chat: Pick<ChatRef, 'platform' | 'chatId'>, kind: string, since: Date, limit: number): Promise<AlertTold[]> {
    await this.settle();
    const { rows } = await this.db.query<ToldRow>({
      name: 'tw_outbox_told_since',
      text:
        `SELECT o.event_id, o.platform, o.chat_id, o.thread_id, o.scope_id, o.label, e.event FROM outbox o ` +
        `JOIN events e ON e.id = o.event_id
             WHERE o.platform = $1 AND o.chat_id = $2 AND e.kind = $3 AND o.created_at >= $4 ORDER BY o.id LIMIT $5`,
      values: [chat.platform, chat.chatId, kind, since.getTime(), Math.max(0, Math.floor(limit))],
    });
    return toldOf(rows, this.chats);
  }

  async prune(before: Date): Promise<number> {
    return this.db.transaction(async (client) => {
      const removed =
        (await client.query('DELETE FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < $1', [before.getTime()])).rowCount ?? 0;
      if (removed > 0) await client.query('DELETE FROM events e WHERE NOT EXISTS (SELECT 1 FROM outbox o WHERE o.event_id = e.id)');
      return removed;
    });
  }

  /** Gives back every claim of this store on rows not delivered, so that the next start (or another sender) takes them at once. */
  async releaseClaims(): Promise<void> {
    await this.db.query({
      text: 'UPDATE outbox SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = $1 AND delivered_at IS NULL',
      values: [this.claimer],
    });
  }

  /**
   * Gives back every claim on the platform's undelivered rows that another claimer holds: the
   * sender that just took the platform's lease (src/cluster/) is its only sender, so such claims
   * are a dead or stalled one's, and need not wait out their own lease. Returns those rows' ids, in
   * order: the other sender may have sent some of them without marking them (it died between the
   * two), and delivery sends them again as the messages it would have made of them
   * (src/delivery/outboxDrain.ts), not merged with newer rows.
   */
  async takeOverClaims(platform: string): Promise<number[]> {
    const { rows } = await this.db.durableQuery<{ id: number }>({
      text:
        'UPDATE outbox SET claimed_by = NULL, claimed_until = NULL WHERE platform = $1 AND delivered_at IS NULL ' +
        'AND claimed_by IS NOT NULL AND claimed_by <> $2 RETURNING id',
      values: [platform, this.claimer],
    });
    return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
  }
}
