/**
 * `npm run backup -- PATH` (or `node dist/src/cli/backup.js PATH` from the build): a
 * consistent copy of the database at DATABASE_PATH, read the way the bot reads it (the environment
 * and `.env`), taken while the bot runs or not. PATH must be a new file in a folder that exists.
 * Prints one line with the copy's path and size; a failure is one line on standard error and a
 * non-zero exit (2 for a wrong argument or setting, 1 for anything else).
 *
 * The database is opened here with better-sqlite3 directly, read-only, and not as a SqliteStore:
 * a store takes the instance lock (instanceLock.ts), which the running bot holds, so opening one
 * would be refused as "locked"; it would also migrate and checkpoint, which a backup must not do.
 * A read-only connection beside the bot's is what SQLite's WAL mode allows: it neither blocks the
 * bot's commits nor is blocked by them.
 */
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { loadSettings } from '../chats/platforms';
import { ConfigError, loadDotEnv } from '../config';

const USAGE =
  'Usage: npm run backup -- PATH (a new file; the database copied is DATABASE_PATH, ' +
  'by default data/tokenwatch-simulator.db on the built-in simulator and data/tokenwatch.db on a service)';

/** How long a read waits for a lock another connection holds (a checkpoint that truncates the log), as the store's own open does. */
const BUSY_TIMEOUT_MS = 5_000;

/** SQLite's backup step takes at most this many pages; more than any database holds. */
const ALL_PAGES = 0x7fffffff;

/** A failure whose message is the one line to print. */
class BackupError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'BackupError';
  }
}

function errorCode(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return '';
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
}

/**
 * Creates the destination, empty, failing if anything is already there: the check and the creation
 * are one step, so no file that appears meanwhile is overwritten. An empty file is a valid empty
 * database, which the backup then fills.
 */
function claimDestination(destination: string): void {
  try {
    writeFileSync(destination, '', { flag: 'wx' });
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST')
      throw new BackupError(`Cannot back up to ${destination}: it exists, and a backup never overwrites a file; name a new one`, 1);
    if (code === 'ENOENT') throw new BackupError(`Cannot back up to ${destination}: its folder does not exist`, 1);
    throw new BackupError(`Cannot back up to ${destination}: ${errorText(error)}`, 1);
  }
}

function openSource(source: string): Database.Database {
  // Said plainly here, since SQLite's words for these cases are "unable to open" and "disk I/O error".
  if (!existsSync(source)) throw new BackupError(`Cannot back up ${source}: there is no database there (DATABASE_PATH names the bot's)`, 1);
  if (statSync(source).isDirectory())
    throw new BackupError(`Cannot back up ${source}: it is a folder, not a database (DATABASE_PATH names the bot's file)`, 1);
  let db: Database.Database;
  try {
    // fileMustExist: a file removed since the check must not be created empty to be copied.
    db = new Database(source, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw new BackupError(`Cannot back up ${source}: ${errorText(error)}`, 1);
  }
  try {
    // The first read: a file that is not a database fails here. Every TokenWatch database records
    // its schema version, so a version of 0 is some other SQLite file, not worth a copy.
    if (Number(db.pragma('user_version', { simple: true })) === 0) {
      throw new BackupError(`Cannot back up ${source}: it is not a TokenWatch database (it has no schema version)`, 1);
    }
  } catch (error) {
    db.close();
    if (error instanceof BackupError) throw error;
    const code = errorCode(error);
    if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'))
      throw new BackupError(`Cannot back up ${source}: the file is not a SQLite database or is damaged`, 1);
    throw new BackupError(`Cannot back up ${source}: ${errorText(error)}`, 1);
  }
  return db;
}

/**
 * Copies `source` to `destination`, returning the copy's size in bytes. SQLite's online backup
 * copies in steps and starts over when another connection writes between two of them, which a bot
 * busy with alerts could do forever; so every page is copied in one step, inside one read
 * transaction: the copy is the database as of one commit, and the bot's commits go on meanwhile.
 */
async function backUp(source: string, destination: string): Promise<number> {
  const db = openSource(source);
  try {
    claimDestination(destination);
    try {
      await db.backup(destination, { progress: () => ALL_PAGES });
    } catch (error) {
      // The file claimed above is ours: a failed copy leaves nothing behind.
      rmSync(destination, { force: true });
      throw new BackupError(`Cannot back up ${source} to ${destination}: ${errorText(error)}`, 1);
    }
  } finally {
    db.close();
  }
  return statSync(destination).size;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const destination = args[0]?.trim() ?? '';
  if (args.length !== 1 || destination === '') throw new BackupError(USAGE, 2);
  loadDotEnv();
  // The bot's own reading of DATABASE_PATH and its default, so the copy is of the file the bot uses.
  const config = loadSettings();
  if (config.databaseUrl !== null) {
    throw new BackupError(
      "The bot's store is PostgreSQL (DATABASE_URL), not a SQLite file: back it up with pg_dump (pg_dump --format=custom " +
        '--file=PATH "$DATABASE_URL")',
      1,
    );
  }
  const source = config.databasePath;
  const bytes = await backUp(source, destination);
  process.stdout.write(`Backed up ${source} to ${destination}: ${bytes.toLocaleString('en-US')} bytes\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof BackupError || error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(error instanceof ConfigError ? 2 : error.exitCode);
    }
    process.stderr.write(`Backup failed: ${errorText(error)}\n`);
    process.exit(1);
  },
);
