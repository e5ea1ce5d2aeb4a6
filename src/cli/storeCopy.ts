/**
 * `npm run store:copy -- --from data/tokenwatch.db --to postgres://…` (from the build:
 * `node dist/src/cli/storeCopy.js --from … --to …`): moves a bot from its SQLite file to
 * PostgreSQL. The SQLite store must be stopped (it is opened as the bot opens it, instance lock
 * included, so a running bot's file is refused); the PostgreSQL database must be empty (it is
 * migrated first, then checked). Everything is copied in one transaction (store/postgres/copyFromSqlite.ts), and
 * one line says what: `Copied data/tokenwatch.db to postgres://bot:***@db/tokenwatch: 1,204
 * follows, …`. A failure is one line on standard error and a non-zero exit (2 for wrong
 * arguments, 1 for anything else); the address is never shown with its password.
 */
import { existsSync, statSync } from 'node:fs';
import { openDatabase } from '../store/openDatabase';
import { StoreOpenError } from '../store/storeOpenError';
import { copySqliteToPostgres, TargetNotEmptyError, type CopyCounts } from '../store/postgres/copyFromSqlite';
import { isPostgresUrl } from '../store/postgres/databaseUrl';
import { checkOut } from '../store/postgres/checkOut';
import { redactUrl, registerUrlSecrets } from '../urlCredentials';
import { scrubSecrets } from '../log';
import { openPostgresStore } from '../store/postgres/postgresStore';
import { connectionErrorText } from '../store/postgres/connectionErrors';

const USAGE =
  'Usage: npm run store:copy -- --from SQLITE_FILE --to postgres://USER:PASSWORD@HOST:PORT/DATABASE (the bot stopped, the database empty)';

/** A failure whose message is the one line to print. */
class CopyError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'CopyError';
  }
}

function readArgs(args: readonly string[]): { from: string; to: string } {
  const found = new Map<string, string>();
  for (let index = 0; index < args.length; index += 2) {
    const flag = args[index] ?? '';
    const value = args[index + 1]?.trim() ?? '';
    if ((flag !== '--from' && flag !== '--to') || found.has(flag) || value === '') throw new CopyError(USAGE, 2);
    found.set(flag, value);
  }
  const from = found.get('--from');
  const to = found.get('--to');
  if (from === undefined || to === undefined) throw new CopyError(USAGE, 2);
  if (!isPostgresUrl(to)) throw new CopyError(`Cannot copy to ${redactUrl(to)}: --to takes a postgres:// or postgresql:// address`, 2);
  return { from, to };
}

function countsText(counts: CopyCounts): string {
  const n = (value: number) => value.toLocaleString('en-US');
  return [
    `${n(counts.follows)} follows`,
    `${n(counts.chats)} chat settings`,
    `${n(counts.tokenStates)} token states`,
    `${n(counts.walletStates)} wallet states`,
    `${n(counts.pendingAlerts)} pending alerts and ${n(counts.sentAlerts)} sent (${n(counts.events)} events)`,
    `${n(counts.actionKeys)} action keys`,
  ].join(', ');
}

async function copy(from: string, to: string): Promise<CopyCounts> {
  const where = redactUrl(to);
  // Said plainly: opening would otherwise create an empty database at a mistyped path.
  if (!existsSync(from) || statSync(from).isDirectory()) throw new CopyError(`Cannot copy ${from}: there is no SQLite database there`, 1);
  const source = openDatabase(from);
  try {
    const target = await openPostgresStore(to);
    try {
      const checkedOut = await checkOut(target.db.pool);
      try {
        return await copySqliteToPostgres(source.db, checkedOut.client, Date.now());
      } catch (error) {
        if (error instanceof TargetNotEmptyError) throw new CopyError(`Cannot copy into ${where}: ${error.message}`, 1);
        throw new CopyError(`Cannot copy ${from} to ${where}: ${connectionErrorText(error)}; nothing was copied`, 1);
      } finally {
        checkedOut.release();
      }
    } finally {
      await target.close();
    }
  } finally {
    source.close();
  }
}

async function main(): Promise<void> {
  const { from, to } = readArgs(process.argv.slice(2));
  registerUrlSecrets(to);
  const counts = await copy(from, to);
  process.stdout.write(`Copied ${from} to ${redactUrl(to)}: ${countsText(counts)}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    // Every line is scrubbed: a driver's words may echo the password, or a piece of it read as a host or a database.
    if (error instanceof CopyError || error instanceof StoreOpenError) {
      process.stderr.write(`${scrubSecrets(error.message)}\n`);
      process.exit(error instanceof CopyError ? error.exitCode : 1);
    }
    process.stderr.write(`Copy failed: ${scrubSecrets((error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' '))}\n`);
    process.exit(1);
  },
);
