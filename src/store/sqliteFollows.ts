/**
 * Follows in SQLite. `followersOf` is on the watcher's hot path (every alert asks it), so its
 * answers are cached per token or wallet and the cache entry is dropped by every write that could
 * change it; pausing, resuming or migrating a chat drops the whole cache.
 */
import type { ChatRef } from '../model/chat';
import type { FollowPlace, FollowRepository, NewFollow, PlaceHoldings } from './store';
import type { Follow, FollowKind } from '../model/follow';
import type { SqliteDatabase } from './openDatabase';
import { FOLLOW_COLUMNS as COLUMNS, FollowReader, FollowersCache, targetColumns, type FollowColumns as FollowRow } from './followRows';
import { threadColumn } from './rows';

type ChatKey = [platform: string, chatId: string, threadId: string];
type HoldingsRow = { follows: number; watched: number; watchesAlready: number };

const NOT_PAUSED = 'NOT EXISTS (SELECT 1 FROM chats c WHERE c.platform = f.platform AND c.chat_id = f.chat_id AND c.paused_at IS NOT NULL)';

function chatKey(chat: ChatRef): ChatKey {
  return [chat.platform, chat.chatId, threadColumn(chat.threadId)];
}

/** Rows of one chat: the chat's key is its first three parameters. */
const WHERE_CHAT = 'platform = ? AND chat_id = ? AND thread_id = ?';
// A chat's follow of an address: its /track (no target, the three columns '' '' 0) or one of its targets.
const WHERE_ONE = `${WHERE_CHAT} AND address = ? AND target_metric = ? AND target_side = ? AND target_value = ?`;
const TRACKING = `${WHERE_CHAT} AND address = ? AND target_metric = ''`;

/** The columns a new follow is written with, in the order of InsertParams. */
const INSERT_COLUMNS =
  'platform, chat_id, thread_id, scope_id, kind, address, label, events, min_usd, threshold_pct, side, ' +
  'added_by, added_at, direction, target_metric, target_side, target_value';

type InsertParams = [
  string,
  string,
  string,
  string | null,
  string,
  string,
  string | null,
  string,
  number,
  number,
  string,
  string,
  number,
  string,
  string,
  string,
  number,
];
type UpdateParams = [string | null, string, string | null, string, number, number, string, string, number];

