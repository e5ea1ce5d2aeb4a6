/**
 * Chat settings and the paused state, one row per chat (threads share their chat's row: a bot
 * removed from a group is removed from every topic of it).
 */
import { isPlatform, type ChatRef, type Platform } from '../model/chat';
import type { ChatRepository, ChatSettings, ClusterSetting, DigestSetting } from './store';
import { DIGEST_COLUMNS, digestOf, type DigestColumns } from './digestRows';
import {
  ALERT_CONTROL_COLUMNS,
  budgetOf,
  clusterColumn,
  clusterOf,
  quietColumn,
  quietOf,
  type AlertControlColumns,
} from './alertControlRows';
import type { SqliteDatabase } from './openDatabase';

type ChatId = Pick<ChatRef, 'platform' | 'chatId'>;

export class SqliteChats implements ChatRepository {
  private readonly pauseStmt;
  private readonly resumeStmt;
  private readonly selectChat;
  private readonly setDetect;
  private readonly migrateTx;
  private readonly countPaused;
  private readonly setDigest;
  private readonly selectDigests;
  private readonly setQuiet;
  private readonly setBudget;
  private readonly setCluster;
  private readonly selectClusters;

  /**
   * `changed` is told whenever which chats are paused, or where follows live, changes; `settle`
   * writes commits still waiting (see SqliteState), so that a migration moves their rows too.
   */
  constructor(
    db: SqliteDatabase,
    private readonly changed: () => void,
    private readonly settle: () => void = () => {},
  ) {
    this.pauseStmt = db.prepare<[string, string, number, string]>(
      `INSERT INTO chats (platform, chat_id, paused_at, pause_reason) VALUES (?, ?, ?, ?)
       ON CONFLICT (platform, chat_id) DO UPDATE SET paused_at = excluded.paused_at, pause_reason = excluded.pause_reason`,
    );
    this.resumeStmt = db.prepare<[string, string]>(
      'UPDATE chats SET paused_at = NULL, pause_reason = NULL WHERE platform = ? AND chat_id = ?',
    );
    this.selectChat = db.prepare<
      [string, string],
      { paused_at: number | null; pause_reason: string | null; detect_addresses: number | null } & DigestColumns & AlertControlColumns
    >(
      `SELECT paused_at, pause_reason, detect_addresses, ${DIGEST_COLUMNS}, ${ALERT_CONTROL_COLUMNS} FROM chats ` +
        `WHERE platform = ? AND chat_id = ?`,
    );
    this.setDigest = db.prepare<[string, string, string | null, string | null, string | null, string | null, number | null]>(
      `INSERT INTO chats (platform, chat_id, digest_time, digest_zone, digest_thread_id, digest_scope_id, digest_since) ` +
        `VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (platform, chat_id) DO UPDATE SET digest_time = excluded.digest_time, digest_zone = excluded.digest_zone,
         digest_thread_id = excluded.digest_thread_id, digest_scope_id = excluded.digest_scope_id, digest_since = excluded.digest_since`,
    );
    this.selectDigests = db.prepare<[], { platform: string; chat_id: string } & DigestColumns>(
      `SELECT platform, chat_id, ${DIGEST_COLUMNS} FROM chats WHERE digest_time IS NOT NULL AND paused_at IS NULL ` +
        `ORDER BY platform, chat_id`,
    );
    this.setQuiet = db.prepare<[string, string, string | null]>(
      'INSERT INTO chats (platform, chat_id, quiet) VALUES (?, ?, ?) ON CONFLICT (platform, chat_id) DO UPDATE SET quiet = excluded.quiet',
    );
    this.setBudget = db.prepare<[string, string, number | null]>(
      'INSERT INTO chats (platform, chat_id, hourly_budget) VALUES (?, ?, ?) ON CONFLICT (platform, chat_id) DO UPDATE ' +
        'SET hourly_budget = excluded.hourly_budget',
    );
    this.selectClusters = db.prepare<[], { platform: string; chat_id: string } & AlertControlColumns>(
      `SELECT platform, chat_id, ${ALERT_CONTROL_COLUMNS} FROM chats WHERE cluster IS NOT NULL AND paused_at IS NULL ` +
        `ORDER BY platform, chat_id`,
    );
    this.setCluster = db.prepare<[string, string, string | null]>(
      'INSERT INTO chats (platform, chat_id, cluster) VALUES (?, ?, ?) ON CONFLICT (platform, chat_id) DO UPDATE ' +
        'SET cluster = excluded.cluster',
    );
    this.countPaused = db.prepare<[string], { count: number }>(
      'SELECT count(*) AS count FROM chats WHERE platform = ? AND paused_at IS NOT NULL',
    );
    this.setDetect = db.prepare<[string, string, number | null]>(
      `INSERT INTO chats (platform, chat_id, detect_addresses) VALUES (?, ?, ?)
       ON CONFLICT (platform, chat_id) DO UPDATE SET detect_addresses = excluded.detect_addresses`,
    );

    // Where the new id already has a row of its own (a follow of the same address, the same
    // alert), the new id's row wins and the old one is dropped: never two of one thing.
    const moves = [
      'UPDATE OR IGNORE follows SET chat_id = @to WHERE platform = @platform AND chat_id = @from',
      'DELETE FROM follows WHERE platform = @platform AND chat_id = @from',
      'UPDATE OR IGNORE chats SET chat_id = @to WHERE platform = @platform AND chat_id = @from',
      'DELETE FROM chats WHERE platform = @platform AND chat_id = @from',
      'UPDATE OR IGNORE outbox SET chat_id = @to WHERE platform = @platform AND chat_id = @from',
      'DELETE FROM outbox WHERE platform = @platform AND chat_id = @from',
      'UPDATE action_keys SET chat_id = @to WHERE platform = @platform AND chat_id = @from',
      // Calls move with the group: its records and its setting (the new id's first call of a token wins).
      'UPDATE OR IGNORE calls SET chat_id = @to WHERE platform = @platform AND chat_id = @from',
      'DELETE FROM calls WHERE platform = @platform AND chat_id = @from',
      'UPDATE OR IGNORE call_chats SET chat_id = @to WHERE platform = @platform AND chat_id = @from',
      'DELETE FROM call_chats WHERE platform = @platform AND chat_id = @from',
    ].map((sql) => db.prepare<[{ platform: string; from: string; to: string }]>(sql));
    this.migrateTx = db.transaction((params: { platform: string; from: string; to: string }) => {
      for (const move of moves) move.run(params);
    });
  }

