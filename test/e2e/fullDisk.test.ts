/**
 * The whole bot on SQLite while its disk is full (SQLite's own page limit, which fails a write as
 * a full file system does: SQLITE_FULL). A token followed in many chats changes risk: the commit
 * that would write its alerts is refused, the bot stays up and answers look-ups, `/readyz` and
 * `/status` say the store is full, and the log says it once; when there is room again the change
 * is found again (the watcher asks the service by itself) and told once to every chat, nothing
 * written before is lost, and the file is whole (`PRAGMA integrity_check`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunningSimulator } from 'tmds-simulator';
import { plainText } from '../../src/cards/card';
import type { SqliteStore } from '../../src/store/sqliteStore';
import { capturedLogger, RecordingSender } from '../delivery/helpers';
import { fillDisk, integrity } from '../support/fullDisk';
import { chatRef, quietSimulator, startHarness, type Harness } from './harness';

const WAIT = { timeout: 30_000, interval: 25 };
const NO_ROOM = /^the database has no room to write/;
const COULD_NOT_COMMIT = /^could not commit alerts/;
/** Chats enough that the change's outbox rows need pages the full disk has not got. */
const MANY = 300;

let sim: RunningSimulator;
let h: Harness;
let dir: string;
let lines: Array<Record<string, unknown>>;

const chats = [chatRef('telegram', '-100333'), chatRef('discord', '777')];

beforeEach(async () => {
  sim = await quietSimulator();
  dir = mkdtempSync(join(tmpdir(), 'tokenwatch-full-'));
  const captured = capturedLogger();
  lines = captured.lines;
  h = await startHarness(sim, join(dir, 'bot.db'), { http: true, logger: captured.logger });
});

afterEach(async () => {
  await h.app.stop();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

async function readyz(): Promise<{ status: number; body: { ready: boolean; notReady: string[]; checks: { store: { reason?: string } } } }> {
  const ops = h.app.ops;
  if (ops === null) throw new Error('the operators’ server did not start');
  const response = await fetch(`${ops.address}/readyz`);
  return { status: response.status, body: (await response.json()) as never };
}

function sentTo(platform: 'telegram' | 'discord', chatId: string): string[] {
  return (h.senders.get(platform) as RecordingSender).titlesFor(chatId);
}

const allSent = (): number => [...h.senders.values()].reduce((sum, sender) => sum + sender.sent.length, 0);

describe('the bot on SQLite with its disk full', () => {
  it('refuses the commit as a full store, says so, answers look-ups, and tells the change once when there is room', async () => {
    const store = h.app.store as SqliteStore;
    const hostile = new Set(sim.market.hostileTokens());
    const token = sim.market.tokenAddresses().find((t) => !hostile.has(t) && sim.market.token(t)?.riskStatus !== 'DANGER') ?? '';
    const symbol = sim.market.token(token)?.symbol ?? '?';
    const options = { events: ['risk-status'], minUsd: 0, thresholdPct: 10, side: 'both' } as const;
    for (let index = 0; index < MANY; index++)
      await store.follows.upsert({
        chat: chatRef('telegram', String(-1_000_000 - index)),
        kind: 'token',
        address: token,
        label: null,
        options: { ...options, events: [...options.events] },
        addedBy: 'tester',
        now: new Date(),
      });
    for (const chat of chats) expect((await h.say(chat, `/track token ${token} risk`)).errorId).toBeNull();
    await vi.waitFor(async () => expect(await store.state.token(token)).not.toBeNull(), WAIT);
    const follows = (await store.follows.totals()).follows;
    expect(follows).toBe(MANY + chats.length);
    expect((await readyz()).status).toBe(200);

    const disk = fillDisk(store);
    const processed = h.app.watcher.status().processed;
    sim.controls.risk({ tokenAddress: token, riskStatus: 'DANGER' });
    await vi.waitFor(() => expect(store.room.full()).not.toBeNull(), WAIT);
    expect(h.app.watcher.status().processed).toBeGreaterThan(processed);
    // The market trades on, and the watcher asks the service again: more commits refused.
    const trader = sim.market.wallets()[0] ?? '';
    for (let round = 0; round < 3; round++) sim.controls.trade({ tokenAddress: token, wallet: trader, side: 'buy', amountUSD: 50 });
    await vi.waitFor(() => expect(store.room.full()?.refused).toBeGreaterThanOrEqual(2), WAIT);

    // It says so: /readyz and /status.
    const notReady = await readyz();
    expect(notReady.status).toBe(503);
    expect(notReady.body.notReady).toContain('store');
    expect(notReady.body.checks.store.reason).toMatch(/^the store is full: .*\(SQLITE_FULL\) since /);
    const status = await h.say(chats[0]!, '/status');
    const full = status.card.fields.find((field) => field.name === 'Store full');
    expect(plainText(full?.value ?? [])).toContain('no room to write');
    // Look-ups answer, their buttons too (keys that cannot be written are dropped).
    for (let round = 0; round < 2; round++) {
      const card = await h.say(chats[0]!, `/token ${token}`);
      expect(card.errorId).toBeNull();
      expect(card.card.title).toContain(symbol);
      expect(card.buttons.length).toBeGreaterThan(0);
    }
    // Nothing told yet, and said once.
    expect(allSent()).toBe(0);
    expect(lines.filter((line) => NO_ROOM.test(String(line.msg)))).toHaveLength(1);
    expect(lines.filter((line) => COULD_NOT_COMMIT.test(String(line.msg)))).toHaveLength(1);

    // Room again: found again by the watcher's own asking of the service, told once to every chat.
    disk.room();
    const back = Date.now();
    await vi.waitFor(() => {
      for (const chat of chats) expect(sentTo(chat.platform as 'telegram' | 'discord', chat.chatId)).toHaveLength(1);
    }, WAIT);
    console.info(`full disk: the change told ${Date.now() - back} ms after there was room`);
    await vi.waitFor(() => expect(allSent()).toBe(MANY + chats.length), WAIT);
    await h.app.reconcile.runNow();
    await h.app.watcher.idle();
    await h.app.delivery.drain();
    expect(allSent()).toBe(MANY + chats.length);
    for (const chat of chats) expect(sentTo(chat.platform as 'telegram' | 'discord', chat.chatId)[0]).toContain('→ DANGER');
    expect((await store.outbox.pending()).count).toBe(0);

    // Nothing written before is lost, and the file is whole; the store writes, and says so.
    expect((await store.follows.totals()).follows).toBe(follows);
    expect((await store.state.token(token))?.riskStatus).toBe('DANGER');
    expect(integrity(store)).toEqual(['ok']);
    expect(store.room.full()).toBeNull();
    expect((await readyz()).status).toBe(200);
    expect((await h.say(chats[0]!, '/status')).card.fields.some((field) => field.name === 'Store full')).toBe(false);
    sim.controls.risk({ tokenAddress: token, riskStatus: null });
  }, 90_000);
});
