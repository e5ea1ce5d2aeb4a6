/**
 * Why a store could not be opened at start: the one line main prints before it stops with exit
 * code 2. Both stores throw it, SQLite naming its file, PostgreSQL its address without the password.
 * The driver's words are scrubbed of every registered secret (src/log.ts): a driver that read a
 * password holding a reserved character as a host or a database name may echo a piece of it.
 */
import { scrubSecrets } from '../log';

/** Why the database could not be opened; `message` is the one line to print. */
export type StoreOpenReason = 'corrupt' | 'locked' | 'unreadable' | 'newer-schema' | 'foreign' | 'unreachable' | 'other-market';

export class StoreOpenError extends Error {
  constructor(
    readonly path: string,
    readonly reason: StoreOpenReason,
    detail: string,
  ) {
    super(`Cannot open the database ${path}: ${scrubSecrets(detail)}`);
    this.name = 'StoreOpenError';
  }
}
