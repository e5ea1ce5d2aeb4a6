/**
 * The database cannot be reached right now (a PostgreSQL server restarting, a network cut): the
 * store says so with this error instead of a driver's, so that a command answers "try again"
 * rather than failing with an error id, and delivery waits for the next round without a log line
 * of its own (the store logs the outage once when it starts and once when it ends).
 */
export class StoreUnavailableError extends Error {
  constructor(readonly detail: string) {
    super(`The database cannot be reached right now (${detail})`);
    this.name = 'StoreUnavailableError';
  }
}

export function isStoreUnavailable(error: unknown): error is StoreUnavailableError {
  return error instanceof StoreUnavailableError;
}
