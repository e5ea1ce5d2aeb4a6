/**
 * Named leases in PostgreSQL, for the processes of one bot (src/cluster/): taken, renewed, given
 * back and listed, each in one statement and always in the database's clock, so that clocks that
 * differ between machines never decide who holds what. The time written is the time the row is
 * written (`clock_timestamp()`), never the statement's start: a statement that waited cannot write
 * a lease that has already run out.
 *
 * A lease taken from no one, or from an owner whose lease ran out, gets the next epoch; renewed by
 * its owner it keeps its epoch. Writers fence their commits with (name, epoch) pairs
 * (pgState.ts), so that an owner that stalled past its expiry cannot write after another took over.
 *
 * No statement here waits on another process. The fence holds `FOR KEY SHARE` on the leases it
 * reads; changing a lease's owner takes `FOR UPDATE`, the one lock that conflicts with it, and
 * SKIPS a locked lease rather than waiting (it is tried again at the next tick); renewing and
 * giving back keep the owner, so they pass the fence's lock. The statements run on a pool of their
 * own (`PgLeases.connect`) with short limits: a lock waited for at most LOCK_TIMEOUT_MS, a statement
 * at most STATEMENT_TIMEOUT_MS, an answer at most QUERY_TIMEOUT_MS, so a leasing step never queues
 * behind the watcher's commits nor hangs on a server it cannot reach.
 */
import pg from 'pg';
import type { QueryResultRow } from 'pg';
import type { Logger } from '../../log';
import { connectionErrorText } from './connectionErrors';
import { PG_TYPES, sessionSettings } from './pgDatabase';
import type { Statement } from './pgDatabase';

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

/**
 * A leasing step's bounds: inside the lease's 10 s (a lease is counted on for 8.5 s after its last
 * renewal, and renewed every 3 s), so a step that cannot finish gives way to the next tick before
 * what it holds runs out; long enough that a busy machine's slow answer is not taken for a cut.
 */
export const LEASE_LIMITS = {
  lockTimeoutMs: 500,
  statementTimeoutMs: 3_000,
  idleInTransactionMs: 3_000,
  queryTimeoutMs: 4_000,
  connectTimeoutMs: 3_000,
} as const;

const TAKE = `
WITH wanted AS (SELECT DISTINCT unnest($1::text[]) AS name),
free AS (
  SELECT leases.name FROM leases JOIN wanted ON wanted.name = leases.name
  WHERE leases.owner = $2 OR leases.expires_at <= clock_timestamp()
  FOR UPDATE OF leases SKIP LOCKED
),
taken AS (
  UPDATE leases SET
    epoch = CASE WHEN leases.owner = $2 AND leases.expires_at > clock_timestamp() THEN leases.epoch ELSE leases.epoch + 1 END,
    owner = $2,
    expires_at = clock_timestamp() + $3 * interval '1 millisecond',
    info = $4::jsonb
  FROM free WHERE leases.name = free.name
  RETURNING leases.name, leases.epoch
),
made AS (
  INSERT INTO leases (name, owner, epoch, expires_at, info)
  SELECT wanted.name, $2, 1, clock_timestamp() + $3 * interval '1 millisecond', $4::jsonb FROM wanted
  WHERE NOT EXISTS (SELECT 1 FROM leases WHERE leases.name = wanted.name)
  ON CONFLICT (name) DO NOTHING
  RETURNING name, epoch
)
SELECT name, epoch FROM taken UNION ALL SELECT name, epoch FROM made`;

const RENEW = `
UPDATE leases SET expires_at = clock_timestamp() + $3 * interval '1 millisecond', info = COALESCE($4::jsonb, info)
WHERE name = ANY($1::text[]) AND owner = $2 AND expires_at > clock_timestamp()
RETURNING name, epoch`;

/** Given back: run out at once, keeping its owner and epoch, so that the next owner gets the next epoch. */
const RELEASE = `UPDATE leases SET expires_at = clock_timestamp() - interval '1 millisecond' WHERE name = ANY($1::text[]) AND owner = $2`;

const LIST = `
SELECT name, owner, epoch, expires_at > clock_timestamp() AS live,
       (extract(epoch FROM (expires_at - clock_timestamp())) * 1000)::bigint AS "leftMs", info
FROM leases WHERE name LIKE $1 ORDER BY name`;

/** What runs the statements: the leases' own pool, or (in tests) any connection. */
export interface LeaseConnection {
  query<R extends QueryResultRow>(statement: Statement): Promise<{ rows: R[] }>;
}

export class PgLeases {
  constructor(
    private readonly db: LeaseConnection,
    private readonly closeConnection: () => Promise<void> = async () => undefined,
    private readonly renewConnection: () => void = () => undefined,
  ) {}

  /** Leases over a pool of their own at `url` (two connections, LEASE_LIMITS). */
  static connect(url: string, logger: Logger): PgLeases {
    const open = (): pg.Pool => {
      const made = new pg.Pool({
        connectionString: url,
        max: 2,
        application_name: 'tokenwatch-leases',
        // Epochs and times left are bigint columns: read as numbers, as the store reads them.
        types: PG_TYPES,
        connectionTimeoutMillis: LEASE_LIMITS.connectTimeoutMs,
        ...sessionSettings({
          statementTimeoutMs: LEASE_LIMITS.statementTimeoutMs,
          idleInTransactionMs: LEASE_LIMITS.idleInTransactionMs,
          lockTimeoutMs: LEASE_LIMITS.lockTimeoutMs,
        }),
        query_timeout: LEASE_LIMITS.queryTimeoutMs,
      });
      // An idle connection the server drops is reported here; unheard, it would stop the process. The next step connects again.
      made.on('error', (error) => logger.debug({ reason: connectionErrorText(error) }, 'a lease connection was dropped while idle'));
      return made;
    };
    let pool = open();
    // The old pool is ended without waiting: a connection it waits on may never answer.
    const renew = (): void => {
      const old = pool;
      pool = open();
      old.end().catch(() => undefined);
    };
    return new PgLeases(
      { query: async <R extends QueryResultRow>(statement: Statement) => pool.query<R>(statement) },
      () => pool.end(),
      renew,
    );
  }

  /** Ends the leases' own pool (nothing for a connection lent to it). */
  close(): Promise<void> {
    return this.closeConnection();
  }

  /** Drops the pool's connections and makes a new pool: after a step that never answered. */
  reconnect(): void {
    this.renewConnection();
  }

  /**
   * Takes each named lease that is free, run out, or already this owner's (then renewed), for
   * `ttlMs`; returns those taken, with their epochs. One held by another owner is left.
   */
  async take(names: readonly string[], owner: string, ttlMs: number, info: Record<string, unknown> = {}): Promise<Map<string, number>> {
    if (names.length === 0) return new Map();
    const { rows } = await this.db.query<{ name: string; epoch: number }>({
      name: 'tw_lease_take',
      text: TAKE,
      values: [names, owner, ttlMs, JSON.stringify(info)],
    });
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
