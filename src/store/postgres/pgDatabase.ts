/**
 * The store's connections to PostgreSQL: a node-postgres pool, and what to do when the server goes
 * away. A lost connection (the server restarted, the network cut) is noticed on the statement that
 * meets it, or on an idle connection the pool holds; from then on one probe at a time, with
 * backoff, asks the server until it answers. The log hears one line when it goes and one when it
 * comes back, whatever the number of statements that met the outage.
 *
 * Meanwhile a statement is either:
 *
 * - asked now (`query`): it fails at once with StoreUnavailableError, so a command answers "try
 *   again" instead of waiting; or
 * - waited for (`durable`): the watcher's commits and reads and delivery's records wait for the
 *   server, up to `outageWaitMs`, and run again when it is back. Every statement run this way is
 *   safe to run twice (upserts, inserts that skip what exists, updates to a value), since a
 *   statement cut off at its commit may or may not have been applied.
 *
 * A server out of room (SQLSTATE class 53: 53100 disk_full, 53200 out_of_memory, …; not 53300,
 * too many connections, which is a connection refused) answers, but refuses to write: such a
 * statement fails at once, asked now or waited for, with StoreUnavailableError, reason `full`,
 * and `room` says so (storeRoom.ts), as a full disk under SQLite does.
 */
import pg from 'pg';
import type { CustomTypesConfig, PoolClient, QueryConfig, QueryResultRow } from 'pg';
import type { Logger } from '../../log';
import { RoomWatch } from '../storeRoom';
import { postgresNoRoom, StoreUnavailableError } from '../storeUnavailable';
import { redactUrl } from '../../urlCredentials';
import { checkOut } from './checkOut';
import { connectionErrorText, isConnectionError } from './connectionErrors';

/** Long enough for a server restart (about a second here) and a failover; short enough for shutdown. */
const OUTAGE_WAIT_MS = 20_000;

/**
 * What every connection asks of the server, so that a process cut off from it (a network
 * partition, a frozen machine: the connection stays open and says nothing) cannot hold another
 * process's work for longer than a lease lasts (10 s, src/cluster/coordinator.ts):
 *
 * - a statement runs at most 5 s, and a transaction left idle by its client is ended after 5 s,
 *   which gives back its row locks (the fence's lock on a lease above all);
 * - the server asks a silent client's socket after 5 s and gives it up after 3 unanswered probes
 *   2 s apart, so a backend whose client vanished mid-statement goes too;
 * - this side waits at most 8 s for any answer (a statement's 5 s and room for the round trip),
 *   then counts the connection as lost and ends it.
 *
 * Long work on purpose (migrations, `npm run store:copy`, waiting for Discord's IDENTIFY turn) lifts
 * the limits for its own statements (`unbounded` below, and SET LOCAL statement_timeout = 0).
 */
export const SESSION_LIMITS = {
  statementTimeoutMs: 5_000,
  idleInTransactionMs: 5_000,
  queryTimeoutMs: 8_000,
  keepAliveIdleS: 5,
  keepAliveIntervalS: 2,
  keepAliveCount: 3,
} as const;

/** A statement's own client-side wait, for the long work named above: a day rather than none. */
const UNBOUNDED_MS = 24 * 3_600_000;

/** A statement for the long work named above: this side waits for its answer as long as it takes. */
export function unbounded(text: string, values?: unknown[]): QueryConfig {
  // node-postgres reads query_timeout from the statement too; its types do not list it.
  return { text, ...(values === undefined ? {} : { values }), query_timeout: UNBOUNDED_MS } as QueryConfig;
}

/** The server-side limits as a connection's startup settings. */
export function sessionSettings(limits: {
  statementTimeoutMs: number;
  idleInTransactionMs: number;
  lockTimeoutMs?: number;
}): pg.PoolConfig {
  const keepalives =
    `-c tcp_keepalives_idle=${SESSION_LIMITS.keepAliveIdleS} -c tcp_keepalives_interval=${SESSION_LIMITS.keepAliveIntervalS} -c ` +
    `tcp_keepalives_count=${SESSION_LIMITS.keepAliveCount}`;
  return {
    statement_timeout: limits.statementTimeoutMs,
    idle_in_transaction_session_timeout: limits.idleInTransactionMs,
    ...(limits.lockTimeoutMs === undefined ? {} : { lock_timeout: limits.lockTimeoutMs }),
    options: keepalives,
    keepAlive: true,
    keepAliveInitialDelayMillis: SESSION_LIMITS.keepAliveIdleS * 1_000,
  };
}
const PROBE_FIRST_MS = 100;
const PROBE_MAX_MS = 5_000;
const INT8_OID = 20;

/**
 * bigint columns (ids, epoch milliseconds) as numbers: every value the store writes there stays
 * below 2^53, and a string would have to be converted at every read.
 */
export const PG_TYPES: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (text: string) => Number(text)
      : pg.types.getTypeParser(oid, format)) as CustomTypesConfig['getTypeParser'],
};

/** A statement: its text, its values, and a name when it is hot enough to be prepared once per connection. */
export interface Statement {
  text: string;
  values?: unknown[];
  name?: string;
}

export interface PgDatabaseOptions {
  url: string;
  logger: Logger;
  /** Connections at most (default 8): the watcher's commits, delivery and commands at once. */
  poolSize?: number;
  outageWaitMs?: number;
}

interface Outage {
  since: number;
  reason: string;
  back: Promise<void>;
  resolve: () => void;
}

export class PgDatabase {
  readonly pool: pg.Pool;
  /** Whether the server has room to write: refused statements of class 53 say it has not. */
  readonly room: RoomWatch;
  private readonly logger: Logger;
  private readonly outageWaitMs: number;
  private outage: Outage | null = null;
  private closed = false;
  private readonly closing: Promise<void>;
  private signalClosed: () => void = () => undefined;

