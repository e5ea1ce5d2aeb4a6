/**
 * A throwaway PostgreSQL for the bench's PostgreSQL figures, from the machine's own binaries
 * (test/support/postgres/throwaway.ts), with fsync on, and a database of its own for each
 * measurement, whose address carries the `synchronous_commit` it runs with: durability is a
 * setting, and the figures say which. `off` is what SQLite's synchronous=NORMAL (the SQLite
 * store's) promises: a crash of the machine may lose the last moments' commits, never corrupt;
 * `on`, PostgreSQL's default, waits for the disk at every commit. Null, with the reason, when
 * PostgreSQL is not installed.
 */
import { freshDatabase } from '../test/support/postgres/databases';
import { findPostgresBinaries, startThrowawayPostgres } from '../test/support/postgres/throwaway';

export const BENCH_PG_SERVER_SETTINGS = { fsync: 'on', shared_buffers: '128MB' };

export interface BenchPostgres {
  /** A new database's address, its sessions running with this synchronous_commit. */
  database(synchronousCommit: 'on' | 'off'): Promise<string>;
  /** The settings, as printed beside the figures. */
  describe(synchronousCommit: 'on' | 'off'): string;
  stop(): Promise<void>;
}

export async function benchPostgres(): Promise<{ server: BenchPostgres } | { server: null; reason: string }> {
  const binaries = findPostgresBinaries();
  if (binaries === null) return { server: null, reason: 'no initdb and pg_ctl on PATH or under /usr/lib/postgresql/*/bin' };
  const server = await startThrowawayPostgres(binaries, BENCH_PG_SERVER_SETTINGS);
  const serverText = Object.entries(BENCH_PG_SERVER_SETTINGS)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ');
  return {
    server: {
      database: async (synchronousCommit) => {
        const { url } = await freshDatabase(server.url());
        return `${url}&options=${encodeURIComponent(`-c synchronous_commit=${synchronousCommit}`)}`;
      },
      describe: (synchronousCommit) => `PostgreSQL 15 on a Unix socket, synchronous_commit=${synchronousCommit}, ${serverText}`,
      stop: () => server.stop(),
    },
  };
}
