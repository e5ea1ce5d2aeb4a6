/**
 * Which failures mean "the database went away" (a server restarting or shutting down, a socket
 * refused or cut) rather than "this statement is wrong": the first are waited out and retried, the
 * second are the caller's to see.
 */

/** SQLSTATE classes and codes of a lost or refused connection. */
const CONNECTION_STATES = new Set([
  '57P01', // admin_shutdown: pg_ctl stop or restart -m fast
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
]);

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOENT',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/**
 * node-postgres says these in words, without a code. "Query read timeout" is its own wait for an
 * answer running out (pgDatabase.ts SESSION_LIMITS): a server that says nothing for that long is
 * out of reach, whatever the socket still claims.
 */
const LOST_MESSAGES =
  /Connection terminated|connection error|not queryable|timeout exceeded when trying to connect|Client was closed|Query read timeout/i;

function field(error: object, name: string): string {
  const value: unknown = (error as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

export function isConnectionError(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const code = field(error, 'code');
  if (CONNECTION_STATES.has(code) || code.startsWith('08') || SOCKET_CODES.has(code)) return true;
  return LOST_MESSAGES.test(field(error, 'message'));
}

/** A short reason for the log line: the code and the driver's words, never the address's password. */
export function connectionErrorText(error: unknown): string {
  if (error === null || typeof error !== 'object') return String(error);
  const code = field(error, 'code');
  const message = field(error, 'message').replace(/\s+/g, ' ').slice(0, 200);
  return code === '' ? message : `${code}: ${message}`;
}
