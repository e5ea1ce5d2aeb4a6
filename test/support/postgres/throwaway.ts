/**
 * A throwaway PostgreSQL server from the machine's own binaries, for tests and the bench: `initdb`
 * into a temporary folder, `pg_ctl start` listening on a Unix socket in that folder only (no TCP
 * port to collide with), and removal at the end. `initdb` refuses to run as root, so as root the
 * folder is handed to the `postgres` user and the binaries run as it (runuser).
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
}

/** `initdb` and `pg_ctl` on PATH, or under /usr/lib/postgresql/<major>/bin (the newest major); null when neither has them. */
export function findPostgresBinaries(): PostgresBinaries | null {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (folder !== '' && existsSync(join(folder, 'initdb')) && existsSync(join(folder, 'pg_ctl')))
      return { initdb: join(folder, 'initdb'), pgCtl: join(folder, 'pg_ctl') };
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const bin = join(root, major, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl')))
      return { initdb: join(bin, 'initdb'), pgCtl: join(bin, 'pg_ctl') };
  }
  return null;
}

export interface ThrowawayPostgres {
  /** The folder holding the data, the log and the socket. */
  dir: string;
  /** The server settings it runs with (`-c name=value`), for the bench to write beside its figures. */
  settings: Record<string, string>;
  /** The address of a database on it, as DATABASE_URL takes it. */
  url(database?: string): string;
  /** `pg_ctl restart -m fast`: every client connection is dropped. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast`, keeping the data: the server is away until `startServer`. */
  stopServer(): Promise<void>;
  /** Starts a stopped server again, with the same settings. */
  startServer(): Promise<void>;
  stop(): Promise<void>;
}

const PORT = 5432;

function asServerUser(command: string, args: string[]): [string, string[]] {
  // initdb refuses root; the Debian package's `postgres` user runs the server instead.
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

async function exec(command: string, args: string[]): Promise<void> {
  const [file, argv] = asServerUser(command, args);
  await run(file, argv, { maxBuffer: 4 * 1024 * 1024 });
}

/**
 * Starts a server. `settings` are passed with `-c` (defaults: fsync off, for speed; a bench that
 * measures durable commits turns it on).
 */
export async function startThrowawayPostgres(
  binaries: PostgresBinaries,
  settings: Record<string, string> = {},
): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'tw-pg-'));
  if (process.getuid?.() === 0)
    chownSync(
      dir,
      Number((await run('id', ['-u', 'postgres'])).stdout.trim()),
      Number((await run('id', ['-g', 'postgres'])).stdout.trim()),
    );
  const data = join(dir, 'data');
  const all = { fsync: 'off', listen_addresses: "''", max_connections: '200', ...settings };
  const options = [`-k ${dir}`, `-p ${PORT}`, ...Object.entries(all).map(([name, value]) => `-c ${name}=${value}`)].join(' ');
  try {
    // --no-sync: initdb's own fsyncs take most of its time, and the folder is thrown away.
    await exec(binaries.initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    await exec(binaries.pgCtl, ['-D', data, '-l', join(dir, 'log'), '-w', '-o', options, 'start']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped = false;
  return {
    dir,
    settings: all,
    // `localhost` stands in the authority only to make it a URL; the host parameter (the socket's folder) wins.
    url: (database = 'postgres') => `postgres://postgres@localhost/${database}?host=${encodeURIComponent(dir)}&port=${PORT}`,
    // -l as at start: without it the server would keep pg_ctl's output pipe open.
    restart: () => exec(binaries.pgCtl, ['-D', data, '-l', join(dir, 'log'), '-m', 'fast', '-w', 'restart']),
    stopServer: () => exec(binaries.pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']),
    startServer: () => exec(binaries.pgCtl, ['-D', data, '-l', join(dir, 'log'), '-w', '-o', options, 'start']),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await exec(binaries.pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
