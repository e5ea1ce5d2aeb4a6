/**
 * The Mute 1h button of an alert, end to end: an alert's button pressed in its chat by a member is
 * refused as /mute is, and by a manager mutes that follow there for an hour, so the next change
 * tells that chat nothing while another chat that follows the token still hears of it.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunningSimulator } from 'tmds-simulator';
import { RecordingSender, tempDb } from '../delivery/helpers';
import { chatRef, quietSimulator, startHarness, type Harness } from './harness';

const WAIT = { timeout: 10_000, interval: 25 };
const tgA = chatRef('telegram', '-100111');
const tgB = chatRef('telegram', '-100222');

let sim: RunningSimulator;
let h: Harness;
let db: { path: string; cleanup: () => void };

function sentTo(chatId: string) {
  return (h.senders.get('telegram') as RecordingSender).sent.filter((s) => s.chat.chatId === chatId);
}

describe('the Mute 1h button', () => {
  beforeAll(async () => {
    sim = await quietSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });
  beforeEach(async () => {
    db = tempDb();
    h = await startHarness(sim, db.path);
  });
  afterEach(async () => {
    await h.app.stop();
    db.cleanup();
  });

  it('mutes the follow the alert came from, in the chat where it is pressed, for managers only', async () => {
    const hostile = new Set(sim.market.hostileTokens());
    const T = sim.market.tokenAddresses().filter((t) => !hostile.has(t))[13] as string;
    for (const chat of [tgA, tgB]) expect((await h.say(chat, `/track token ${T} price 10`)).errorId).toBeNull();
    await vi.waitFor(async () => expect(await h.app.store.state.token(T)).not.toBeNull(), WAIT);

    sim.controls.price({ tokenAddress: T, changePct: 30 });
    await vi.waitFor(() => expect(sentTo(tgA.chatId)).toHaveLength(1), WAIT);
    const alert = sentTo(tgA.chatId)[0];
    const mute = alert?.buttons.find((button) => button.label === 'Mute 1h');
    if (mute === undefined) throw new Error(`no Mute 1h button among ${alert?.buttons.map((button) => button.label).join(', ')}`);

    const member = await h.app.dispatcher.press(mute.key, { chat: tgA, userId: 'member-1', isManager: async () => false });
    expect(member.ephemeral).toBe(true);
    expect(member.card.title).toMatch(/manage/i);
    expect((await h.app.store.follows.get(tgA, T))?.mutedUntil).toBeNull();

    const before = Date.now();
    const manager = await h.app.dispatcher.press(mute.key, { chat: tgA, userId: 'manager-1', isManager: async () => true });
    expect(manager.card.title).toBe('Muted');
    const until = (await h.app.store.follows.get(tgA, T))?.mutedUntil?.getTime() ?? 0;
    expect(until - before).toBeGreaterThanOrEqual(3_600_000 - 1_000);
    expect(until - Date.now()).toBeLessThanOrEqual(3_600_000);
    expect((await h.app.store.follows.get(tgB, T))?.mutedUntil).toBeNull();

    // The next move: the other chat hears of it; the muted one does not.
    sim.controls.price({ tokenAddress: T, changePct: -40 });
    await vi.waitFor(() => expect(sentTo(tgB.chatId)).toHaveLength(2), WAIT);
    await h.app.watcher.idle();
    await h.app.delivery.drain();
    expect(sentTo(tgA.chatId)).toHaveLength(1);
  });
});
