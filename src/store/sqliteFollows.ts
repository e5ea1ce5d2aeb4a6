/**
 * Follows in SQLite. `followersOf` is on the watcher's hot path (every alert asks it), so its
 * answers are cached per token or wallet and the cache entry is dropped by every write that could
 * change it; pausing, resuming or migrating a chat drops the whole cache.
 */
import type { ChatRef } from '../model/chat';
import { ALERT_KINDS, type AlertKind } from '../model/events';
import type { FollowRepository, NewFollow } from './store';
import type { Follow, FollowKind, FollowOptions, TradeSide } from '../model/follow';
import type { SqliteDatabase } from './openDatabase';
import { ChatInterner, threadColumn, type ChatColumns } from './rows';

interface FollowRow extends ChatColumns {
  id: number;
  kind: string;
  address: string;
  label: string | null;
  events: string;
  min_usd: number;
  threshold_pct: number;
  side: string;
  muted_until: number | null;
  added_by: string;
  added_at: number;
}

/**
 * A follow as the store hands it out. Its time of adding is kept as a number and made a Date only
 * when read (the /following card): the cache holds every follow of every watched token, and at
 * 100,000 follows a Date each was a tenth of the watcher's memory.
 */
class StoredFollow implements Follow {
  constructor(
    readonly id: number,
    readonly chat: ChatRef,
    readonly kind: FollowKind,
    readonly address: string,
    readonly label: string | null,
    readonly options: FollowOptions,
    readonly mutedUntil: Date | null,
    readonly addedBy: string,
    private readonly addedAtMs: number,
  ) {}

  get addedAt(): Date {
    return new Date(this.addedAtMs);
  }
}

type ChatKey = [platform: string, chatId: string, threadId: string];

const COLUMNS = 'id, platform, chat_id, thread_id, scope_id, kind, address, label, events, min_usd, threshold_pct, side, muted_until, added_by, added_at';
const NOT_PAUSED = 'NOT EXISTS (SELECT 1 FROM chats c WHERE c.platform = f.platform AND c.chat_id = f.chat_id AND c.paused_at IS NOT NULL)';

/** At most this many tokens and wallets keep their followers cached (the watcher's 10,000 fit). */
const CACHE_LIMIT = 20_000;

function isAlertKind(text: string): text is AlertKind {
  return (ALERT_KINDS as readonly string[]).includes(text);
}

function kindOf(text: string): FollowKind {
  return text === 'wallet' ? 'wallet' : 'token';
}

function sideOf(text: string): TradeSide {
  return text === 'buy' || text === 'sell' ? text : 'both';
}

function chatKey(chat: ChatRef): ChatKey {
  return [chat.platform, chat.chatId, threadColumn(chat.threadId)];
}

export class SqliteFollows implements FollowRepository {
  private readonly chats = new ChatInterner();
  /** Identical options (most follows keep the defaults) share one frozen object. */
  private readonly options = new Map<string, FollowOptions>();
  private readonly cache = new Map<string, readonly Follow[]>();
  private readonly addedBy = new Map<string, string>();

  private readonly selectOne;
  private readonly insert;
  private readonly update;
  private readonly deleteOne;
  private readonly selectPage;
  private readonly countChat;
  private readonly setMuted;
  private readonly selectFollowers;
  private readonly selectTargets;
  private readonly countAll;
  private readonly upsertTx;
  private readonly upsertManyTx;

