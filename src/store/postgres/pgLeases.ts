/**
 * Named leases in PostgreSQL, for the processes of one bot (src/cluster/): taken, renewed, given
 * back and listed, each in one statement and always in the database's clock (`now()`), so that
 * clocks that differ between machines never decide who holds what.
 *
 * A lease taken from no one, or from an owner whose lease ran out, gets the next epoch; renewed by
 * its owner it keeps its epoch. Writers fence their commits with (name, epoch) pairs
 * (pgState.ts), so that an owner that stalled past its expiry cannot write after another took over.
 */
import type { PgDatabase } from './pgDatabase';

export interface LeaseRow {
  name: string;
  owner: string;
  epoch: number;
  /** Whether it has not run out, by the database's clock. */
  live: boolean;
  /** Milliseconds left (negative: run out that long ago). */
  leftMs: number;
  info: Record<string, unknown>;
}

const TAKE = `
INSERT INTO leases (name, owner, epoch, expires_at, info)
SELECT n, $2, 1, now() + $3 * interval '1 millisecond', $4::jsonb FROM unnest($1::text[]) AS n
ON CONFLICT (name) DO UPDATE SET
  epoch = CASE WHEN leases.owner = EXCLUDED.owner AND leases.expires_at > now() THEN leases.epoch ELSE leases.epoch + 1 END,
  owner = EXCLUDED.owner,
  expires_at = EXCLUDED.expires_at,
  info = EXCLUDED.info
WHERE leases.owner = EXCLUDED.owner OR leases.expires_at <= now()
RETURNING name, epoch`;

const RENEW = `
UPDATE leases SET expires_at = now() + $3 * interval '1 millisecond', info = COALESCE($4::jsonb, info)
WHERE name = ANY($1::text[]) AND owner = $2 AND expires_at > now()
RETURNING name, epoch`;

/** Given back: run out at once, keeping its owner and epoch, so that the next owner gets the next epoch. */
const RELEASE = `UPDATE leases SET expires_at = now() - interval '1 millisecond' WHERE name = ANY($1::text[]) AND owner = $2`;

const LIST = `
SELECT name, owner, epoch, expires_at > now() AS live,
       (extract(epoch FROM (expires_at - now())) * 1000)::bigint AS "leftMs", info
FROM leases WHERE name LIKE $1 ORDER BY name`;

export class PgLeases {
  constructor(private readonly db: PgDatabase) {}

  /**
   * Takes each named lease that is free, run out, or already this owner's (then renewed), for
   * `ttlMs`; returns those taken, with their epochs. One held by another owner is left.
   */
  async take(names: readonly string[], owner: string, ttlMs: number, info: Record<string, unknown> = {}): Promise<Map<string, number>> {
    if (names.length === 0) return new Map();
    const { rows } = await this.db.query<{ name: string; epoch: number }>({ name: 'tw_lease_take', text: TAKE, values: [names, owner, ttlMs, JSON.stringify(info)] });
    return new Map(rows.map((row) => [row.name, row.epoch]));
  }

  /** Renews the owner's leases that have not run out; returns those renewed (a missing one was lost). */
  async renew(names: readonly string[], owner: string, ttlMs: number, info?: Record<string, unknown>): Promise<Map<string, number>> {
    if (names.length === 0) return new Map();
    const { rows } = await this.db.query<{ name: string; epoch: number }>({
      name: 'tw_lease_renew',
      text: RENEW,
      values: [names, owner, ttlMs, info === undefined ? null : JSON.stringify(info)],
    });
    return new Map(rows.map((row) => [row.name, row.epoch]));
  }

  async release(names: readonly string[], owner: string): Promise<void> {
    if (names.length === 0) return;
    await this.db.query({ name: 'tw_lease_release', text: RELEASE, values: [names, owner] });
  }

  /** Every lease whose name starts with `prefix`, run out or not. */
  async list(prefix = ''): Promise<LeaseRow[]> {
    const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const { rows } = await this.db.query<LeaseRow>({ name: 'tw_lease_list', text: LIST, values: [pattern] });
    return rows;
  }
}
