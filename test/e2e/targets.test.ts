/**
 * Targets end to end, with the simulator's controls, a real store (SQLite, and PostgreSQL when the
 * run's server started) and real sockets: a target crossed over the stream, and one crossed while
 * every socket was down (found by the stream's snapshot on reconnecting and by the reconciliation,
 * which must agree on one alert); each tells its chat exactly once and is then done.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import { tokenValue } from '../../src/query/tokenValue';
import type { RunningSimulator } from 'tmds-simulator';
import { RecordingSender } from '../delivery/helpers';
import { STORE_KINDS, type StoreHome } from '../store/support/stores';
import { chatRef, quietSimulator, startHarness, type Harness } from './harness';

const WAIT = { timeout: 10_000, interval: 25 };

function cardText(card: Card): string {
  return [card.title, plainText(card.description ?? []), ...card.fields.map((f) => `${f.name} ${plainText(f.value)}`)].join('\n');
}

let sim: RunningSimulator;
let h: Harness;
let tokens: string[];

const tgA = chatRef('telegram', '-100111');
const tgB = chatRef('telegram', '-100222');

function sent(chatId: string): string[] {
  const sender = h.senders.get('telegram') as RecordingSender;
  return sender.sent.filter((s) => s.chat.chatId === chatId).map((s) => cardText(s.card));
}

async function settle(): Promise<void> {
  await h.app.watcher.idle();
  await h.app.delivery.drain();
}

/** The token's USD price and market cap now, as /target reads them. */
async function valueOf(token: string): Promise<{ price: number; mcap: number }> {
  const value = await tokenValue(h.app.market, token);
  if (value.priceUsd === null || value.marketCapUsd === null) throw new Error('no USD value');
  return { price: value.priceUsd, mcap: value.marketCapUsd };
}

describe.each(STORE_KINDS)('targets end to end (%s store)', (_kind, makeHome) => {
  let db: StoreHome;

  beforeAll(async () => {
    sim = await quietSimulator();
    const hostile = new Set(sim.market.hostileTokens());
    tokens = sim.market.tokenAddresses().filter((t) => !hostile.has(t));
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

  it('a target crossed over the stream tells its chat once, then is done; a /track of the token elsewhere gets its own alert', async () => {
    const T = tokens[10] as string;
    const { price } = await valueOf(T);
    const level = (price * 1.2).toFixed(14);
    const set = await h.say(tgA, `/target ${T} price above ${level}`);
    expect(set.errorId).toBeNull();
    expect(set.card.title).toMatch(/^Target set: .+ price above \$/);
    await h.say(tgB, `/track token ${T} price 10`);
    expect(plainText((await h.say(tgA, '/targets')).card.fields[0]?.value ?? [])).toContain(T);
    // Named by its symbol beside the short address once the watcher has seen the token, by the short address before.
    const listed = (await h.say(tgA, '/following')).card.fields.map((field) => field.name);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatch(new RegExp(`^target: (.+ · )?${T.slice(0, 4)}…${T.slice(-4)}$`));
    await vi.waitFor(async () => expect(await h.app.store.state.token(T)).not.toBeNull(), WAIT);

    sim.controls.price({ tokenAddress: T, changePct: 40 });
    await vi.waitFor(() => expect(sent(tgA.chatId).filter((text) => text.startsWith('Target reached'))).toHaveLength(1), WAIT);
    // The target is done: removed from the store, and /targets says so.
    await vi.waitFor(async () => expect(await h.app.store.follows.targetsOf(tgA)).toEqual([]), WAIT);
    expect((await h.say(tgA, '/targets')).card.title).toBe('No targets here');
    // The reconciliation reads the same crossing: no second alert.
    await h.app.reconcile.runNow();
    await settle();
    const told = sent(tgA.chatId);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/price above \$/);
    expect(told[0]).toContain('This target is done');
    // The chat that tracks the token hears of the move, and of no target.
    expect(sent(tgB.chatId).filter((text) => text.startsWith('Price up'))).toHaveLength(1);
    expect(sent(tgB.chatId).filter((text) => text.startsWith('Target'))).toEqual([]);
  });

  it('a target crossed while every socket was down tells its chat once, then is done', async () => {
    const T = tokens[11] as string;
    const { mcap } = await valueOf(T);
    const level = (mcap * 0.8).toFixed(2);
    expect((await h.say(tgA, `/target ${T} mcap below ${level}`)).errorId).toBeNull();
    await vi.waitFor(async () => expect(await h.app.store.state.token(T)).not.toBeNull(), WAIT);

    sim.controls.drop();
    sim.controls.price({ tokenAddress: T, changePct: -40 });
    // The reconciliation reads the crossing over REST; the stream, back, sends the same state.
    await h.app.reconcile.runNow();
    await settle();
    await vi.waitFor(async () => expect(await h.app.store.follows.targetsOf(tgA)).toEqual([]), WAIT);
    // Done: the watcher lets the token go (nothing else follows it), and a later reading tells nothing.
    await vi.waitFor(() => expect(h.app.watcher.targets().tokens).not.toContain(T), WAIT);
    await h.app.reconcile.runNow();
    await settle();
    const told = sent(tgA.chatId);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/^Target reached: .+ market cap below \$/);
  });

  it('refuses a target the token is already past, and an amount that is none', async () => {
    const T = tokens[12] as string;
    const { price } = await valueOf(T);
    const past = await h.say(tgA, `/target ${T} price below ${(price * 2).toFixed(14)}`);
    expect(past.card.title).toMatch(/^\/target: the price is already below \$/);
    const none = await h.say(tgA, `/target ${T} price above lots`);
    expect(none.card.title).toBe('/target: value must be a positive amount in USD, not "lots"');
    expect(await h.app.store.follows.targetsOf(tgA)).toEqual([]);
  });
});
