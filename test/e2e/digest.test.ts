/**
 * The daily watchlist end to end, with a real store (SQLite, and PostgreSQL when the run's server
 * started), the simulator and its controls, and an injected clock: /digest sets, shows and stops it
 * with one schedule per distinct time and zone; at its time in its zone the chat gets one card with
 * its tokens by 24h change and its wallets' trades of the day; asked again, or after a restart on
 * the same day, it is not sent twice; a digest a stopped bot missed is sent at the next start.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import { createDailyDigests } from '../../src/jobs/dailyDigest';
import type { RunningSimulator } from 'tmds-simulator';
import { wallClock } from '../../src/text/zonedTime';
import { RecordingSender } from '../delivery/helpers';
import { STORE_KINDS, type StoreHome } from '../store/support/stores';
import { KEY, chatRef, quietSimulator, startHarness, type Harness } from './harness';
import { usd } from '../../src/text/format';

const WSOL = 'So11111111111111111111111111111111111111112';

const WAIT = { timeout: 10_000, interval: 25 };
const ZONE = 'Asia/Kolkata';

const tgA = chatRef('telegram', '-100111');
const tgB = chatRef('telegram', '-100222');

let sim: RunningSimulator;
let h: Harness;
let tokens: string[];
let wallets: string[];

function digestsSent(harness: Harness, chatId: string): Card[] {
  return (harness.senders.get('telegram') as RecordingSender).sent
    .filter((s) => s.chat.chatId === chatId && s.card.title.startsWith('Daily watchlist ·'))
    .map((s) => s.card);
}

/** "HH:MM" of an instant in ZONE. */
function hhmm(instant: number): string {
  const { minutes } = wallClock(instant, ZONE);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

describe.each(STORE_KINDS)('the daily watchlist (%s store)', (_kind, makeHome) => {
  let db: StoreHome;

  beforeAll(async () => {
    sim = await quietSimulator();
    const hostile = new Set(sim.market.hostileTokens());
    tokens = sim.market.tokenAddresses().filter((t) => !hostile.has(t));
    wallets = sim.market.wallets();
  });
  afterAll(async () => {
    await sim.close();
  });
  beforeEach(async () => {
    db = await makeHome();
    h = await startHarness(sim, db.env);
  });
  afterEach(async () => {
    await h.app.stop();
    await db.remove();
  });

  it('/digest sets, shows and stops it, for managers, with one schedule per distinct time and zone', async () => {
    const set = await h.say(tgA, '/digest daily 9:30 Europe/Paris');
    expect(set.card.title).toBe('Daily watchlist set');
    expect(plainText(set.card.fields[0]?.value ?? [])).toBe('every day at 09:30 (Europe/Paris)');
    await h.say(tgB, '/digest daily 09:30 Europe/Paris');
    expect((await h.app.store.chats.settings(tgA)).digest).toMatchObject({ time: '09:30', zone: 'Europe/Paris' });
    expect(h.app.digests.schedules()).toEqual(['09:30 Europe/Paris']);
    await h.say(tgB, '/digest daily 18:00');
    expect(h.app.digests.schedules()).toEqual(['09:30 Europe/Paris', '18:00 UTC']);
    expect(plainText((await h.say(tgB, '/digest')).card.fields[0]?.value ?? [])).toBe('every day at 18:00 (UTC)');

    expect((await h.say(tgA, '/digest daily 09:30 Mars/Olympus')).card.title).toBe('/digest: "Mars/Olympus" is not a time zone');
    expect((await h.say(tgA, '/digest daily 25:00')).card.title).toBe('/digest: time must be a time of day such as 09:00, not "25:00"');
    const member = await h.app.dispatcher.runLine('/digest off', { chat: tgA, userId: 'member', isManager: async () => false });
    expect(member?.ephemeral).toBe(true);
    expect((await h.app.store.chats.settings(tgA)).digest).not.toBeNull();

    expect((await h.say(tgA, '/digest off')).card.title).toBe('Daily watchlist off');
    expect((await h.app.store.chats.settings(tgA)).digest).toBeUndefined();
    expect(h.app.digests.schedules()).toEqual(['18:00 UTC']);
  });

  it('sends one card at its time in its zone, by 24h change with the wallets’ trades of the day; never twice, and late after a restart that missed it', async () => {
    const [T1, T2, T3] = tokens.slice(20, 23) as [string, string, string];
    const W = wallets[3] as string;
    for (const token of [T1, T2, T3]) expect((await h.say(tgA, `/track token ${token}`)).errorId).toBeNull();
    expect((await h.say(tgA, `/track wallet ${W} trader`)).errorId).toBeNull();
    // The day's news: one token up, one down; the wallet buys twice and sells once.
    sim.controls.price({ tokenAddress: T1, changePct: 60 });
    sim.controls.price({ tokenAddress: T3, changePct: -50 });
    sim.controls.trade({ wallet: W, tokenAddress: T2, side: 'buy', amountUSD: 300 });
    sim.controls.trade({ wallet: W, tokenAddress: T2, side: 'buy', amountUSD: 200 });
    sim.controls.trade({ wallet: W, tokenAddress: T2, side: 'sell', amountUSD: 100 });

    // Its time: this minute, in ZONE (the clock reads now, after the trades); set a minute before it.
    const now = Date.now();
    const at = Math.floor(now / 60_000) * 60_000;
    await h.app.store.chats.updateSettings(tgA, {
      digest: { time: hhmm(at), zone: ZONE, threadId: null, scopeId: null, since: at - 60_000 },
    });
    let clock = at - 1;
    const digests = createDailyDigests({
      store: h.app.store,
      market: h.app.market,
      now: () => new Date(clock),
      onWritten: () => h.app.delivery.notify(),
    });
    await digests.start();
    expect(digests.schedules()).toEqual([`${hhmm(at)} ${ZONE}`]);
    // Just before: yesterday's came before the setting, today's has not come.
    expect(await digests.runDue()).toBe(0);

    clock = now;
    expect(await digests.runDue()).toBe(1);
    await vi.waitFor(() => expect(digestsSent(h, tgA.chatId)).toHaveLength(1), WAIT);
    const card = digestsSent(h, tgA.chatId)[0] as Card;
    expect(card.title).toBe(`Daily watchlist · ${wallClock(at, ZONE).day}`);
    const lines = plainText(card.fields.find((f) => f.name === 'Tokens by 24h change')?.value ?? []).split('\n');
    expect(lines).toHaveLength(3);
    // Each a 24h change, highest first, or the age of a token younger than a day, after them.
    const changes = lines.map((line) => /^.+ ([+−]?[\d.]+)% · /.exec(line)?.[1] ?? null);
    const known = changes.filter((change) => change !== null).map((change) => Number(change.replace('−', '-')));
    expect([...known].sort((a, b) => b - a)).toEqual(known);
    expect(known.length).toBeGreaterThanOrEqual(2);
    for (const line of lines.slice(known.length)) expect(line).toMatch(/ new, .+ old · /);
    for (const line of lines) expect(line).toMatch(/ · \$[\d.,₀-₉]+[KMB]? · vol .+ · liq .+ · (SAFE|WARNING|DANGER)$/);
    // The wallet's trades of the 24 hours to the clock, as the service lists them (ours among them).
    const response = await fetch(`${sim.baseUrl}/api/wallet-tracker?wallets=${W}`, { headers: { 'x-api-key': KEY } });
    const listed = ((await response.json()) as { tradeHistory: Array<{ timestamp: number; tokenIn: string; amountUSD: string }> })
      .tradeHistory;
    const day = listed.filter((trade) => trade.timestamp * 1000 >= now - 86_400_000 && trade.timestamp * 1000 <= now);
    const buys = day.filter((trade) => trade.tokenIn === WSOL).length;
    const total = day.reduce((sum, trade) => sum + Number(trade.amountUSD), 0);
    expect(buys).toBeGreaterThanOrEqual(2);
    expect(plainText(card.fields.find((f) => f.name === 'Wallet trades in the day')?.value ?? [])).toBe(
      `trader (${W.slice(0, 4)}…${W.slice(-4)}): ${buys} buys, ${day.length - buys} sell${day.length - buys === 1 ? '' : 's'}, ${usd(total)}`,
    );
    expect(plainText(card.fields.find((f) => f.name === 'Wallets in all')?.value ?? [])).toBe(`${day.length} trades, ${usd(total)}`);

    // Asked again the same day: nothing more.
    clock = now + 60 * 60_000;
    expect(await digests.runDue()).toBe(0);
    await digests.stop();

    // A second chat's digest came due two minutes before, while the bot was stopped; then a restart the same day.
    await h.app.store.chats.updateSettings(tgB, {
      digest: { time: hhmm(at - 2 * 60_000), zone: ZONE, threadId: null, scopeId: null, since: at - 60 * 60_000 },
    });
    await h.app.stop();
    h = await startHarness(sim, db.env);
    clock = Date.now();
    const again = createDailyDigests({
      store: h.app.store,
      market: h.app.market,
      now: () => new Date(clock),
      onWritten: () => h.app.delivery.notify(),
    });
    await again.start();
    // The start's own run sent tgB's missed digest, and not tgA's again: nothing is left to send.
    expect(await again.runDue()).toBe(0);
    await vi.waitFor(() => expect(digestsSent(h, tgB.chatId)).toHaveLength(1), WAIT);
    await h.app.delivery.drain();
    expect(digestsSent(h, tgA.chatId)).toEqual([]);
    const key = `daily-digest:telegram:${tgA.chatId}:${wallClock(at, ZONE).day}`;
    expect(await h.app.store.outbox.known([key])).toEqual(new Set([key]));
    await again.stop();
  });
});
