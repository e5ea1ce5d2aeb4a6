/**
 * A connection checked out of a pool, heard while it is out. node-postgres's pool listens for a
 * connection's errors only while the connection is idle in the pool; once checked out, nothing
 * does, and an error the server sends between two statements (a transaction it ended at its
 * `idle_in_transaction_session_timeout`, delivered when a network partition heals; a restart)
 * would be an uncaught exception that stops the process. Heard here, it marks the connection
 * lost: the next statement fails as a lost connection, and the connection is not given back.
 */
import type pg from 'pg';
import type { PoolClient } from 'pg';

export interface CheckedOut {
  client: PoolClient;
  /** The error the connection reported while checked out, or null. */
  lost(): unknown;
  /** Gives the connection back to the pool, or ends it when `broken` or lost. Once. */
  release(broken?: boolean): void;
}

export async function checkOut(pool: pg.Pool): Promise<CheckedOut> {
  const client = await pool.connect();
  let lost: unknown = null;
  const heard = (error: unknown): void => {
    lost ??= error;
  };
  client.on('error', heard);
  return {
    client,
    lost: () => lost,
    release: (broken = false) => {
      client.off('error', heard);
      // Still heard until the pool takes it back: the pool's own listener is set again by release.
      client.release(broken || lost !== null);
    },
  };
}
