/** The store part: PostgreSQL at DATABASE_URL, else the SQLite file at DATABASE_PATH. */
import type { Config } from '../config';
import type { Logger } from '../log';
import { openStore } from '../store/openStore';
import type { Store } from '../store/store';
import type { Lifecycle } from './lifecycle';

/** Throws StoreOpenError (one line naming the file, or the address without its password): main prints it. */
export async function startStore(config: Config, logger: Logger, lifecycle: Lifecycle): Promise<Store> {
  const store = await openStore(config, { logger });
  lifecycle.onStop('store', () => store.close());
  return store;
}
