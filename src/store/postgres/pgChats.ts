/**
 * Chat settings and the paused state in PostgreSQL, one row per chat (a group's topics share it),
 * and a Telegram group's move to its supergroup. Pausing is delivery's (a chat that refused a
 * message), so it waits for the server through an outage; the rest serve commands and fail at once.
 */
import { isPlatform, type ChatRef, type Platform } from '../../model/chat';
import type { ChatRepository, ChatSettings, ClusterSetting, DigestSetting } from '../store';
import { DIGEST_COLUMNS, digestOf, type DigestColumns } from '../digestRows';
import {
  ALERT_CONTROL_COLUMNS,
  budgetOf,
  clusterColumn,
  clusterOf,
  quietColumn,
  quietOf,
  type AlertControlColumns,
} from '../alertControlRows';
import type { PgDatabase } from './pgDatabase';
import { pgText } from './pgText';

type ChatId = Pick<ChatRef, 'platform' | 'chatId'>;

/**
 * A group's move, where the new id may already have rows of its own (a follow of the same address,
 * the same alert): the new id's row wins and the old one is dropped, never two of one thing. SQLite
 * says it with UPDATE OR IGNORE; here the old rows that would collide go first.
 */
const MOVES = [
  `DELETE FROM follows f WHERE platform = $1 AND chat_id = $2
     AND EXISTS (SELECT 1 FROM follows g WHERE g.platform = $1 AND g.chat_id = $3 AND g.thread_id = f.thread_id AND g.address = f.address
       AND g.target_metric = f.target_metric AND g.target_side = f.target_side AND g.target_value = f.target_value)`,
  'UPDATE follows SET chat_id = $3 WHERE platform = $1 AND chat_id = $2',
  'DELETE FROM chats WHERE platform = $1 AND chat_id = $2 AND EXISTS (SELECT 1 FROM chats n WHERE n.platform = $1 AND n.chat_id = $3)',
  'UPDATE chats SET chat_id = $3 WHERE platform = $1 AND chat_id = $2',
  `DELETE FROM outbox o WHERE platform = $1 AND chat_id = $2
     AND EXISTS (SELECT 1 FROM outbox n WHERE n.platform = $1 AND n.chat_id = $3 AND n.thread_id = o.thread_id ` +
    `AND n.event_id = o.event_id)`,
  'UPDATE outbox SET chat_id = $3 WHERE platform = $1 AND chat_id = $2',
  'UPDATE action_keys SET chat_id = $3 WHERE platform = $1 AND chat_id = $2',
  // Calls move with the group: its records and its setting (the new id's first call of a token wins).
  'DELETE FROM calls c WHERE platform = $1 AND chat_id = $2 AND EXISTS (SELECT 1 FROM calls n WHERE n.platform = $1 ' +
    'AND n.chat_id = $3 AND n.address = c.address)',
  'UPDATE calls SET chat_id = $3 WHERE platform = $1 AND chat_id = $2',
  'DELETE FROM call_chats WHERE platform = $1 AND chat_id = $2 AND EXISTS (SELECT 1 FROM call_chats n WHERE n.platform = $1 ' +
    'AND n.chat_id = $3)',
  'UPDATE call_chats SET chat_id = $3 WHERE platform = $1 AND chat_id = $2',
];

export class PgChats implements ChatRepository {
  /**
   * `changed` is told whenever which chats are paused, or where follows live, changes; `settle`
   * writes commits still waiting (see PgState), so that a migration moves their rows too.
   */
  constructor(
    private readonly db: PgDatabase,
    private readonly changed: () => void,
    private readonly settle: () => Promise<void> = async () => undefined,
  ) {}

  async pause(chat: ChatId, reason: string, now: Date): Promise<void> {
    await this.db.durableQuery({
      text: `INSERT INTO chats (platform, chat_id, paused_at, pause_reason) VALUES ($1, $2, $3, $4)
             ON CONFLICT (platform, chat_id) DO UPDATE SET paused_at = excluded.paused_at, pause_reason = excluded.pause_reason`,
      values: [chat.platform, chat.chatId, now.getTime(), pgText(reason)],
    });
    this.changed();
  }

  async resume(chat: ChatId): Promise<void> {
    await this.db.query({
      text: 'UPDATE chats SET paused_at = NULL, pause_reason = NULL WHERE platform = $1 AND chat_id = $2',
      values: [chat.platform, chat.chatId],
    });
    this.changed();
  }

  async pausedReason(chat: ChatId): Promise<string | null> {
    const row = await this.select(chat);
    if (!row || row.paused_at === null) return null;
    return row.pause_reason ?? '';
  }

  async pausedCount(platform: Platform): Promise<number> {
    const { rows } = await this.db.query<{ count: number }>({
      text: 'SELECT count(*)::int AS count FROM chats WHERE platform = $1 AND paused_at IS NOT NULL',
      values: [platform],
    });
    return rows[0]?.count ?? 0;
  }

  async settings(chat: ChatId): Promise<ChatSettings> {
    const row = await this.select(chat);
    const digest = row === undefined ? null : digestOf(row);
    const quiet = row === undefined ? null : quietOf(row);
    const budget = row === undefined ? null : budgetOf(row);
    const cluster = row === undefined ? null : clusterOf(row);
    return {
      detectAddresses: row?.detect_addresses ?? null,
      ...(digest === null ? {} : { digest }),
      ...(quiet === null ? {} : { quiet }),
      ...(budget === null ? {} : { budget }),
      ...(cluster === null ? {} : { cluster }),
    };
  }

