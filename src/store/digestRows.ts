/**
 * A chat's daily watchlist setting as both stores keep it in the chats table, and read it back:
 * time and zone, the thread and scope it goes to, and when it was set. No time: no watchlist.
 */
import type { DigestSetting } from './store';

export interface DigestColumns {
  digest_time: string | null;
  digest_zone: string | null;
  digest_thread_id: string | null;
  digest_scope_id: string | null;
  /** Epoch ms; a bigint column comes back from PostgreSQL as text. */
  digest_since: number | string | null;
}

export const DIGEST_COLUMNS = 'digest_time, digest_zone, digest_thread_id, digest_scope_id, digest_since';

export function digestOf(row: DigestColumns): DigestSetting | null {
  if (row.digest_time === null) return null;
  return {
    time: row.digest_time,
    zone: row.digest_zone ?? 'UTC',
    threadId: row.digest_thread_id,
    scopeId: row.digest_scope_id,
    since: row.digest_since === null ? 0 : Number(row.digest_since),
  };
}
