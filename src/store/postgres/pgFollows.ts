/**
 * Follows in PostgreSQL. An upsert is one statement (INSERT … ON CONFLICT DO UPDATE on the chat's
 * unique key, `xmax = 0` telling an insert from an update). `followersOf` and `targets` are the
 * watcher's: they wait for the server through an outage (`durable`); the rest serve commands and
 * fail at once with StoreUnavailableError while it is away. `followersOf` is cached as in SQLite,
 * and the cache entry dropped by every write of this store that could change it.
 */
import type { ChatRef } from '../../model/chat';
import type { Follow, FollowKind } from '../../model/follow';
import { FOLLOW_COLUMNS as COLUMNS, FollowReader, FollowersCache, targetColumns, type FollowColumns } from '../followRows';
import { threadColumn } from '../rows';
import type { FollowPlace, FollowRepository, NewFollow, PlaceHoldings } from '../store';
import type { PgDatabase } from './pgDatabase';
import { pgText } from './pgText';

const WHERE_CHAT = 'platform = $1 AND chat_id = $2 AND thread_id = $3';
/** The chat's /track of an address ($4), not its targets (whose target_metric is set). */
const WHERE_TRACKING = `${WHERE_CHAT} AND address = $4 AND target_metric = ''`;
const NOT_PAUSED = 'NOT EXISTS (SELECT 1 FROM chats c WHERE c.platform = f.platform AND c.chat_id = f.chat_id AND c.paused_at IS NOT NULL)';

const UPSERT =
  `
INSERT INTO follows (platform, chat_id, thread_id, scope_id, kind, address, label, events, min_usd, threshold_pct, side, ` +
  `added_by, added_at, direction, target_metric, target_side, target_value)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
ON CONFLICT (platform, chat_id, thread_id, address, target_metric, target_side, target_value) DO UPDATE SET
  scope_id = excluded.scope_id, kind = excluded.kind, label = excluded.label, events = excluded.events,
  min_usd = excluded.min_usd, threshold_pct = excluded.threshold_pct, side = excluded.side, direction = excluded.direction
RETURNING ${COLUMNS}, (xmax = 0) AS created`;

/** Rows per statement of upsertMany: each row is 17 parameters, and PostgreSQL takes 65,535. */
const MANY_CHUNK = 2_000;

type FollowRow = FollowColumns & { created: boolean };

function chatParams(chat: ChatRef): [string, string, string] {
  return [chat.platform, chat.chatId, threadColumn(chat.threadId)];
}

function upsertParams(follow: NewFollow): unknown[] {
  const o = follow.options;
  return [
    ...chatParams(follow.chat),
    follow.chat.scopeId,
    follow.kind,
    follow.address,
    pgText(follow.label),
    o.events.join(','),
    o.minUsd,
    o.thresholdPct,
    o.side,
    pgText(follow.addedBy),
    follow.now.getTime(),
    o.direction ?? 'both',
    ...targetColumns(o.target),
  ];
}

/** What one follow is in the chat: its address, and its target when it is one. */
function followKey(follow: NewFollow): string {
  return `${chatParams(follow.chat).join('\u0000')}\u0000${follow.address}\u0000${targetColumns(follow.options.target).join('\u0000')}`;
}

function rowKey(row: FollowColumns): string {
  return (
    `${row.platform}\u0000${row.chat_id}\u0000${row.thread_id}\u0000${row.address}\u0000` +
    `${row.target_metric}\u0000${row.target_side}\u0000${row.target_value}`
  );
}

export class PgFollows implements FollowRepository {
  private readonly reader = new FollowReader();
  private readonly cache = new FollowersCache();
  /**
   * Counts the writes that dropped cache entries: an answer read while one happened may be older
   * than it, so it is returned but not kept.
   */
  private writes = 0;

  constructor(private readonly db: PgDatabase) {}

  async upsert(follow: NewFollow): Promise<{ follow: Follow; created: boolean }> {
    const { rows } = await this.db.query<FollowRow>({ name: 'tw_follow_upsert', text: UPSERT, values: upsertParams(follow) });
    this.forget(follow.address);
    const row = rows[0];
    if (!row) throw new Error('The follow was not written');
    return { follow: this.reader.follow(row), created: row.created };
  }