  constructor(options: PgDatabaseOptions) {
    this.logger = options.logger;
    this.room = new RoomWatch({ logger: options.logger, store: redactUrl(options.url) });
    this.outageWaitMs = options.outageWaitMs ?? OUTAGE_WAIT_MS;
    this.closing = new Promise((resolve) => {
      this.signalClosed = resolve;
    });
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 8,
      types: PG_TYPES,
      connectionTimeoutMillis: 5_000,
      application_name: 'tokenwatch',
      ...sessionSettings(SESSION_LIMITS),
      query_timeout: SESSION_LIMITS.queryTimeoutMs,
    });
    // An idle connection the server drops (a restart) is reported here; unheard, it would stop the process.
    this.pool.on('error', (error) => {
      if (isConnectionError(error)) this.lost(error);
      else this.logger.warn({ reason: connectionErrorText(error) }, 'database connection failed while idle');
    });
  }

  /** Whether the server is known to be unreachable right now. */
  get available(): boolean {
    return this.outage === null && !this.closed;
  }

  /** Runs a statement now; while the server is away, fails at once with StoreUnavailableError. */
  async query<R extends QueryResultRow>(statement: Statement): Promise<pg.QueryResult<R>> {
    this.assertAvailable();
    try {
      return await this.pool.query<R>(statement);
    } catch (error) {
      throw this.translate(error);
    }
  }

  /** Runs `run` in one transaction on one connection; while the server is away, fails at once. */
  async transaction<T>(run: (client: PoolClient) => Promise<T>): Promise<T> {
    this.assertAvailable();
    try {
      return await this.inTransaction(run);
    } catch (error) {
      throw this.translate(error);
    }
  }

  /**
   * Runs `run` (which must be safe to run twice), waiting for the server while it is away and
   * running again after a lost connection, until `outageWaitMs` has passed since the first try or
   * the store closes: then StoreUnavailableError.
   */
  async durable<T>(run: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.outageWaitMs;
    for (;;) {
      if (this.closed) throw new StoreUnavailableError('the store is closed');
      const outage = this.outage;
      if (outage !== null) {
        await this.waitFor(outage, deadline);
        continue;
      }
      try {
        return await run();
      } catch (error) {
        if (!isConnectionError(error)) throw this.noRoom(error);
        this.lost(error);
        if (Date.now() >= deadline) throw new StoreUnavailableError(connectionErrorText(error));
      }
    }
  }

  /** `durable` for one statement. */
  async durableQuery<R extends QueryResultRow>(statement: Statement): Promise<pg.QueryResult<R>> {
    return this.durable(() => this.pool.query<R>(statement));
  }

  /** `durable` for one transaction. */
  async durableTransaction<T>(run: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.durable(() => this.inTransaction(run));
  }

  /** Ends every connection; statements waiting for the server fail with StoreUnavailableError. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.signalClosed();
    await this.pool.end();
  }

  private async inTransaction<T>(run: (client: PoolClient) => Promise<T>): Promise<T> {
    const checkedOut = await checkOut(this.pool);
    const { client } = checkedOut;
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await run(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = isConnectionError(error) || checkedOut.lost() !== null;
      if (!broken) await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      // A connection that failed mid-transaction is not given back to be reused.
      checkedOut.release(broken);
    }
  }

  private assertAvailable(): void {
    if (this.closed) throw new StoreUnavailableError('the store is closed');
    if (this.outage !== null) throw new StoreUnavailableError(this.outage.reason);
  }

  private translate(error: unknown): unknown {
    if (!isConnectionError(error)) return this.noRoom(error);
    this.lost(error);
    return new StoreUnavailableError(connectionErrorText(error));
  }

  /** A refusal for lack of room as StoreUnavailableError (and `room` hears of it); any other error as it is. */
  private noRoom(error: unknown): unknown {
    const full = postgresNoRoom(error);
    if (full === null || full === error) return error;
    this.room.refused(full);
    return full;
  }

  private async waitFor(outage: Outage, deadline: number): Promise<void> {
    const left = deadline - Date.now();
    if (left <= 0) throw new StoreUnavailableError(outage.reason);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, left);
      timer.unref();
    });
    try {
      await Promise.race([outage.back, timeout, this.closing]);
    } finally {
      clearTimeout(timer);
    }
    if (this.outage === outage && Date.now() >= deadline) throw new StoreUnavailableError(outage.reason);
  }

  /** The first failure of an outage logs it and starts the probe; later ones join it. */
  private lost(error: unknown): void {
    if (this.outage !== null || this.closed) return;
    let resolve: () => void = () => undefined;
    const back = new Promise<void>((done) => {
      resolve = done;
    });
    const outage: Outage = { since: Date.now(), reason: connectionErrorText(error), back, resolve };
    this.outage = outage;
    this.logger.warn({ reason: outage.reason }, 'database connection lost; commands answer "try again" and commits wait until it is back');
    void this.probe(outage);
  }

  private async probe(outage: Outage): Promise<void> {
    let delay = PROBE_FIRST_MS;
    while (!this.closed) {
      // A timer that keeps the process alive: until the server answers or the store closes, the probe is work under way.
      await Promise.race([new Promise((resolve) => setTimeout(resolve, delay)), this.closing]);
      if (this.closed) break;
      try {
        await this.pool.query('SELECT 1');
        break;
      } catch (error) {
        if (!isConnectionError(error)) break;
        delay = Math.min(PROBE_MAX_MS, delay * 2);
      }
    }
    if (this.outage === outage) this.outage = null;
    if (!this.closed) this.logger.info({ downMs: Date.now() - outage.since }, 'database connection back');
    outage.resolve();
  }
}
