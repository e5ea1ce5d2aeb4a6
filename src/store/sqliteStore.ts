/**
 * The Store over one SQLite file (better-sqlite3): every statement prepared once when the store
 * opens, each repository in its own file. `openSqliteStore` throws StoreOpenError, whose message is
 * the one line to print, when the file is damaged, locked by another process, or not ours.
 *
 * Each repository is handed out guarded (sqliteRoom.ts): a write refused for lack of room (a full
 * disk) fails as StoreUnavailableError, reason `full`, and `room` says so until there is room again.
 */
import type { Store } from './store';
import type { Logger } from '../log';
import { openDatabase, type OpenedDatabase, type OpenOptions } from './openDatabase';
import { SqliteActionKeys } from './sqliteActionKeys';
import { SqliteCalls } from './sqliteCalls';
import { SqliteChats } from './sqliteChats';
import { SqliteFollows } from './sqliteFollows';
import { OutboxWriter, SqliteOutbox } from './sqliteOutbox';
import { SqliteState } from './sqliteState';
import { WalCheckpointer } from './walCheckpointer';
import { logMarketOutcome } from './storeMarket';
import { RoomWatch, type StoreRoom } from './storeRoom';
import { roomGuarded, sqliteHasRoom } from './sqliteRoom';
import { silentLogger } from '../log';

export { StoreOpenError, type StoreOpenReason } from './openDatabase';

export class SqliteStore implements Store {
  readonly follows: SqliteFollows;
  readonly chats: SqliteChats;
  readonly state: SqliteState;
  readonly outbox: SqliteOutbox;
  readonly actionKeys: SqliteActionKeys;
  readonly calls: SqliteCalls;
  /** Whether the file has room to write (storeRoom.ts). */
  readonly room: StoreRoom;
  private closed = false;

  constructor(
    private readonly opened: OpenedDatabase,
    private readonly checkpointer: WalCheckpointer,
    room: RoomWatch,
  ) {
    const { db } = opened;
    this.room = room;
    const guard = <T extends object>(repository: T): T => roomGuarded(repository, room);
    this.follows = guard(new SqliteFollows(db));
    this.state = guard(new SqliteState(db, new OutboxWriter(db)));
    const settle = () => this.state.flush();
    // A chat that moves to another id takes its buttons' keys along: those waiting are written first.
    this.chats = guard(
      new SqliteChats(
        db,
        () => this.follows.forgetAll(),
        () => {
          settle();
          this.actionKeys.flush();
        },
      ),
    );
    this.outbox = guard(new SqliteOutbox(db, settle));
    this.actionKeys = guard(new SqliteActionKeys(db, (error) => room.refused(error)));
    this.calls = guard(new SqliteCalls(db, new OutboxWriter(db), settle));
  }

  /**
   * A consistent copy of the whole database at `destination`, taken while the store runs (SQLite's
   * online backup, through this connection). Commits go on
   * meanwhile; the copy is as of the moment it completes. Not part of the Store interface.
   */
  async backup(destination: string): Promise<void> {
    this.state.flush();
    this.actionKeys.flush();
    await this.opened.db.backup(destination);
  }

  /**
   * Writes the commits and the action keys still waiting, stops the checkpointer, then
   * closes: the WAL is checkpointed into the file and the lock released. Closing twice is harmless.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.state.flush();
    this.actionKeys.flush();
    await this.checkpointer.stop();
    this.opened.close();
  }
}

/** Opens (creating when missing) and migrates the database at `path`; `logger` hears of checkpoint trouble. */
export function openSqliteStore(path: string, options: OpenOptions & { logger?: Logger } = {}): SqliteStore {
  const opened = openDatabase(path, options);
  logMarketOutcome(options.logger, opened.market, path);
  const onProblem = (message: string) => options.logger?.warn({ path }, message);
  let checkpointer: WalCheckpointer;
  try {
    checkpointer = new WalCheckpointer(opened.db, path, { onProblem });
  } catch (error) {
    // No store to close it later: the file and its lock are let go here.
    opened.close();
    throw error;
  }
  const room = new RoomWatch({
    logger: options.logger ?? silentLogger,
    store: path,
    hasRoom: () => sqliteHasRoom(opened.db, path),
  });
  return new SqliteStore(opened, checkpointer, room);
}
