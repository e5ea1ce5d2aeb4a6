/**
 * Whether the store has room to write: what `/readyz` and `/status` say of a full disk. The store
 * counts as full from a write refused for lack of room (StoreUnavailableError, reason `full`) until
 * a write that adds rows lands (an alert's commit), or until a minute passes with no refusal and
 * the disk shows room again (`hasRoom`: SQLite's file system and page limit; PostgreSQL's server
 * cannot be asked, so there the minute alone). The log hears of it at most once a minute, with the
 * refusals left out since, and once when it has room again.
 */
import type { Logger } from '../log';
import type { StoreUnavailableError } from './storeUnavailable';

/** A store with no room to write: since when, the code of the refusal (`SQLITE_FULL`, `53100`), and how often since. */
export interface NoRoom {
  since: Date;
  code: string;
  /** The latest refusal. */
  last: Date;
  /** Writes refused since `since`. */
  refused: number;
}

export interface StoreRoom {
  /** Null while the store writes; otherwise since when it has had no room. */
  full(): NoRoom | null;
}

/** A store counts as full for at least this long after a refusal, unless a write that adds rows lands. */
export const NO_ROOM_HOLD_MS = 60_000;

export interface RoomWatchOptions {
  logger: Logger;
  /** What the log lines name: the file's path, or the address without its password. */
  store: string;
  /** Whether the disk shows room now; absent: it cannot be asked. */
  hasRoom?: () => boolean;
  now?: () => number;
}

export class RoomWatch implements StoreRoom {
  private condition: NoRoom | null = null;
  private lastLine = Number.NEGATIVE_INFINITY;
  /** Whether the line for the present condition was logged (then its end is logged too). */
  private said = false;
  private leftOut = 0;
  private readonly now: () => number;

  constructor(private readonly options: RoomWatchOptions) {
    this.now = options.now ?? Date.now;
  }

  /** A write was refused for lack of room. */
  refused(error: StoreUnavailableError): void {
    const at = new Date(this.now());
    if (this.condition === null) {
      this.condition = { since: at, code: error.code, last: at, refused: 1 };
      this.said = false;
    } else {
      this.condition.last = at;
      this.condition.refused += 1;
      this.condition.code = error.code;
    }
    if (at.getTime() - this.lastLine < NO_ROOM_HOLD_MS) {
      this.leftOut += 1;
      return;
    }
    this.lastLine = at.getTime();
    this.said = true;
    this.options.logger.warn(
      { store: this.options.store, reason: error.detail, refusedSince: this.leftOut },
      'the database has no room to write; alerts found meanwhile are found again and told once it has room (said once a minute at most)',
    );
    this.leftOut = 0;
  }

  /** A write that adds rows landed: there is room. */
  wrote(): void {
    if (this.condition !== null) this.end();
  }

  full(): NoRoom | null {
    const condition = this.condition;
    if (condition === null) return null;
    if (this.now() - condition.last.getTime() < NO_ROOM_HOLD_MS) return condition;
    const hasRoom = this.options.hasRoom;
    if (hasRoom !== undefined && !hasRoom()) return condition;
    this.end();
    return null;
  }

  private end(): void {
    const condition = this.condition;
    this.condition = null;
    if (condition === null || !this.said) return;
    this.options.logger.info(
      { store: this.options.store, fullMs: this.now() - condition.since.getTime(), refused: condition.refused },
      'the database has room to write again',
    );
  }
}
