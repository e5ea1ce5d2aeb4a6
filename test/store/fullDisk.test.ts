/**
 * The SQLite store on a disk that fills (SQLite's own page limit, which fails a write exactly as a
 * full file system does: SQLITE_FULL): a commit that cannot be written fails as the store being
 * unavailable (`full`), whole, and the connection goes on: reads answer meanwhile, nothing already
 * written is lost, the same commit lands once there is room, and the file is whole after
 * (`PRAGMA integrity_check`). Card keys that cannot be written are dropped rather than failing
 * every later card. The room is said in the log once a minute at most, and once when it is back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AlertDelivery } from '../../src/model/follow';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { isStoreUnavailable, StoreUnavailableError } from '../../src/store/storeUnavailable';
import { capturedLogger } from '../delivery/helpers';
import { fillDisk, integrity } from '../support/fullDisk';
import { chat, newFollow, priceEvent, tempDir, tokenSnapshot } from './helpers';

const NO_ROOM =
  'the database has no room to write; alerts found meanwhile are found again and told once it has room (said once a minute at most)';
const ROOM = 'the database has room to write again';
const FAR = new Date(Date.UTC(2100, 0, 1));

let dir: ReturnType<typeof tempDir>;
let store: SqliteStore;
let lines: Array<Record<string, unknown>>;

beforeEach(() => {
  dir = tempDir();
  const captured = capturedLogger();
  lines = captured.lines;
  store = openSqliteStore(dir.path, { logger: captured.logger });
});

afterEach(async () => {
  await store.close();
  dir.cleanup();
});

/** Many chats: an alert's rows need pages of their own. */
const CHATS: AlertDelivery[] = Array.from({ length: 300 }, (_, index) => ({ chat: chat(String(1_000 + index)), label: null }));

/** A commit of one token's state with one alert to every chat of CHATS. */
function commit(token: string, key: string, at: number): Promise<number> {
  return store.state.commitMany(
    { tokens: [{ snapshot: tokenSnapshot(token, at), alerts: [{ event: priceEvent(token, key), to: CHATS }] }], wallets: [] },
    new Date(at),
  );
}

async function refusal(run: Promise<unknown>): Promise<StoreUnavailableError> {
  const error: unknown = await run.then(
    () => null,
    (failure: unknown) => failure,
  );
  if (!isStoreUnavailable(error)) throw new Error(`expected the store to be unavailable, got ${String(error)}`);
  return error;
}

describe('a SQLite store whose disk is full', () => {
  it('fails the commit as unavailable (full), keeps what was written, answers reads, and writes it once there is room', async () => {
    await store.follows.upsert(newFollow(chat('1'), 'TokenA'));
    expect(await commit('TokenA', 'price:TokenA:1', 1_700_000_000_000)).toBe(CHATS.length);
    const disk = fillDisk(store);

    const error = await refusal(commit('TokenB', 'price:TokenB:1', 1_700_000_001_000));
    expect(error.reason).toBe('full');
    expect(error.code).toBe('SQLITE_FULL');
    expect(store.room.full()).toMatchObject({ code: 'SQLITE_FULL', refused: 1 });
    // All or nothing: neither the state nor a row of the refused commit.
    expect(await store.state.token('TokenB')).toBeNull();
    // Reads go on, and what was written is there.
    expect((await store.state.token('TokenA'))?.seenAt).toBe(1_700_000_000_000);
    expect(await store.outbox.due('telegram', FAR, 1_000)).toHaveLength(CHATS.length);
    expect((await store.follows.totals()).follows).toBe(1);

    // Refused again and again: said once.
    for (let round = 2; round < 6; round++) await refusal(commit('TokenB', `price:TokenB:${round}`, 1_700_000_001_000 + round));
    expect(lines.filter((line) => line.msg === NO_ROOM)).toHaveLength(1);
    expect(store.room.full()?.refused).toBe(5);

    // Room again: the same commit lands, once, on a connection that was never given up.
    disk.room();
    expect(await commit('TokenB', 'price:TokenB:1', 1_700_000_002_000)).toBe(CHATS.length);
    expect(await commit('TokenB', 'price:TokenB:1', 1_700_000_002_000)).toBe(0);
    expect(store.room.full()).toBeNull();
    expect(lines.filter((line) => line.msg === ROOM)).toHaveLength(1);
    expect(await store.outbox.due('telegram', FAR, 1_000)).toHaveLength(2 * CHATS.length);
    expect(integrity(store)).toEqual(['ok']);
  });

  it('says so for other writes too: a follow, the group commits', async () => {
    // Full to the last page: any new row needs one.
    expect(await commit('TokenA', 'price:TokenA:1', 1_700_000_000_000)).toBe(CHATS.length);
    fillDisk(store);
    const follows = Array.from({ length: 200 }, (_, index) =>
      store.follows.upsert(newFollow(chat(String(index)), `Token${index}`, { label: 'x'.repeat(200) })),
    );
    const outcomes = await Promise.allSettled(follows);
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    for (const outcome of refused) expect(isStoreUnavailable(outcome.reason)).toBe(true);
    const single = await refusal(
      store.state.commitToken(tokenSnapshot('TokenC'), [{ event: priceEvent('TokenC', 'price:TokenC:1'), to: CHATS }], new Date()),
    );
    expect(single.reason).toBe('full');
    expect(integrity(store)).toEqual(['ok']);
  });

  it('drops card keys it cannot write, so that later cards are still issued; a prune waits for room', async () => {
    expect(await commit('TokenA', 'price:TokenA:1', 1_700_000_000_000)).toBe(CHATS.length);
    const disk = fillDisk(store);
    const actions = Array.from({ length: 40 }, (_, index) => ({ command: 'token', args: [`Token${index}`, 'y'.repeat(300)] }));
    const expires = new Date(Date.now() + 3_600_000);
    const first = await store.actionKeys.issueAll(actions, chat('1'), expires);
    expect(first).toHaveLength(actions.length);
    // The next card writes the first's keys first: no room for them, and it is issued all the same.
    const second = await store.actionKeys.issueAll(actions, chat('1'), expires);
    expect(second).toHaveLength(actions.length);
    expect((await store.actionKeys.resolve(first[0] ?? '', chat('1'), new Date())).status).toBe('unknown');
    expect(await store.actionKeys.prune(new Date())).toBeGreaterThanOrEqual(0);
    expect(store.room.full()).not.toBeNull();
    disk.room();
    const third = await store.actionKeys.issueAll(actions.slice(0, 1), chat('1'), expires);
    const resolved = await store.actionKeys.resolve(third[0] ?? '', chat('1'), new Date());
    expect(resolved.status).toBe('ok');
    expect(integrity(store)).toEqual(['ok']);
  });
});
