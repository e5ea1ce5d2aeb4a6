/**
 * The whole bot on PostgreSQL while the server goes away, on a server of this file's own (the run's
 * shared one serves other files at the same time): restarted with `pg_ctl restart -m fast` while
 * alerts flow, nothing is lost and nothing doubled; stopped for a while, commands answer "try
 * again", what the watcher finds meanwhile is committed when the server is back and alerts once,
 * and the log says once that the connection went and once that it came back.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { plainText } from '../../src/cards/card';
import type { RunningSimulator } from 'tmds-simulator';
import { RecordingSender, capturedLogger } from '../delivery/helpers';
import '../support/postgres/provided';
import { freshDatabase } from '../support/postgres/databases';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../support/postgres/throwaway';
import { chatRef, quietSimulator, startHarness, type Harness } from './harness';

const WAIT = { timeout: 20_000, interval: 25 };
const LOST = 'database connection lost; commands answer "try again" and commits wait until it is back';
const BACK = 'database connection back';

const shared = inject('postgres');
let server: ThrowawayPostgres;
let sim: RunningSimulator;
let tokens: string[];
let h: Harness;
let dropDatabase: () => Promise<void>;
let lines: Array<Record<string, unknown>>;

const chats = [chatRef('telegram', '-100111'), chatRef('discord', '555')];

function alertsIn(platform: 'telegram' | 'discord', chatId: string): string[] {
  const sender = h.senders.get(platform) as RecordingSender;
  return sender.sent.filter((s) => s.chat.chatId === chatId).map((s) => s.card.title);
}

function flip(token: string): string {
  const to = sim.market.token(token)?.riskStatus === 'DANGER' ? 'WARNING' : 'DANGER';
  sim.controls.risk({ tokenAddress: token, riskStatus: to });
  return to;
}

async function trackAndBaseline(some: readonly string[]): Promise<void> {
  for (const token of some) for (const chat of chats) expect((await h.say(chat, `/track token ${token} risk`)).errorId).toBeNull();
  for (const token of some) await vi.waitFor(async () => expect(await h.app.store.state.token(token)).not.toBeNull(), WAIT);
}

describe.runIf(shared.binaries !== null)('the bot on PostgreSQL while the server goes away', () => {
  beforeAll(async () => {
    if (shared.binaries === null) return;
    [server, sim] = await Promise.all([startThrowawayPostgres(shared.binaries), quietSimulator()]);
    const hostile = new Set(sim.market.hostileTokens());
    tokens = sim.market.tokenAddresses().filter((t) => !hostile.has(t));
  }, 60_000);

  afterAll(async () => {
    await sim?.close();
    await server?.stop();
  });

  beforeEach(async () => {
    const captured = capturedLogger();
    lines = captured.lines;
    const database = await freshDatabase(server.url());
    dropDatabase = database.drop;
    h = await startHarness(sim, { DATABASE_URL: database.url }, { logger: captured.logger });
  });

  afterEach(async () => {
    await h.app.stop();
    await dropDatabase();
  });

  it('restarted while alerts flow: every change alerts every chat once, none twice', { timeout: 40_000 }, async () => {
    // Five: more waiting for one chat would go out as a digest, and each alert is to be seen alone.
    const some = tokens.slice(0, 5);
    await trackAndBaseline(some);
    const restarting = server.restart();
    // Changes before, during and after the restart, each seen by the stream.
    const changed = some.map((token) => flip(token));
    await restarting;
    await vi.waitFor(() => {
      for (const chat of chats) expect(alertsIn(chat.platform as 'telegram' | 'discord', chat.chatId)).toHaveLength(some.length);
    }, WAIT);
    // The reconciliation reads every token again: the same changes, no second alert.
    await h.app.reconcile.runNow();
    await h.app.watcher.idle();
    await h.app.delivery.drain();
    for (const chat of chats) {
      const titles = alertsIn(chat.platform as 'telegram' | 'discord', chat.chatId);
      expect(titles).toHaveLength(some.length);
      expect(new Set(titles).size).toBe(some.length);
      some.forEach((token, index) =>
        expect(
          titles.some((title) => title.includes(String(changed[index])) && title.includes(sim.market.token(token)?.symbol ?? '?')),
        ).toBe(true),
      );
    }
    expect((await h.app.store.outbox.pending()).count).toBe(0);
    // A connection the restart ended may be met only now, by a statement after the others came
    // back: its own "lost" line, and the "back" line its probe writes a moment later.
    await vi.waitFor(
      () => expect(lines.filter((line) => line.msg === LOST).length).toBe(lines.filter((line) => line.msg === BACK).length),
      WAIT,
    );
    for (const token of some) sim.controls.risk({ tokenAddress: token, riskStatus: null });
  });

  it('stopped for a while: commands answer "try again", a change found meanwhile alerts once when it is back, one log line each way', async () => {
    const [token] = tokens.slice(5, 6) as [string];
    await trackAndBaseline([token]);
    await server.stopServer();
    const reply = await h.say(chats[0]!, '/following');
    expect(reply.card.title).toBe('Try again in a moment');
    expect(plainText(reply.card.description ?? [])).toContain('database cannot be reached right now; try again in a moment');
    expect(reply.errorId).toBeNull();
    // The watcher finds the change while the server is away; its commit waits.
    const processed = h.app.watcher.status().processed;
    const to = flip(token);
    await vi.waitFor(() => expect(h.app.watcher.status().processed).toBeGreaterThan(processed), WAIT);
    expect(alertsIn('telegram', chats[0]!.chatId)).toEqual([]);
    await server.startServer();
    await vi.waitFor(() => {
      for (const chat of chats) expect(alertsIn(chat.platform as 'telegram' | 'discord', chat.chatId)).toHaveLength(1);
    }, WAIT);
    expect(alertsIn('telegram', chats[0]!.chatId)[0]).toContain(to);
    await vi.waitFor(() => expect(lines.filter((line) => line.msg === BACK)).toHaveLength(1), WAIT);
    expect(lines.filter((line) => line.msg === LOST)).toHaveLength(1);
    expect((await h.say(chats[0]!, '/following')).card.title).toBe('Followed in this chat: 1');
    sim.controls.risk({ tokenAddress: token, riskStatus: null });
  });
});
