/**
 * What a socket's end means for the next attempt. The service's answer to a wrong key is not
 * shown by the spec (§5.4): the simulator closes with 4001, other servers may close with another
 * code and a telling reason, or refuse the upgrade with HTTP 401/403; all are read as a refused key.
 */
export type CloseKind =
  /** The key was refused: retry slowly, report once. */
  | 'auth'
  /** The server refused a subscription (malformed 4000, unknown token 4004). */
  | 'rejected'
  /** Anything else: a lost link, a restart, a heartbeat timeout. */
  | 'lost';

export const CLOSE_UNAUTHORIZED = 4001;
export const CLOSE_MALFORMED = 4000;
export const CLOSE_UNKNOWN_TOKEN = 4004;
/** "Message too big": ws closes with it when a frame breaks maxPayload (RFC 6455 §7.4.1). */
export const CLOSE_TOO_BIG = 1009;

const AUTH_TEXT = /unauthori[sz]ed|invalid api[ _-]?key|api[ _-]?key (is )?(missing|required|invalid|wrong)|forbidden/i;
const AUTH_STATUS = /unexpected server response: (401|403)\b/i;

export function classifyClose(code: number, reason: string): CloseKind {
  if (code === CLOSE_UNAUTHORIZED || looksLikeAuth(reason)) return 'auth';
  if (code === CLOSE_MALFORMED || code === CLOSE_UNKNOWN_TOKEN) return 'rejected';
  return 'lost';
}

/** Whether a server's text (close reason or error message) speaks of a refused key. */
export function looksLikeAuth(text: string): boolean {
  return AUTH_TEXT.test(text);
}

/** ws reports a refused upgrade as an error "Unexpected server response: 401" before the close. */
export function isAuthError(message: string): boolean {
  return AUTH_STATUS.test(message);
}