  constructor(db: SqliteDatabase) {
    const whereChat = 'platform = ? AND chat_id = ? AND thread_id = ?';
    this.selectOne = db.prepare<[...ChatKey, string], FollowRow>(`SELECT ${COLUMNS} FROM follows WHERE ${whereChat} AND address = ?`);
    this.insert = db.prepare<[string, string, string, string | null, string, string, string | null, string, number, number, string, string, number], FollowRow>(
      `INSERT INTO follows (platform, chat_id, thread_id, scope_id, kind, address, label, events, min_usd, threshold_pct, side, added_by, added_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
    );
    this.update = db.prepare<[string | null, string, string | null, string, number, number, string, number], FollowRow>(
      `UPDATE follows SET scope_id = ?, kind = ?, label = ?, events = ?, min_usd = ?, threshold_pct = ?, side = ? WHERE id = ? RETURNING ${COLUMNS}`,
    );
    this.deleteOne = db.prepare<[...ChatKey, string]>(`DELETE FROM follows WHERE ${whereChat} AND address = ?`);
    this.selectPage = db.prepare<[...ChatKey, number, number], FollowRow>(`SELECT ${COLUMNS} FROM follows WHERE ${whereChat} ORDER BY id LIMIT ? OFFSET ?`);
    this.countChat = db.prepare<ChatKey, { n: number }>(`SELECT count(*) AS n FROM follows WHERE ${whereChat}`);
    this.setMuted = db.prepare<[number | null, ...ChatKey, string]>(`UPDATE follows SET muted_until = ? WHERE ${whereChat} AND address = ?`);
    this.selectFollowers = db.prepare<[string, string], FollowRow>(`SELECT ${COLUMNS} FROM follows f WHERE kind = ? AND address = ? AND ${NOT_PAUSED} ORDER BY id`);
    this.selectTargets = db.prepare<[string], { address: string }>(`SELECT DISTINCT address FROM follows f WHERE kind = ? AND ${NOT_PAUSED} ORDER BY address`);
    this.countAll = db.prepare<[], { follows: number; chats: number }>(
      'SELECT (SELECT count(*) FROM follows) AS follows, (SELECT count(*) FROM (SELECT 1 FROM follows GROUP BY platform, chat_id)) AS chats',
    );
    const upsertOne = (follow: NewFollow): { follow: Follow; created: boolean } => {
      const key = chatKey(follow.chat);
      const existing = this.selectOne.get(...key, follow.address);
      const o = follow.options;
      const events = o.events.join(',');
      if (existing) {
        const row = this.update.get(follow.chat.scopeId, follow.kind, follow.label, events, o.minUsd, o.thresholdPct, o.side, existing.id);
        if (!row) throw new Error('The follow vanished while it was updated');
        return { follow: this.toFollow(row), created: false };
      }
      const row = this.insert.get(...key, follow.chat.scopeId, follow.kind, follow.address, follow.label, events, o.minUsd, o.thresholdPct, o.side, follow.addedBy, follow.now.getTime());
      if (!row) throw new Error('The follow was not written');
      return { follow: this.toFollow(row), created: true };
    };
    this.upsertTx = db.transaction(upsertOne);
    this.upsertManyTx = db.transaction((follows: readonly NewFollow[]) => follows.map(upsertOne));
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
    const changed = this.deleteOne.run(...chatKey(chat), address).changes > 0;
    if (changed) this.forget(address);
    return changed;
  }

  async get(chat: ChatRef, address: string): Promise<Follow | null> {
    const row = this.selectOne.get(...chatKey(chat), address);
    return row ? this.toFollow(row) : null;
  }

  async list(chat: ChatRef, page: { offset: number; limit: number }): Promise<{ follows: Follow[]; total: number }> {
    const key = chatKey(chat);
    const limit = Math.max(0, Math.floor(page.limit));
    const offset = Math.max(0, Math.floor(page.offset));
    const follows = limit === 0 ? [] : this.selectPage.all(...key, limit, offset).map((row) => this.toFollow(row));
    return { follows, total: this.countChat.get(...key)?.n ?? 0 };
  }

  async countForChat(chat: ChatRef): Promise<number> {
    return this.countChat.get(...chatKey(chat))?.n ?? 0;
  }

  async setMutedUntil(chat: ChatRef, address: string, until: Date | null): Promise<boolean> {
    const changed = this.setMuted.run(until === null ? null : until.getTime(), ...chatKey(chat), address).changes > 0;
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
    const id = `${kind}\u0000${address}`;
    let found = this.cache.get(id);
    if (found === undefined) {
      // The rows' address is the one asked for: one string for all of them instead of a copy per row.
      found = Object.freeze(this.selectFollowers.all(kind, address).map((row) => this.toFollow(row, address)));
      if (this.cache.size >= CACHE_LIMIT) {
        // Drop the oldest entry (Maps keep insertion order): cheap, and good enough for a working set.
        const oldest = this.cache.keys().next();
        if (!oldest.done) this.cache.delete(oldest.value);
      }
      this.cache.set(id, found);
    }
    // The frozen array typed as the interface's mutable one: a caller that pushes gets a TypeError, not a corrupt cache.
    return found as Follow[];
  }

  async targets(): Promise<{ tokens: string[]; wallets: string[] }> {
    return {
      tokens: this.selectTargets.all('token').map((row) => row.address),
      wallets: this.selectTargets.all('wallet').map((row) => row.address),
    };
  }

  async totals(): Promise<{ follows: number; chats: number }> {
    return this.countAll.get() ?? { follows: 0, chats: 0 };
  }

  /** A chat was paused, resumed or moved, so every cached list may be wrong. */
  forgetAll(): void {
    this.cache.clear();
  }

  private forget(address: string): void {
    this.cache.delete(`token\u0000${address}`);
    this.cache.delete(`wallet\u0000${address}`);
  }

  private toFollow(row: FollowRow, address: string = row.address): Follow {
    return Object.freeze(
      new StoredFollow(
        row.id,
        this.chats.chat(row),
        kindOf(row.kind),
        address,
        row.label,
        this.optionsOf(row),
        row.muted_until === null ? null : new Date(row.muted_until),
        this.addedByOf(row.added_by),
        row.added_at,
      ),
    );
  }

  /** Who added a follow: a handful of users add most follows, so each name is kept once, not once per row. */
  private addedByOf(text: string): string {
    const known = this.addedBy.get(text);
    if (known !== undefined) return known;
    if (this.addedBy.size >= 10_000) this.addedBy.clear();
    this.addedBy.set(text, text);
    return text;
  }

  private optionsOf(row: FollowRow): FollowOptions {
    const id = `${row.events}\u0000${row.min_usd}\u0000${row.threshold_pct}\u0000${row.side}`;
    let options = this.options.get(id);
    if (options === undefined) {
      const events = row.events === '' ? [] : row.events.split(',').filter(isAlertKind);
      options = Object.freeze({ events: Object.freeze(events) as AlertKind[], minUsd: row.min_usd, thresholdPct: row.threshold_pct, side: sideOf(row.side) });
      if (this.options.size >= 10_000) this.options.clear();
      this.options.set(id, options);
    }
    return options;
  }
}