/** The statements that read, write or delete one chat's follows. */
function prepareChatStatements(db: SqliteDatabase) {
  return {
    selectOne: db.prepare<[...ChatKey, string, string, string, number], FollowRow>(`SELECT ${COLUMNS} FROM follows WHERE ${WHERE_ONE}`),
    insert: db.prepare<InsertParams, FollowRow>(
      `INSERT INTO follows (${INSERT_COLUMNS})
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
    ),
    update: db.prepare<UpdateParams, FollowRow>(
      'UPDATE follows SET scope_id = ?, kind = ?, label = ?, events = ?, min_usd = ?, threshold_pct = ?, side = ?, direction = ? ' +
        `WHERE id = ? RETURNING ${COLUMNS}`,
    ),
    deleteOne: db.prepare<[...ChatKey, string]>(`DELETE FROM follows WHERE ${TRACKING}`),
    selectPage: db.prepare<[...ChatKey, number, number], FollowRow>(
      `SELECT ${COLUMNS} FROM follows WHERE ${WHERE_CHAT} ORDER BY id LIMIT ? OFFSET ?`,
    ),
    countChat: db.prepare<ChatKey, { n: number }>(`SELECT count(*) AS n FROM follows WHERE ${WHERE_CHAT}`),
    setMuted: db.prepare<[number | null, ...ChatKey, string]>(`UPDATE follows SET muted_until = ? WHERE ${TRACKING}`),
    selectChatTargets: db.prepare<ChatKey, FollowRow>(
      `SELECT ${COLUMNS} FROM follows WHERE ${WHERE_CHAT} AND target_metric <> '' ORDER BY id`,
    ),
    deleteChatTargets: db.prepare<[...ChatKey, string]>(`DELETE FROM follows WHERE ${WHERE_CHAT} AND address = ? AND target_metric <> ''`),
  };
}

/** The statements that read across chats: a place's holdings, a token's followers, the counts. */
function prepareWideStatements(db: SqliteDatabase) {
  const holdings =
    "SELECT count(*) AS follows, count(DISTINCT kind || ' ' || address) AS watched, " +
    'coalesce(max(kind = ? AND address = ?), 0) AS watchesAlready FROM follows';
  return {
    holdingsOfChat: db.prepare<[string, string, string, string], HoldingsRow>(`${holdings} WHERE platform = ? AND chat_id = ?`),
    holdingsOfScope: db.prepare<[string, string, string, string], HoldingsRow>(`${holdings} WHERE platform = ? AND scope_id = ?`),
    selectFollowers: db.prepare<[string, string], FollowRow>(
      `SELECT ${COLUMNS} FROM follows f WHERE kind = ? AND address = ? AND ${NOT_PAUSED} ORDER BY id`,
    ),
    selectTargets: db.prepare<[string], { address: string }>(
      `SELECT DISTINCT address FROM follows f WHERE kind = ? AND ${NOT_PAUSED} ORDER BY address`,
    ),
    countAll: db.prepare<[], { follows: number; chats: number }>(
      'SELECT (SELECT count(*) FROM follows) AS follows, (SELECT count(*) FROM (SELECT 1 FROM follows GROUP BY platform, ' +
        'chat_id)) AS chats',
    ),
    countKinds: db.prepare<[], { kind: string; count: number }>('SELECT kind, count(*) AS count FROM follows GROUP BY kind'),
    // A target whose crossing is in the events table was told (its key: targetEventKey).
    deleteReached: db.prepare<[], { address: string }>(
      "DELETE FROM follows WHERE target_metric <> '' AND EXISTS " +
        "(SELECT 1 FROM events e WHERE e.key = 'target:' || follows.address || ':' || follows.id) RETURNING address",
    ),
  };
}

type FollowStatements = ReturnType<typeof prepareChatStatements> & ReturnType<typeof prepareWideStatements>;

export class SqliteFollows implements FollowRepository {
  private readonly reader = new FollowReader();
  private readonly cache = new FollowersCache();
  private readonly sql: FollowStatements;
  private readonly upsertTx;
  private readonly upsertManyTx;

  constructor(db: SqliteDatabase) {
    this.sql = { ...prepareChatStatements(db), ...prepareWideStatements(db) };
    // One follow (/track) or many (imports) per transaction: the same steps for each.
    const upsertOne = (follow: NewFollow) => this.upsertOne(follow);
    this.upsertTx = db.transaction(upsertOne);
    this.upsertManyTx = db.transaction((follows: readonly NewFollow[]) => follows.map(upsertOne));
  }

  /** Updates the chat's follow of the address (the same target) in place, or adds it; run inside a transaction. */
  private upsertOne(follow: NewFollow): { follow: Follow; created: boolean } {
    const key = chatKey(follow.chat);
    const o = follow.options;
    const target = targetColumns(o.target);
    const existing = this.sql.selectOne.get(...key, follow.address, ...target);
    const events = o.events.join(',');
    const direction = o.direction ?? 'both';
    if (existing) {
      const row = this.sql.update.get(
        follow.chat.scopeId,
        follow.kind,
        follow.label,
        events,
        o.minUsd,
        o.thresholdPct,
        o.side,
        direction,
        existing.id,
      );
      if (!row) throw new Error('The follow vanished while it was updated');
      return { follow: this.toFollow(row), created: false };
    }
    const row = this.sql.insert.get(
      ...key,
      follow.chat.scopeId,
      follow.kind,
      follow.address,
      follow.label,
      events,
      o.minUsd,
      o.thresholdPct,
      o.side,
      follow.addedBy,
      follow.now.getTime(),
      direction,
      ...target,
    );
    if (!row) throw new Error('The follow was not written');
    return { follow: this.toFollow(row), created: true };
  }

  async upsert(follow: NewFollow): Promise<{ follow: Follow; created: boolean }> {
    const result = this.upsertTx.immediate(follow);
    // Both kinds: an address re-tracked as the other kind leaves the first list too.
    this.forget(follow.address);
    return result;
  }

  /**
   * Many follows in one transaction (imports, benchmarks): the same as upsert for each, in order,
   * at a fraction of the cost. Not part of FollowRepository.
   */
  async upsertMany(follows: readonly NewFollow[]): Promise<Array<{ follow: Follow; created: boolean }>> {
    const results = this.upsertManyTx.immediate(follows);
    this.cache.clear();
    return results;
  }

  async remove(chat: ChatRef, address: string): Promise<boolean> {
    const changed = this.sql.deleteOne.run(...chatKey(chat), address).changes > 0;
    if (changed) this.forget(address);
    return changed;
  }

  async get(chat: ChatRef, address: string): Promise<Follow | null> {
    const row = this.sql.selectOne.get(...chatKey(chat), address, ...targetColumns(null));
    return row ? this.toFollow(row) : null;
  }

  async targetsOf(chat: ChatRef): Promise<Follow[]> {
    return this.sql.selectChatTargets.all(...chatKey(chat)).map((row) => this.toFollow(row));
  }

  async removeTargets(chat: ChatRef, address: string): Promise<number> {
    const removed = this.sql.deleteChatTargets.run(...chatKey(chat), address).changes;
    if (removed > 0) this.forget(address);
    return removed;
  }

  async removeReachedTargets(): Promise<string[]> {
    const addresses = [...new Set(this.sql.deleteReached.all().map((row) => row.address))];
    for (const address of addresses) this.forget(address);
    return addresses;
  }

  async list(chat: ChatRef, page: { offset: number; limit: number }): Promise<{ follows: Follow[]; total: number }> {
    const key = chatKey(chat);
    const limit = Math.max(0, Math.floor(page.limit));
    const offset = Math.max(0, Math.floor(page.offset));
    const follows = limit === 0 ? [] : this.sql.selectPage.all(...key, limit, offset).map((row) => this.toFollow(row));
    return { follows, total: this.sql.countChat.get(...key)?.n ?? 0 };
  }

  async countForChat(chat: ChatRef): Promise<number> {
    return this.sql.countChat.get(...chatKey(chat))?.n ?? 0;
  }

  async holdings(place: FollowPlace, kind: FollowKind, address: string): Promise<PlaceHoldings> {
    const row =
      'scopeId' in place
        ? this.sql.holdingsOfScope.get(kind, address, place.platform, place.scopeId)
        : this.sql.holdingsOfChat.get(kind, address, place.platform, place.chatId);
    return { follows: row?.follows ?? 0, watched: row?.watched ?? 0, watchesAlready: (row?.watchesAlready ?? 0) !== 0 };
  }

  async setMutedUntil(chat: ChatRef, address: string, until: Date | null): Promise<boolean> {
    const changed = this.sql.setMuted.run(until === null ? null : until.getTime(), ...chatKey(chat), address).changes > 0;
    if (changed) this.forget(address);
    return changed;
  }

  /**
   * Served from the cache after the first call for an address. The Follow objects and the array
   * are shared between callers and frozen: read them, never change them.
   */
  async followersOf(kind: FollowKind, address: string): Promise<Follow[]> {
    return this.followersNow(kind, address);
  }

  /** The synchronous core of followersOf, for callers inside this store. */
  followersNow(kind: FollowKind, address: string): Follow[] {
    // The rows' address is the one asked for: one string for all of them instead of a copy per row.
    return (
      this.cache.get(kind, address) ??
      this.cache.set(
        kind,
        address,
        this.sql.selectFollowers.all(kind, address).map((row) => this.toFollow(row, address)),
      )
    );
  }

  async targets(): Promise<{ tokens: string[]; wallets: string[] }> {
    return {
      tokens: this.sql.selectTargets.all('token').map((row) => row.address),
      wallets: this.sql.selectTargets.all('wallet').map((row) => row.address),
    };
  }

  async totals(): Promise<{ follows: number; chats: number }> {
    return this.sql.countAll.get() ?? { follows: 0, chats: 0 };
  }

  async countByKind(): Promise<Record<FollowKind, number>> {
    const counts: Record<FollowKind, number> = { token: 0, wallet: 0 };
    for (const row of this.sql.countKinds.all()) if (row.kind === 'token' || row.kind === 'wallet') counts[row.kind] = row.count;
    return counts;
  }

  /** A chat was paused, resumed or moved, so every cached list may be wrong. */
  forgetAll(): void {
    this.cache.clear();
  }

  private forget(address: string): void {
    this.cache.forget(address);
  }

  private toFollow(row: FollowRow, address: string = row.address): Follow {
    return this.reader.follow(row, address);
  }
}
