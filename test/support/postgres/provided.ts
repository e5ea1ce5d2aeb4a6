/** What the PostgreSQL global setup hands to the store and e2e test files (vitest's provide/inject). */
import type { PostgresBinaries } from './throwaway';

export type SharedPostgres =
  /** The server's maintenance database, from which each test makes a database of its own. */
  | { adminUrl: string; binaries: PostgresBinaries; skipped: null }
  /** Why the PostgreSQL half is skipped (said once, by the global setup). */
  | { adminUrl: null; binaries: null; skipped: string };

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: SharedPostgres;
  }
}
