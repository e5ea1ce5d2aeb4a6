/**
 * Which store the bot runs on: PostgreSQL when `DATABASE_URL` names one, else the SQLite file at
 * `DATABASE_PATH`. Both throw StoreOpenError, whose message is the one line main prints.
 */
import type { Logger } from '../log';
import { openPostgresStore } from './postgres/postgresStore';
import { openSqliteStore } from './sqliteStore';
import type { Store } from './store';

export async function openStore(settings: { databasePath: string; databaseUrl: string | null }, options: { logger: Logger }): Promise<Store> {
  if (settings.databaseUrl !== null) return openPostgresStore(settings.databaseUrl, { logger: options.logger });
  return openSqliteStore(settings.databasePath, { logger: options.logger });
}