  async pause(chat: ChatId, reason: string, now: Date): Promise<void> {
    this.pauseStmt.run(chat.platform, chat.chatId, now.getTime(), reason);
    this.changed();
  }

  async resume(chat: ChatId): Promise<void> {
    this.resumeStmt.run(chat.platform, chat.chatId);
    this.changed();
  }

  async pausedReason(chat: ChatId): Promise<string | null> {
    const row = this.selectChat.get(chat.platform, chat.chatId);
    if (!row || row.paused_at === null) return null;
    return row.pause_reason ?? '';
  }

  async pausedCount(platform: Platform): Promise<number> {
    return this.countPaused.get(platform)?.count ?? 0;
  }

  async settings(chat: ChatId): Promise<ChatSettings> {
    const row = this.selectChat.get(chat.platform, chat.chatId);
    const detect = row?.detect_addresses ?? null;
    const digest = row === undefined ? null : digestOf(row);
    const quiet = row === undefined ? null : quietOf(row);
    const budget = row === undefined ? null : budgetOf(row);
    const cluster = row === undefined ? null : clusterOf(row);
    return {
      detectAddresses: detect === null ? null : detect !== 0,
      ...(digest === null ? {} : { digest }),
      ...(quiet === null ? {} : { quiet }),
      ...(budget === null ? {} : { budget }),
      ...(cluster === null ? {} : { cluster }),
    };
  }

  async digests(): Promise<Array<{ chat: ChatRef; digest: DigestSetting }>> {
    return this.selectDigests.all().flatMap((row) => {
      const digest = digestOf(row);
      return digest === null || !isPlatform(row.platform)
        ? []
        : [{ chat: { platform: row.platform, chatId: row.chat_id, threadId: digest.threadId, scopeId: digest.scopeId }, digest }];
    });
  }

  async clusters(): Promise<Array<{ chat: ChatId; cluster: ClusterSetting }>> {
    return this.selectClusters.all().flatMap((row) => {
      const cluster = clusterOf(row);
      return cluster === null || !isPlatform(row.platform) ? [] : [{ chat: { platform: row.platform, chatId: row.chat_id }, cluster }];
    });
  }

  async updateSettings(chat: ChatId, settings: Partial<ChatSettings>): Promise<void> {
    if (settings.digest !== undefined) {
      const digest = settings.digest;
      this.setDigest.run(
        chat.platform,
        chat.chatId,
        digest?.time ?? null,
        digest?.zone ?? null,
        digest?.threadId ?? null,
        digest?.scopeId ?? null,
        digest?.since ?? null,
      );
    }
    if (settings.quiet !== undefined) this.setQuiet.run(chat.platform, chat.chatId, quietColumn(settings.quiet));
    if (settings.cluster !== undefined) this.setCluster.run(chat.platform, chat.chatId, clusterColumn(settings.cluster));
    if (settings.budget !== undefined)
      this.setBudget.run(chat.platform, chat.chatId, settings.budget === null || settings.budget <= 0 ? null : Math.floor(settings.budget));
    if (settings.detectAddresses !== undefined) {
      const detect = settings.detectAddresses;
      this.setDetect.run(chat.platform, chat.chatId, detect === null ? null : detect ? 1 : 0);
    }
  }

  async migrate(platform: Platform, fromChatId: string, toChatId: string): Promise<void> {
    if (fromChatId === toChatId) return;
    this.settle();
    this.migrateTx.immediate({ platform, from: fromChatId, to: toChatId });
    this.changed();
  }
}
