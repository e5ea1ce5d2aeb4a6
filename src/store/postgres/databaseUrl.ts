/**
 * The PostgreSQL address as the operator wrote it (`DATABASE_URL`). The form of it that may be
 * shown, without its password, comes from the one reading of credentials every address shares
 * (src/urlCredentials.ts).
 */

/** `postgres://` or `postgresql://`, as libpq and node-postgres both read them. */
export function isPostgresUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//i.test(text.trim());
}
