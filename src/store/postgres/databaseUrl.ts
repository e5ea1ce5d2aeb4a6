/**
 * The PostgreSQL address as the operator wrote it (`DATABASE_URL`), and the form of it that may be
 * shown: in a start-up error, a log line or the copy command's report, the password never is.
 */

/** `postgres://` or `postgresql://`, as libpq and node-postgres both read them. */
export function isPostgresUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//i.test(text.trim());
}

/** `scheme://user:password@` at the start of an address: the password is the second group. */
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/[^:@/?#]*):([^@/?#]*)@/i;
/** A query parameter whose name says it holds a password (`?password=`, `&sslpassword=`). */
const PASSWORD_PARAM = /([?&][^=&#]*pass[^=&#]*=)([^&#]*)/gi;

/**
 * The address with its password replaced by `***` (user, host, database and the rest kept), for
 * messages. Read as text, not as a URL: a socket address (`postgres://user@/db?host=/run/pg`) is
 * no valid URL, and must be shown all the same.
 */
export function redactUrl(text: string): string {
  return text.trim().replace(USERINFO, '$1:***@').replace(PASSWORD_PARAM, '$1***');
}

/** The password in the address, if any, so that the logger can scrub it wherever it appears. */
export function passwordOf(text: string): string | null {
  const found = USERINFO.exec(text.trim())?.[2] ?? new RegExp(PASSWORD_PARAM.source, 'i').exec(text)?.[2] ?? '';
  if (found === '') return null;
  try {
    return decodeURIComponent(found);
  } catch {
    return found;
  }
}