  /**
   * Many follows in one transaction (imports, benchmarks, the copy from SQLite): the same as upsert
   * for each, in order. Each statement takes up to MANY_CHUNK rows and never the same chat and
   * address twice (ON CONFLICT cannot touch one row twice in a statement). Not part of FollowRepository.
   */
  async upsertMany(follows: readonly NewFollow[]): Promise<Array<{ follow: Follow; created: boolean }>> {
    const results = await this.db.transaction(async (client) => {
      const out: Array<{ follow: Follow; created: boolean }> = [];
      let chunk: NewFollow[] = [];
      let seen = new Set<string>();
      const flush = async (): Promise<void> => {
        if (chunk.length === 0) return;
        const width = 17;
        const values = chunk.flatMap(upsertParams);
        const tuples = chunk
          .map((_, row) => `(${Array.from({ length: width }, (_unused, column) => `$${row * width + column + 1}`).join(', ')})`)
          .join(', ');
        const text = UPSERT.replace(/VALUES \([^)]*\)/, `VALUES ${tuples}`);
        const { rows } = await client.query<FollowRow>(text, values);
        const byKey = new Map(rows.map((row) => [rowKey(row), row]));
        for (const follow of chunk) {
          const row = byKey.get(followKey(follow));
          if (!row) throw new Error('A follow was not written');
          out.push({ follow: this.reader.follow(row), created: row.created });
        }
        chunk = [];
        seen = new Set();
      };
      for (const follow of follows) {
        const key = followKey(follow);
        if (seen.has(key) || chunk.length >= MANY_CHUNK) await flush();
        seen.add(key);
        chunk.push(follow);
      }
      await flush();
      return out;
    });
    this.forgetAll();
    return results;
  }

  async remove(chat: ChatRef, address: string): Promise<boolean> {
    const { rowCount } = await this.db.query({
      text: `DELETE FROM follows WHERE ${WHERE_TRACKING}`,
      values: [...chatParams(chat), address],
    });
    const changed = (rowCount ?? 0) > 0;
    if (changed) this.forget(address);
    return changed;
  }

  async get(chat: ChatRef, address: string): Promise<Follow | null> {
    const { rows } = await this.db.query<FollowColumns>({
      name: 'tw_follow_get',
      text: `SELECT ${COLUMNS} FROM follows WHERE ${WHERE_TRACKING}`,
      values: [...chatParams(chat), address],
    });
    const row = rows[0];
    return row ? this.reader.follow(row) : null;
  }

  async targetsOf(chat: ChatRef): Promise<Follow[]> {
    const { rows } = await this.db.query<FollowColumns>({
      text: `SELECT ${COLUMNS} FROM follows WHERE ${WHERE_CHAT} AND target_metric <> '' ORDER BY id`,
      values: chatParams(chat),
    });
    return rows.map((row) => this.reader.follow(row));
  }

  async removeTargets(chat: ChatRef, address: string): Promise<number> {
    const { rowCount } = await this.db.query({
      text: `DELETE FROM follows WHERE ${WHERE_CHAT} AND address = $4 AND target_metric <> ''`,
      values: [...chatParams(chat), address],
    });
    const removed = rowCount ?? 0;
    if (removed > 0) this.forget(address);
    return removed;
  }

  async removeReachedTargets(): Promise<string[]> {
    // A target whose crossing is in the events table was told (its key: targetEventKey in ../followRows).
    const { rows } = await this.db.query<{ address: string }>({
      text:
        `DELETE FROM follows f WHERE target_metric <> '' AND EXISTS (SELECT 1 FROM events e ` +
        `WHERE e.key = 'target:' || f.address || ':' || f.id) RETURNING address`,
    });
    const addresses = [...new Set(rows.map((row) => row.address))];
    for (const address of addresses) this.forget(address);
    return addresses;
  }

  async list(chat: ChatRef, page: { offset: number; limit: number }): Promise<{ follows: Follow[]; total: number }> {
    const limit = Math.max(0, Math.floor(page.limit));
    const offset = Math.max(0, Math.floor(page.offset));
    const follows =
      limit === 0
        ? []
        : (
            await this.db.query<FollowColumns>({
              text: `SELECT ${COLUMNS} FROM follows WHERE ${WHERE_CHAT} ORDER BY id LIMIT $4 OFFSET $5`,
              values: [...chatParams(chat), limit, offset],
            })
          ).rows.map((row) => this.reader.follow(row));
    return { follows, total: await this.countForChat(chat) };
  }

  async countForChat(chat: ChatRef): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>({
      name: 'tw_follow_count',
      text: `SELECT count(*)::int AS n FROM follows WHERE ${WHERE_CHAT}`,
      values: chatParams(chat),
    });
    return rows[0]?.n ?? 0;
  }

  async holdings(place: FollowPlace, kind: FollowKind, address: string): Promise<PlaceHoldings> {
    const scoped = 'scopeId' in place;
    const { rows } = await this.db.query<PlaceHoldings>({
      name: scoped ? 'tw_follow_holdings_scope' : 'tw_follow_holdings_chat',
      text:
        `SELECT count(*)::int AS follows, count(DISTINCT (kind, address))::int AS watched, coalesce(bool_or(kind = $1 ` +
        `AND address = $2), false) AS "watchesAlready"
             FROM follows WHERE platform = $3 AND ${scoped ? 'scope_id' : 'chat_id'} = $4`,
      values: [kind, address, place.platform, scoped ? place.scopeId : place.chatId],
    });
    return rows[0] ?? { follows: 0, watched: 0, watchesAlready: false };
  }

  async setMutedUntil(chat: ChatRef, address: string, until: Date | null): Promise<boolean> {
    const { rowCount } = await this.db.query({
      text: `UPDATE follows SET muted_until = $5 WHERE ${WHERE_TRACKING}`,
      values: [...chatParams(chat), address, until === null ? null : until.getTime()],
    });
    const changed = (rowCount ?? 0) > 0;
    if (changed) this.forget(address);
    return changed;
  }

  /** Served from the cache after the first call for an address; shared and frozen: read, never change. */
  async followersOf(kind: FollowKind, address: string): Promise<Follow[]> {
    const cached = this.cache.get(kind, address);
    if (cached !== undefined) return cached;
    const writes = this.writes;
    const { rows } = await this.db.durableQuery<FollowColumns>({
      name: 'tw_followers',
      text: `SELECT ${COLUMNS} FROM follows f WHERE kind = $1 AND address = $2 AND ${NOT_PAUSED} ORDER BY id`,
      values: [kind, address],
    });
    // The rows' address is the one asked for: one string for all of them instead of a copy per row.
    const follows = rows.map((row) => this.reader.follow(row, address));
    return writes === this.writes ? this.cache.set(kind, address, follows) : (Object.freeze(follows) as Follow[]);
  }

  async targets(): Promise<{ tokens: string[]; wallets: string[] }> {
    // COLLATE "C": the byte order SQLite sorts in, whatever the database's own collation.
    const { rows } = await this.db.durableQuery<{ kind: string; address: string }>({
      text: `SELECT DISTINCT kind, address COLLATE "C" AS address FROM follows f WHERE ${NOT_PAUSED} ORDER BY kind, address`,
    });
    return {
      tokens: rows.filter((row) => row.kind === 'token').map((row) => row.address),
      wallets: rows.filter((row) => row.kind === 'wallet').map((row) => row.address),
    };
  }

  async totals(): Promise<{ follows: number; chats: number }> {
    const { rows } = await this.db.query<{ follows: number; chats: number }>({
      text:
        'SELECT (SELECT count(*) FROM follows)::int AS follows, (SELECT count(*) FROM (SELECT 1 FROM follows GROUP BY platform, ' +
        'chat_id) c)::int AS chats',
    });
    return rows[0] ?? { follows: 0, chats: 0 };
  }

  async countByKind(): Promise<Record<FollowKind, number>> {
    const { rows } = await this.db.query<{ kind: string; count: number }>({
      text: 'SELECT kind, count(*)::int AS count FROM follows GROUP BY kind',
    });
    const counts: Record<FollowKind, number> = { token: 0, wallet: 0 };
    for (const row of rows) if (row.kind === 'token' || row.kind === 'wallet') counts[row.kind] = row.count;
    return counts;
  }

  /** A chat was paused, resumed or moved, so every cached list may be wrong. */
  forgetAll(): void {
    this.writes += 1;
    this.cache.clear();
  }

  /** Another process changed the follows of `address` (src/cluster/ hears of it): its cached list is dropped. */
  forget(address: string): void {
    this.writes += 1;
    this.cache.forget(address);
  }
}
