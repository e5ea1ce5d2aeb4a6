/**
 * Which database errors mean "no room to write" (a full disk), said as the store being unavailable
 * (`full`), and what the store makes of them: SQLite's SQLITE_FULL and SQLITE_IOERR_WRITE, and
 * PostgreSQL's class 53 but too many connections. PostgreSQL's are checked on its store's own
 * connection code with the driver's answer replaced (a server's disk cannot be filled here): a
 * statement asked now and one waited for both fail at once, the store's room says full, and the log
 * says so once a minute at most.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PgDatabase } from '../../src/store/postgres/pgDatabase';
import { NO_ROOM_HOLD_MS, RoomWatch } from '../../src/store/storeRoom';
import {
  isPostgresNoRoom,
  isStoreUnavailable,
  postgresNoRoom,
  sqliteNoRoom,
  StoreUnavailableError,
} from '../../src/store/storeUnavailable';
import { capturedLogger } from '../delivery/helpers';

function driverError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('a write refused for lack of room', () => {
  it('is SQLITE_FULL or SQLITE_IOERR_WRITE in SQLite, and nothing else', () => {
    const full = sqliteNoRoom(driverError('SQLITE_FULL', 'database or disk is full'));
    expect(full).toBeInstanceOf(StoreUnavailableError);
    expect(full).toMatchObject({ reason: 'full', code: 'SQLITE_FULL' });
    expect(full?.message).toBe('The database has no room to write right now (SQLITE_FULL: database or disk is full)');
    expect(sqliteNoRoom(driverError('SQLITE_IOERR_WRITE', 'disk I/O error'))).toMatchObject({ reason: 'full', code: 'SQLITE_IOERR_WRITE' });
    for (const code of ['SQLITE_BUSY', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CORRUPT', 'SQLITE_IOERR_READ', ''])
      expect(sqliteNoRoom(driverError(code, 'other'))).toBeNull();
    expect(sqliteNoRoom(new Error('no code'))).toBeNull();
  });

  it('is class 53 in PostgreSQL (disk full, out of memory, …) but 53300, too many connections', () => {
    for (const code of ['53000', '53100', '53200', '53400']) {
      expect(isPostgresNoRoom(code)).toBe(true);
      expect(postgresNoRoom(driverError(code, 'could not extend file'))).toMatchObject({ reason: 'full', code });
    }
    for (const code of ['53300', '57P01', '08006', '23505', '5310', '531000', '']) expect(isPostgresNoRoom(code)).toBe(false);
    expect(postgresNoRoom(driverError('23505', 'duplicate key'))).toBeNull();
  });

  it('leaves an error that already says so as it is', () => {
    const unreachable = new StoreUnavailableError('ECONNREFUSED');
    expect(unreachable.reason).toBe('unreachable');
    expect(sqliteNoRoom(unreachable)).toBe(unreachable);
    expect(postgresNoRoom(unreachable)).toBe(unreachable);
  });
});

describe("PostgreSQL's store on a server out of room", () => {
  let db: PgDatabase | null = null;

  afterEach(async () => {
    await db?.close();
    db = null;
  });

  it('fails statements at once as unavailable (full), says the store is full, logs it once', async () => {
    const { logger, lines } = capturedLogger();
    // No server: the pool's answer is replaced before anything connects.
    const opened = new PgDatabase({ url: 'postgres://tokenwatch:secret@127.0.0.1:9/tokenwatch', logger, outageWaitMs: 60_000 });
    db = opened;
    const refused = driverError('53100', 'could not extend file "base/16384/16402": No space left on device');
    let asked = 0;
    Object.assign(opened.pool, {
      query: async () => {
        asked += 1;
        throw refused;
      },
    });
    const now = await opened.query({ text: 'INSERT INTO outbox VALUES (1)' }).catch((error: unknown) => error);
    expect(isStoreUnavailable(now)).toBe(true);
    expect(now).toMatchObject({ reason: 'full', code: '53100' });
    // Waited for: not waited for at all, as it is no lost connection.
    const started = Date.now();
    const waited = await opened.durableQuery({ text: 'INSERT INTO outbox VALUES (2)' }).catch((error: unknown) => error);
    expect(waited).toMatchObject({ reason: 'full', code: '53100' });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(asked).toBe(2);
    expect(opened.available).toBe(true);
    expect(opened.room.full()).toMatchObject({ code: '53100', refused: 2 });
    const said = lines.filter((line) => String(line.msg).startsWith('the database has no room to write'));
    expect(said).toHaveLength(1);
    // The address without its password.
    expect(JSON.stringify(said)).not.toContain('secret');
  });
});

describe('the room of a store', () => {
  it('is full from a refusal until rows are written, or a minute passes without one and the disk shows room', () => {
    let now = 1_000_000;
    let disk = false;
    const { logger, lines } = capturedLogger();
    const room = new RoomWatch({ logger, store: 'test.db', hasRoom: () => disk, now: () => now });
    const refusal = new StoreUnavailableError('SQLITE_FULL: database or disk is full', 'full', 'SQLITE_FULL');
    expect(room.full()).toBeNull();
    room.refused(refusal);
    room.refused(refusal);
    expect(room.full()).toMatchObject({ since: new Date(1_000_000), code: 'SQLITE_FULL', refused: 2 });
    // Rows written: room again at once.
    now += 1_000;
    room.wrote();
    expect(room.full()).toBeNull();
    // Within the minute of the last line: counted, not said, and its end not said either.
    now += 1_000;
    room.refused(refusal);
    expect(room.full()).not.toBeNull();
    room.wrote();
    expect(lines.map((line) => line.msg)).toEqual([
      'the database has no room to write; alerts found meanwhile are found again and told once it has room (said once a minute at most)',
      'the database has room to write again',
    ]);
    // A minute after the last line: said, with the two refusals left out since.
    now += NO_ROOM_HOLD_MS;
    room.refused(refusal);
    expect(lines[2]).toMatchObject({ refusedSince: 2 });
    // No refusal for a minute, but the disk still full: full; then room on the disk: not.
    now += NO_ROOM_HOLD_MS;
    expect(room.full()).not.toBeNull();
    disk = true;
    expect(room.full()).toBeNull();
    expect(lines).toHaveLength(4);
  });
});
