/**
 * The peak job against the simulator's known candles, on every store: the peak is the highest close
 * of a candle traded after the call (not a high from before it, not a wick), a milestone is told once, as a
 * reply to the message that made the call, through a restart, and the first caller keeps the call.
 * The simulator and the job share one injected clock: nothing waits on time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMilestoneCard, type CallMilestoneEvent } from '../../src/alerts/kinds/callMilestone';
import { CallPeaks } from '../../src/jobs/callPeaks';
import { silentLogger } from '../../src/log';
import { MarketClient } from '../../src/market/client';
import type { ChatRef } from '../../src/model/chat';
import { CallBook, callMarket } from '../../src/query/callBook';
import { tokenAnswer } from '../../src/query/tokenQuery';
import { callPnlCard } from '../../src/query/callPnl';
import { plainText } from '../../src/cards/card';
import { startSimulator, type RunningSimulator } from 'tmds-simulator';
import { eachStore, STORE_KINDS, type ContractStore, type StoreHome } from './support/stores';

const KEY = 'call-peaks-test-key';
const MINUTE = 60_000;
const group: ChatRef = { platform: 'telegram', chatId: '-100500', threadId: '12', scopeId: null };

let clockMs = Date.UTC(2027, 0, 10, 12, 0, 0);
let sim: RunningSimulator;
let client: MarketClient;
let token: string;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, port: 0, seed: 42, control: true, tradesPerSecond: 0, now: () => clockMs });
  client = new MarketClient({
    baseUrl: sim.baseUrl,
    apiKey: KEY,
    logger: silentLogger,
    maxRetries: 0,
    cacheTtlMs: { 'token-data': 0, 'chart-history': 0 },
  });
  const hostile = new Set(sim.market.hostileTokens());
  token = sim.market.tokenAddresses().filter((address) => !hostile.has(address))[3] ?? '';
});
afterAll(async () => {
  client.close();
  await sim.close();
});

describe.each(STORE_KINDS)('the peak job (%s)', (_kind, makeHome) => {
  let home: StoreHome;
  let store: ContractStore;
  eachStore(makeHome, (opened) => ({ home, store } = opened));

  const book = () => new CallBook(store.calls, () => new Date(clockMs));
  const job = () => new CallPeaks({ calls: store.calls, market: client, now: () => new Date(clockMs), logger: silentLogger });
  const post = async (userId: string, messageId: string) =>
    book().onPost(group, { userId, userName: `@everyone ${userId}`, messageId }, await tokenAnswer(client, token, new Date(clockMs)));

  it('reads the peak from the closes of candles traded after the call, not their wicks, tells ×2 once as a reply to the caller’s message, through a restart', async () => {
    await store.calls.setEnabled(group, true, new Date(clockMs));
    // Before the call: a pump and its fall. Its high is no part of the call's peak.
    sim.controls.price({ tokenAddress: token, changePct: 2_000 });
    clockMs += 2 * MINUTE;
    sim.controls.price({ tokenAddress: token, changePct: -95 });
    clockMs += 2 * MINUTE + 30_000;

    const first = await post('alice', 'msg-alice');
    clockMs += 30_000;
    const second = await post('bob', 'msg-bob');
    const call = await store.calls.get(group, token);
    expect(call?.userId).toBe('alice');
    expect(call?.messageId).toBe('msg-alice');
    expect(first.fields.at(-1)?.name).toBe('Call');
    // The later post's card names the first caller, as text: the leading @ is left off, and nobody is pinged.
    const line =
      second.fields
        .at(-1)
        ?.value.map((span) => span.text)
        .join('') ?? '';
    expect(line).toMatch(/^called by everyone alice just now at \$[\d.]+[KM]? mcap · ×1\.0$/);
    expect(line).not.toContain('@everyone');

    // After the call: a pump and two falls within one minute (a candle whose high, the first fall's
    // price, is above its close), then quiet. A trade's price is its average over the pool's move.
    clockMs += 2 * MINUTE;
    sim.controls.price({ tokenAddress: token, changePct: 400 });
    sim.controls.price({ tokenAddress: token, changePct: -50 });
    sim.controls.price({ tokenAddress: token, changePct: -10 });
    clockMs += 3 * MINUTE;

    const callSecs = Math.ceil((call?.calledAt.getTime() ?? 0) / 1000);
    const candles = await client.chart(token, { from: callSecs - 3_600, to: Math.floor(clockMs / 1000), intervalSecs: 60 });
    const after = candles.filter((candle) => candle.timestamp / 1000 >= callSecs);
    const before = candles.filter((candle) => candle.timestamp / 1000 < callSecs);
    const highest = Math.max(...after.map((candle) => candle.high));
    const highestClose = Math.max(...after.filter((candle) => candle.volume > 0).map((candle) => candle.close));
    expect(Math.max(...before.map((candle) => candle.high))).toBeGreaterThan(highest);
    expect(highestClose).toBeLessThan(highest);

    expect((await job().runOnce()).milestones).toBe(1);
    const peaked = await store.calls.get(group, token);
    // The close, where the candle's trading ended: the wick above it is no peak a caller could sell at.
    expect(peaked?.peakSol).toBe(highestClose);
    expect(peaked?.toldMultiple).toBe(2);

    const rows = await store.outbox.due('telegram', new Date(clockMs), 10);
    expect(rows).toHaveLength(1);
    const event = rows[0]?.event as CallMilestoneEvent;
    expect(rows[0]?.chat).toEqual(group);
    const card = callMilestoneCard(event);
    expect(card.replyTo).toBe('msg-alice');
    expect(card.description?.map((span) => span.text).join('')).toMatch(
      /^×2\.\d since everyone alice’s call 5m ago: \$[\d.]+[KM] → \$[\d.]+[KM] mcap$/,
    );

    // A restart: a new store and job on the same records; later runs tell nothing more.
    await store.close();
    store = await home.open();
    clockMs += 5 * MINUTE;
    expect((await job().runOnce()).milestones).toBe(0);
    clockMs += 5 * MINUTE;
    expect((await job().runOnce()).milestones).toBe(0);
    expect(await store.outbox.due('telegram', new Date(clockMs), 10)).toHaveLength(1);
    expect((await store.calls.get(group, token))?.peakSol).toBe(highestClose);

    // /pnl: the same peak on the card, with a picture of the price since the call.
    const stored = await store.calls.get(group, token);
    if (stored === null) throw new Error('the call is gone');
    const pnl = await callPnlCard(client, stored, new Date(clockMs));
    expect(pnl.fields.map((f) => f.name)).toEqual(['Entry', 'Peak', 'Now']);
    expect(plainText(pnl.fields[1]?.value ?? [])).toMatch(/^×2\.\d · /);
    expect([...(pnl.image?.data.slice(0, 4) ?? [])]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('reads a call at once when its followed token’s live price passed the next milestone, and only then', async () => {
    await store.calls.setEnabled(group, true, new Date(clockMs));
    await post('carol', 'msg-carol');
    expect((await job().runOnce()).calls).toBe(1);
    clockMs += MINUTE;
    sim.controls.price({ tokenAddress: token, changePct: 400 });
    sim.controls.price({ tokenAddress: token, changePct: -50 });
    clockMs += MINUTE;
    // Its slot is 5 minutes after the first read: without the live price nothing is read yet.
    expect(await job().runOnce()).toEqual({ calls: 0, requests: 0, milestones: 0 });
    const livePrice = callMarket(await tokenAnswer(client, token, new Date(clockMs)))?.priceSol ?? null;
    const live = (price: number | null) => ({
      tokens: async (addresses: string[]) => new Map(addresses.map((address) => [address, { priceNative: price }])),
    });
    const hurried = (price: number | null) =>
      new CallPeaks({ calls: store.calls, market: client, now: () => new Date(clockMs), logger: silentLogger, live: live(price) });
    // A live price below ×2 of the entry hurries nothing.
    const entry = (await store.calls.get(group, token))?.priceSol ?? 0;
    expect((await hurried(entry * 1.5).runOnce()).calls).toBe(0);
    expect(livePrice).not.toBeNull();
    expect((await hurried(livePrice).runOnce()).milestones).toBe(1);
    expect((await store.calls.get(group, token))?.toldMultiple).toBe(2);
  });
});
