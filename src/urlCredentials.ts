/**
 * The one reading of credentials in an address the operator wrote (`DATABASE_URL`, the service's,
 * Telegram's and Discord's addresses, a webhook's), for every place that prints one: a start-up
 * error, `npm run store:copy`, a log line.
 *
 * Read as text, not as a URL, and read wide: everything between `//` and the LAST `@` is taken
 * for credentials, whatever it holds. A password with an unencoded `@`, `/`, `#`, `?` or space is
 * no valid URL (or a different one: `tw:Sec/ret@db` parses as host `tw`, port `Sec`), so a URL
 * parser would show part or all of it as a host or a path; cutting at the last `@` can only hide
 * too much (an `@` in a query hides the host too), never too little. A socket address
 * (`postgres://user@/db?host=/run/pg`) is no URL either and is read the same way.
 */
import { registerSecret } from './log';

/** `scheme://` at the start. */
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** A user name shown as it is: letters, digits, `. _ ~ -` and percent-escapes, nothing that could be part of a password read wrong. */
const PLAIN_USER = /^(?:[a-z0-9._~-]|%[0-9a-f]{2})+$/i;
/** A query parameter whose name says it holds a password (`?password=`, `&sslpassword=`): its value runs to the next `&`. */
const PASSWORD_PARAM = /([?&][^=&]*pass[^=&]*=)([^&]*)/gi;
/** Where a password is cut into the pieces that are scrubbed on their own too (see urlSecrets). */
const PIECE_BREAK = /%[0-9a-f]{2}|[^a-z0-9]+/gi;
/** Pieces shorter than this are left alone: scrubbing "db" or "12" everywhere would maim the logs. */
const MIN_PIECE = 4;

const HIDDEN = '***';

interface Parts {
  /** `scheme://`, or '' for text that is no address. */
  scheme: string;
  /** Everything between `//` and the last `@`; null when there is no `@`. */
  credentials: string | null;
  /** Host, port, path, query: what follows the credentials. */
  rest: string;
}

function partsOf(text: string): Parts {
  const trimmed = text.trim();
  const scheme = SCHEME.exec(trimmed)?.[0] ?? '';
  const after = trimmed.slice(scheme.length);
  const at = scheme === '' ? -1 : after.lastIndexOf('@');
  if (at < 0) return { scheme, credentials: null, rest: after };
  return { scheme, credentials: after.slice(0, at), rest: after.slice(at + 1) };
}

/** The user (before the first `:`) and the password (after it), or null for a password when there is no `:`. */
function userAndPassword(credentials: string): { user: string; password: string | null } {
  const colon = credentials.indexOf(':');
  return colon < 0 ? { user: credentials, password: null } : { user: credentials.slice(0, colon), password: credentials.slice(colon + 1) };
}

/**
 * The address fit to print: `postgres://tw:***@db:5432/tokenwatch`. The user name stays when it
 * is plainly one; anything else between `//` and the last `@` becomes `***`, and so does the value
 * of a query parameter named like a password.
 */
export function redactUrl(text: string): string {
  const { scheme, credentials, rest } = partsOf(text);
  const shownRest = rest.replace(PASSWORD_PARAM, `$1${HIDDEN}`);
  if (credentials === null) return `${scheme}${shownRest}`;
  const { user, password } = userAndPassword(credentials);
  const shownUser = PLAIN_USER.test(user) ? user : HIDDEN;
  if (password === null) return `${scheme}${shownUser === HIDDEN ? HIDDEN : user}@${shownRest}`;
  return `${scheme}${shownUser}:${HIDDEN}@${shownRest}`;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Every text of the address that must never be printed: each password (from the credentials, or
 * a query parameter) as written and percent-decoded, and the pieces of it between reserved
 * characters, so that a driver that reads the address otherwise (a piece taken for a host, a
 * port or a database name) and echoes that piece in an error is scrubbed too.
 */
export function urlSecrets(text: string): string[] {
  const { credentials, rest } = partsOf(text);
  const passwords: string[] = [];
  if (credentials !== null) {
    const { user, password } = userAndPassword(credentials);
    if (password !== null) passwords.push(password);
    if (!PLAIN_USER.test(user)) passwords.push(user);
  }
  for (const match of rest.matchAll(PASSWORD_PARAM)) passwords.push(match[2] ?? '');
  const found = new Set<string>();
  for (const password of passwords) {
    for (const form of [password, decoded(password)]) {
      found.add(form);
      for (const piece of form.split(PIECE_BREAK)) if (piece.length >= MIN_PIECE) found.add(piece);
    }
  }
  found.delete('');
  return [...found];
}

/** Registers the address's secrets with the logger (src/log.ts), which then scrubs them from every line and error text. */
export function registerUrlSecrets(text: string): void {
  for (const secret of urlSecrets(text)) registerSecret(secret);
}
