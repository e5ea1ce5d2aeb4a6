/**
 * Which store the bot runs on: PostgreSQL when `DATABASE_URL` names one, else the SQLite file at
 * `DATABASE_PATH`. Both throw StoreOpenError, whose message is the one line main prints.
 */
import type { Logger } from '../log';
import { openPostgresStore } from './postgres/postgresStore';
import { openSqliteStore } from './sqliteStore';
import type { Store } from './store';
import { marketOf } from './storeMarket';

/**
 * Either store records the market of its first start and refuses another one (storeMarket.ts),
 * so that the built-in simulator's prices are never read against a real service's.
 */
export async function openStore(
  settings: {
    databasePath: string;
    databaseUrl: string | null;
    market: { baseUrl: string } | null;
    simulatorSeed: number;
    storeMarketReset: boolean;
  },
  options: { logger: Logger },
): Promise<Store> {
  const market = marketOf(settings);
  if (settings.databaseUrl !== null) return openPostgresStore(settings.databaseUrl, { logger: options.logger, market });
  return openSqliteStore(settings.databasePath, { logger: options.logger, market });
}
