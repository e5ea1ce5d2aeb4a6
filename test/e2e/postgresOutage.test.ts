/**
 * The whole bot on PostgreSQL while the server is away for longer than a commit waits for it
 * (`pg_ctl stop -m immediate`, as an operator stopped it), on a server of this file's own. Risk
 * changes are made just before the stop (their commits may be under way when it comes) and while
 * the server is away, and the market trades on meanwhile, so later frames of the same tokens are
 * compared while the first commits wait. When the server is back, every change is told once to
 * every chat, by the watcher's own asking of the service, without waiting for the next scheduled
 * reconciliation; a reconciliation after finds nothing more, and the move back is told too.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { RunningSimulator } from 'tmds-simulator';
import { RecordingSender, capturedLogger } from '../delivery/helpers';
import '../support/postgres/provided';
import { freshDatabase } from '../support/postgres/databases';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../support/postgres/throwaway';
import { chatRef, quietSimulator, startHarness, type Harness } from './harness';

const run = promisify(execFile);
/** A commit waits 20 s for a server that went away (src/store/postgres/pgDatabase.ts): the stop outlasts it. */
const AWAY = { timeout: 40_000, interval: 50 };
const WAIT = { timeout: 30_000, interval: 25 };
const COULD_NOT_COMMIT = /^could not commit alerts/;

const shared = inject('postgres');
let server: ThrowawayPostgres;
let sim: RunningSimulator;
let tokens: string[];

const chats = [chatRef('telegram', '-100222'), chatRef('discord', '666')];

/** `pg_ctl stop -m immediate`: the server's processes end at once, no client is told goodbye. */
async function stopImmediately(): Promise<void> {
  const binaries = shared.binaries;
  if (binaries === null) throw new Error('no PostgreSQL binaries');
  const args = ['-D', join(server.dir, 'data'), '-m', 'immediate', '-w', 'stop'];
  const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', binaries.pgCtl, ...args]] : [binaries.pgCtl, args];
  await run(file, argv);
}

function titlesIn(h: Harness, platform: 'telegram' | 'discord', chatId: string): string[] {
  const sender = h.senders.get(platform) as RecordingSender;
  return sender.sent.filter((s) => s.chat.chatId === chatId).map((s) => s.card.title);
}

describe.runIf(shared.binaries !== null)('the bot on PostgreSQL while the server is away longer than a commit waits', () => {
  beforeAll(async () => {
    if (shared.binaries === null) return;
    [server, sim] = await Promise.all([startThrowawayPostgres(shared.binaries), quietSimulator()]);
    const hostile = new Set(sim.market.hostileTokens());
    tokens = sim.market.tokenAddresses().filter((t) => !hostile.has(t) && sim.market.token(t)?.riskStatus !== 'DANGER');
  }, 60_000);

  afterAll(async () => {
    await sim?.close();
    await server?.stop();
  });

  it('changes made as it stops and while it is away, with later frames of the same tokens: each told once when it is back', async () => {
    const { logger, lines } = capturedLogger();
    const database = await freshDatabase(server.url());
    const h = await startHarness(sim, { DATABASE_URL: database.url }, { logger });
    try {
      // Five: more waiting for one chat would go out as a digest, and each alert is to be seen alone.
      const some = tokens.slice(0, 5);
      for (const token of some) for (const chat of chats) expect((await h.say(chat, `/track token ${token} risk`)).errorId).toBeNull();
      for (const token of some) await vi.waitFor(async () => expect(await h.app.store.state.token(token)).not.toBeNull(), WAIT);
      const symbol = (token: string): string => sim.market.token(token)?.symbol ?? '?';

      // Two changes just before the stop (their commits may be on their way), three while it is away.
      for (const token of some.slice(0, 2)) sim.controls.risk({ tokenAddress: token, riskStatus: 'DANGER' });
      await stopImmediately();
      const seen = h.app.watcher.status().processed;
      for (const token of some.slice(2)) sim.controls.risk({ tokenAddress: token, riskStatus: 'DANGER' });
      await vi.waitFor(() => expect(h.app.watcher.status().processed).toBeGreaterThanOrEqual(seen + 3), WAIT);
      // The market trades on: a later frame of each token, compared while the first commits wait.
      const traded = h.app.watcher.status().processed;
      const trader = sim.market.wallets()[0] ?? '';
      for (const token of some) sim.controls.trade({ tokenAddress: token, wallet: trader, side: 'buy', amountUSD: 50 });
      await vi.waitFor(() => expect(h.app.watcher.status().processed).toBeGreaterThanOrEqual(traded + some.length), WAIT);
      // The first commit gives up on the server (after 20 s): its changes are not in the store. Only
      // a change made before the stop may have been told already (its commit landed in time).
      await vi.waitFor(() => expect(lines.some((line) => COULD_NOT_COMMIT.test(String(line.msg)))).toBe(true), AWAY);
      const beforeStop = some.slice(0, 2).map((token) => symbol(token));
      for (const chat of chats)
        for (const title of titlesIn(h, chat.platform as 'telegram' | 'discord', chat.chatId))
          expect(beforeStop.some((name) => title.includes(`(${name})`))).toBe(true);

      await server.startServer();
      const back = Date.now();
      await vi.waitFor(() => {
        for (const chat of chats) expect(titlesIn(h, chat.platform as 'telegram' | 'discord', chat.chatId)).toHaveLength(some.length);
      }, WAIT);
      const toldAfterMs = Date.now() - back;
      console.info(`postgres away past a commit's wait: the ${some.length} changes told ${toldAfterMs} ms after the server was back`);

      // A reconciliation reads every token again: nothing more.
      await h.app.reconcile.runNow();
      await h.app.watcher.idle();
      await h.app.delivery.drain();
      for (const chat of chats) {
        const titles = titlesIn(h, chat.platform as 'telegram' | 'discord', chat.chatId);
        expect(titles).toHaveLength(some.length);
        for (const token of some)
          expect(titles.filter((title) => title.includes('DANGER') && title.includes(symbol(token)))).toHaveLength(1);
      }

      // The move back, with the server up: told once too.
      for (const token of some) sim.controls.risk({ tokenAddress: token, riskStatus: 'WARNING' });
      await vi.waitFor(() => {
        for (const chat of chats) expect(titlesIn(h, chat.platform as 'telegram' | 'discord', chat.chatId)).toHaveLength(2 * some.length);
      }, WAIT);
      for (const chat of chats) {
        const titles = titlesIn(h, chat.platform as 'telegram' | 'discord', chat.chatId);
        for (const token of some)
          expect(titles.filter((title) => title.includes('→ WARNING') && title.includes(symbol(token)))).toHaveLength(1);
      }
      expect((await h.app.store.outbox.pending()).count).toBe(0);
      for (const token of some) sim.controls.risk({ tokenAddress: token, riskStatus: null });
    } finally {
      await h.app.stop();
      // A test that failed while the server was away leaves it stopped: it is started for the drop.
      await server.startServer().catch(() => undefined);
      await database.drop();
    }
  }, 120_000);
});
