/**
 * Alerts seen before the SOL→USD rate is known still go out with USD: the watcher saw the move in
 * SOL alone (no rate at start), and delivery fills the USD in when it sends, as a backlog digest
 * sent at the same moment would (src/delivery/usdAtSend.ts). The whole bot, the simulator, SQLite.
 */
import { afterEach, beforeAll, afterAll, describe, expect, it, vi } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import type { RunningSimulator } from 'tmds-simulator';
import { forgetUsdRate, knownSolUsdRate } from '../../src/query/usdRate';
import { tempDb, type RecordingSender } from '../delivery/helpers';
import { chatRef, quietSimulator, startHarness, type Harness } from './harness';

const WAIT = { timeout: 10_000, interval: 25 };

function fieldsOf(card: Card): Record<string, string> {
  return Object.fromEntries(card.fields.map((f) => [f.name, plainText(f.value)]));
}

let sim: RunningSimulator;
let h: Harness | null = null;
let db: { path: string; cleanup: () => void };

beforeAll(async () => {
  sim = await quietSimulator();
});

afterAll(async () => {
  await sim.close();
});

afterEach(async () => {
  await h?.app.stop();
  h = null;
  db.cleanup();
});

describe('an alert made before the SOL→USD rate is known', () => {
  it('is sent with its USD figures filled in', async () => {
    db = tempDb();
    h = await startHarness(sim, db.path);
    const chat = chatRef('telegram', '-100777');
    const hostile = new Set(sim.market.hostileTokens());
    const T = sim.market.tokenAddresses().find((t) => !hostile.has(t)) as string;
    expect((await h.say(chat, `/track token ${T} price 10`)).errorId).toBeNull();
    await vi.waitFor(async () => expect(await h?.app.store.state.token(T)).not.toBeNull(), WAIT);
    // As at start-up, before the rate's first refresh: the watcher sees the move in SOL alone.
    forgetUsdRate(h.app.market);
    expect(knownSolUsdRate(h.app.market)).toBeNull();
    sim.controls.price({ tokenAddress: T, changePct: 40 });
    const sender = h.senders.get('telegram') as RecordingSender;
    await vi.waitFor(() => expect(sender.sent.filter((s) => s.card.title.startsWith('Price up'))).toHaveLength(1), WAIT);
    const card = sender.sent.find((s) => s.card.title.startsWith('Price up'))?.card as Card;
    const shown = fieldsOf(card);
    expect(shown['Price (USD)']).toMatch(/^\$/);
    expect(shown['Market cap']).toMatch(/^\$.* · .* SOL$/);
    expect(shown.Liquidity).toMatch(/^\$.* · .* SOL$/);
  });
});
