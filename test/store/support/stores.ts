/**
 * The stores every store test runs against, for contract suites (`describe.each(STORE_KINDS)`):
 * SQLite on a temporary file, and PostgreSQL on a database of its own on the run's throwaway
 * server, when the global setup started one (it says once when it did not). A home is where a
 * store lives across reopenings: the file, or the database.
 */
import { afterEach, beforeEach, inject } from 'vitest';
import type { FollowRepository, NewFollow, Store } from '../../../src/store/store';
import type { Follow } from '../../../src/model/follow';
import { openSqliteStore } from '../../../src/store/sqliteStore';
import { openPostgresStore } from '../../../src/store/postgres/postgresStore';
import '../../support/postgres/provided';
import { freshDatabase } from '../../support/postgres/databases';
import { tempDir } from '../helpers';

/** What the tests use beyond Store: both stores have it. */
export type ContractStore = Store & {
  follows: FollowRepository & { upsertMany(follows: readonly NewFollow[]): Promise<Array<{ follow: Follow; created: boolean }>> };
};

export interface StoreHome {
  /** Opens a store on this home (again, after a close). */
  open(): Promise<ContractStore>;
  /** What DATABASE_PATH or DATABASE_URL names for this home, as the bot's settings take it. */
  env: Record<string, string>;
  remove(): Promise<void>;
}

export type StoreKind = 'sqlite' | 'postgres';

async function sqliteHome(): Promise<StoreHome> {
  const { path, cleanup } = tempDir();
  return { open: async () => openSqliteStore(path), env: { DATABASE_PATH: path }, remove: async () => cleanup() };
}

async function postgresHome(): Promise<StoreHome> {
  const shared = inject('postgres');
  if (shared.adminUrl === null) throw new Error(`PostgreSQL is not running: ${shared.skipped}`);
  const database = await freshDatabase(shared.adminUrl);
  return { open: () => openPostgresStore(database.url), env: { DATABASE_URL: database.url }, remove: database.drop };
}

/** PostgreSQL is in the list only when the global setup started it. */
export function postgresRunning(): boolean {
  return inject('postgres').adminUrl !== null;
}

export const STORE_KINDS: Array<[StoreKind, () => Promise<StoreHome>]> = [
  ['sqlite', sqliteHome],
  ...(postgresRunning() ? [['postgres', postgresHome] as [StoreKind, () => Promise<StoreHome>]] : []),
];

/**
 * A store of its own for each test of the enclosing describe: made and opened before it, closed
 * and removed after it; `use` is handed each test's home and store.
 */
export function eachStore(makeHome: () => Promise<StoreHome>, use: (opened: { home: StoreHome; store: ContractStore }) => void): void {
  let opened: { home: StoreHome; store: ContractStore } | null = null;
  beforeEach(async () => {
    const home = await makeHome();
    opened = { home, store: await home.open() };
    use(opened);
  });
  afterEach(async () => {
    if (opened === null) return;
    const { home, store } = opened;
    opened = null;
    await store.close();
    await home.remove();
  });
}
