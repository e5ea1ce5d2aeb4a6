/**
 * The Store over PostgreSQL (node-postgres, a pool), each repository in its own file, for a bot
 * that outgrows one SQLite file. `openPostgresStore` connects, migrates (migrate.ts) and throws
 * StoreOpenError, whose message is the one line to print, naming the address without its password.
 */
import { silentLogger, type Logger } from '../../log';
import type { Store } from '../store';
import { StoreOpenError } from '../storeOpenError';
import { connectionErrorText, isConnectionError } from './connectionErrors';
import { checkOut } from './checkOut';
import { redactUrl, registerUrlSecrets } from '../../urlCredentials';
import { migrate } from './migrate';
import { PgActionKeys } from './pgActionKeys';
import { PgCalls } from './pgCalls';
import { PgChats } from './pgChats';
import { PgDatabase } from './pgDatabase';
import { PgFollows } from './pgFollows';
import { PgOutbox } from './pgOutbox';
import { PgState } from './pgState';
import { logMarketOutcome, type StoreMarket } from '../storeMarket';
import type { StoreRoom } from '../storeRoom';

export interface PostgresStoreOptions {
  logger?: Logger;
  /** Connections at most (default 8). */
  poolSize?: number;
  /** How long the watcher's commits and delivery's records wait for a server that went away (default 20 s). */
  outageWaitMs?: number;
  /**
   * The market this start runs on: recorded in a new database, checked against an old one's
   * (src/store/storeMarket.ts). Absent: not looked at.
   */
  market?: StoreMarket;
}

export class PostgresStore implements Store {
  readonly follows: PgFollows;
  readonly chats: PgChats;
  readonly state: PgState;
  readonly outbox: PgOutbox;
  readonly actionKeys: PgActionKeys;
  readonly calls: PgCalls;
  /** Whether the server has room to write (a full disk refuses with SQLSTATE class 53: pgDatabase.ts). */
  readonly room: StoreRoom;
  private closed = false;

  constructor(
    readonly db: PgDatabase,
    logger: Logger,
  ) {
    this.room = db.room;
    this.follows = new PgFollows(db);
    this.state = new PgState(db);
    this.actionKeys = new PgActionKeys(db, logger);
    const settle = () => this.state.flush();
    // A move waits for the keys on their way too, so that they move with the rest.
    this.chats = new PgChats(
      db,
      () => this.follows.forgetAll(),
      async () => {
        await settle();
        await this.actionKeys.settled();
      },
    );
    this.outbox = new PgOutbox(db, settle);
    this.calls = new PgCalls(db, settle);
  }

  /**
   * Writes the commits still waiting and the keys on their way, gives back this store's claims on
   * undelivered alerts (so that the next start sends them at once), then ends the connections.
   * Closing twice is harmless.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.state.flush();
    await this.actionKeys.settled();
    if (this.db.available) await this.outbox.releaseClaims().catch(() => undefined);
    await this.db.close();
  }
}

/** Connects to the database at `url` and brings its schema up to date. */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const where = redactUrl(url);
  // Before the first connection: a driver's error may echo the password, or a piece of it it took for a host or a database.
  registerUrlSecrets(url);
  const logger = options.logger ?? silentLogger;
  const db = new PgDatabase({
    url,
    logger,
    ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
    ...(options.outageWaitMs === undefined ? {} : { outageWaitMs: options.outageWaitMs }),
  });
  try {
    let checkedOut;
    try {
      checkedOut = await checkOut(db.pool);
    } catch (error) {
      if (isConnectionError(error))
        throw new StoreOpenError(where, 'unreachable', `the server does not answer (${connectionErrorText(error)})`);
      throw new StoreOpenError(where, 'unreadable', connectionErrorText(error));
    }
    try {
      logMarketOutcome(logger, await migrate(checkedOut.client, where, options.market ?? null), where);
    } catch (error) {
      if (error instanceof StoreOpenError) throw error;
      throw new StoreOpenError(where, isConnectionError(error) ? 'unreachable' : 'unreadable', connectionErrorText(error));
    } finally {
      checkedOut.release();
    }
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return new PostgresStore(db, logger);
}