  async digests(): Promise<Array<{ chat: ChatRef; digest: DigestSetting }>> {
    const { rows } = await this.db.query<DigestColumns & { platform: string; chat_id: string }>({
      text:
        `SELECT platform, chat_id, ${DIGEST_COLUMNS} FROM chats WHERE digest_time IS NOT NULL AND paused_at IS NULL ` +
        `ORDER BY platform, chat_id`,
    });
    return rows.flatMap((row) => {
      const digest = digestOf(row);
      return digest === null || !isPlatform(row.platform)
        ? []
        : [{ chat: { platform: row.platform, chatId: row.chat_id, threadId: digest.threadId, scopeId: digest.scopeId }, digest }];
    });
  }

  async clusters(): Promise<Array<{ chat: ChatId; cluster: ClusterSetting }>> {
    const { rows } = await this.db.query<AlertControlColumns & { platform: string; chat_id: string }>({
      text:
        `SELECT platform, chat_id, ${ALERT_CONTROL_COLUMNS} FROM chats WHERE cluster IS NOT NULL AND paused_at IS NULL ` +
        `ORDER BY platform, chat_id`,
    });
    return rows.flatMap((row) => {
      const cluster = clusterOf(row);
      return cluster === null || !isPlatform(row.platform) ? [] : [{ chat: { platform: row.platform, chatId: row.chat_id }, cluster }];
    });
  }

  async updateSettings(chat: ChatId, settings: Partial<ChatSettings>): Promise<void> {
    if (settings.digest !== undefined) {
      const digest = settings.digest;
      await this.db.query({
        text:
          `INSERT INTO chats (platform, chat_id, digest_time, digest_zone, digest_thread_id, digest_scope_id, digest_since) ` +
          `VALUES ($1, $2, $3, $4, $5, $6, $7)
               ON CONFLICT (platform, chat_id) DO UPDATE SET digest_time = excluded.digest_time, digest_zone = excluded.digest_zone,
                 digest_thread_id = excluded.digest_thread_id, digest_scope_id = excluded.digest_scope_id, digest_since = ` +
          `excluded.digest_since`,
        values: [
          chat.platform,
          chat.chatId,
          digest?.time ?? null,
          digest?.zone ?? null,
          digest?.threadId ?? null,
          digest?.scopeId ?? null,
          digest?.since ?? null,
        ],
      });
    }
    if (settings.quiet !== undefined) {
      await this.db.query({
        text:
          'INSERT INTO chats (platform, chat_id, quiet) VALUES ($1, $2, $3) ON CONFLICT (platform, chat_id) DO UPDATE ' +
          'SET quiet = excluded.quiet',
        values: [chat.platform, chat.chatId, quietColumn(settings.quiet)],
      });
    }
    if (settings.cluster !== undefined) {
      await this.db.query({
        text:
          'INSERT INTO chats (platform, chat_id, cluster) VALUES ($1, $2, $3) ON CONFLICT (platform, chat_id) DO UPDATE ' +
          'SET cluster = excluded.cluster',
        values: [chat.platform, chat.chatId, clusterColumn(settings.cluster)],
      });
    }
    if (settings.budget !== undefined) {
      await this.db.query({
        text:
          'INSERT INTO chats (platform, chat_id, hourly_budget) VALUES ($1, $2, $3) ON CONFLICT (platform, chat_id) DO UPDATE ' +
          'SET hourly_budget = excluded.hourly_budget',
        values: [chat.platform, chat.chatId, settings.budget === null || settings.budget <= 0 ? null : Math.floor(settings.budget)],
      });
    }
    if (settings.detectAddresses === undefined) return;
    await this.db.query({
      text: `INSERT INTO chats (platform, chat_id, detect_addresses) VALUES ($1, $2, $3)
             ON CONFLICT (platform, chat_id) DO UPDATE SET detect_addresses = excluded.detect_addresses`,
      values: [chat.platform, chat.chatId, settings.detectAddresses],
    });
  }

  async migrate(platform: Platform, fromChatId: string, toChatId: string): Promise<void> {
    if (fromChatId === toChatId) return;
    await this.settle();
    await this.db.transaction(async (client) => {
      for (const move of MOVES) await client.query(move, [platform, fromChatId, toChatId]);
    });
    this.changed();
  }

  private async select(
    chat: ChatId,
  ): Promise<
    | ({ paused_at: number | null; pause_reason: string | null; detect_addresses: boolean | null } & DigestColumns & AlertControlColumns)
    | undefined
  > {
    const { rows } = await this.db.query<
      { paused_at: number | null; pause_reason: string | null; detect_addresses: boolean | null } & DigestColumns & AlertControlColumns
    >({
      name: 'tw_chat_settings_v2',
      text:
        `SELECT paused_at, pause_reason, detect_addresses, ${DIGEST_COLUMNS}, ${ALERT_CONTROL_COLUMNS} FROM chats ` +
        `WHERE platform = $1 AND chat_id = $2`,
      values: [chat.platform, chat.chatId],
    });
    return rows[0];
  }
}
