/**
 * What the whole path must show, with the simulator's scenario controls, a real store (a SQLite
 * file, and a PostgreSQL database when the run's throwaway server started) and real sockets: each alert kind reaches exactly the chats that follow it, once; a dropped
 * socket during a change still ends in one alert (reconciliation); mute and untrack stop alerts; a
 * restart keeps follows; stopping in the middle of delivery loses and repeats nothing; a chat that
 * is gone is paused; a backlog becomes a digest.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import type { RunningSimulator, SimulatorProtocol } from 'tmds-simulator';
import { WIRE_STYLES } from 'tmds-simulator';
import { solFromLamports } from '../../src/text/format';
import { RecordingSender, capturedLogger } from '../delivery/helpers';
import { STORE_KINDS, type StoreHome } from '../store/support/stores';
import { chatRef, quietSimulator, startHarness, type Harness } from './harness';

const WAIT = { timeout: 10_000, interval: 25 };

function cardText(card: Card): string {
  return [card.title, plainText(card.description ?? []), ...card.fields.map((f) => `${f.name} ${plainText(f.value)}`)].join('\n');
}

/** Lets every queued stream event be committed and every due alert be sent, then returns. */
async function settle(h: Harness): Promise<void> {
  await h.app.watcher.idle();
  await h.app.delivery.drain();
}

/** Waits for the watcher's first sight of a token (its baseline): a change before it would be the baseline itself. */
async function baseline(h: Harness, token: string): Promise<void> {
  await vi.waitFor(async () => expect(await h.app.store.state.token(token)).not.toBeNull(), WAIT);
}

let sim: RunningSimulator;
let h: Harness;
let tokens: string[];
let wallets: string[];

const tgA = chatRef('telegram', '-100111');
const tgB = chatRef('telegram', '-100222');
const dc = chatRef('discord', '555');
const tgOther = chatRef('telegram', '-100999');

function sent(platform: 'telegram' | 'discord', chatId: string): string[] {
  const sender = h.senders.get(platform) as RecordingSender;
  return sender.sent.filter((s) => s.chat.chatId === chatId).map((s) => cardText(s.card));
}

/**
 * Every store on the spec's protocol, and the vendor's on SQLite: there the same changes come by
 * trades-live, chart-live and holders-live, and what no stream carries (risk, pools, a wallet's
 * trades) by the REST polls, every second here.
 */
const CASES: Array<[string, SimulatorProtocol, () => Promise<StoreHome>]> = [
  ...STORE_KINDS.map(([kind, makeHome]): [string, SimulatorProtocol, () => Promise<StoreHome>] => [kind, 'spec', makeHome]),
  [(STORE_KINDS[0] as (typeof STORE_KINDS)[number])[0], 'vendor', (STORE_KINDS[0] as (typeof STORE_KINDS)[number])[1]],
];

describe.each(CASES)('alerts end to end (%s store, %s protocol)', (_kind, protocol, makeHome) => {
  let db: StoreHome;

  // A simulator of its own per store: the market moves in these tests (a pool pulled stays pulled).
  beforeAll(async () => {
    sim = await quietSimulator('spec', protocol);
    const hostile = new Set(sim.market.hostileTokens());
    tokens = sim.market.tokenAddresses().filter((t) => !hostile.has(t));
    wallets = sim.market.wallets();
  });

  afterAll(async () => {
    await sim.close();
  });

  beforeEach(async () => {
    db = await makeHome();
    h = await startHarness(sim, db.env, process.env.E2E_LOG ? { logger: (await import('../../src/log')).createLogger('debug') } : {});
  });

  afterEach(async () => {
    await h.app.stop();
    await db.remove();
  });

  it('a forced risk change: one alert in each following chat, none in others, no repeat', async () => {
    const T = tokens[0] as string;
    for (const chat of [tgA, tgB, dc]) expect((await h.say(chat, `/track token ${T}`)).errorId).toBeNull();
    await baseline(h, T);
    const before = sim.market.token(T)?.riskStatus;
    const to = before === 'DANGER' ? 'WARNING' : 'DANGER';
    sim.controls.risk({ tokenAddress: T, riskStatus: to });
    await vi.waitFor(() => {
      for (const [platform, chat] of [
        ['telegram', tgA],
        ['telegram', tgB],
        ['discord', dc],
      ] as const) {
        expect(sent(platform, chat.chatId).filter((text) => text.includes(to))).toHaveLength(1);
      }
    }, WAIT);
    // Reconciliation sees the same change: the same event key, no second alert.
    await h.app.reconcile.runNow();
    await settle(h);
    for (const [platform, chat] of [
      ['telegram', tgA],
      ['telegram', tgB],
      ['discord', dc],
    ] as const) {
      const texts = sent(platform, chat.chatId);
      expect(texts).toHaveLength(1);
      expect(texts[0]).toContain(String(before));
    }
    expect(sent('telegram', tgOther.chatId)).toHaveLength(0);
    sim.controls.risk({ tokenAddress: T, riskStatus: null });
  });

  it('a wallet trade above the follow’s minimum alerts, one below it does not', async () => {
    const W = wallets[0] as string;
    const T = tokens[1] as string;
    expect((await h.say(tgA, `/track wallet ${W} whale 1000 both`)).errorId).toBeNull();
    await vi.waitFor(async () => expect(await h.app.store.state.wallet(W)).not.toBeNull(), WAIT);
    sim.controls.trade({ wallet: W, tokenAddress: T, side: 'buy', amountUSD: 200 });
    sim.controls.trade({ wallet: W, tokenAddress: T, side: 'buy', amountUSD: 5_000 });
    await vi.waitFor(() => expect(sent('telegram', tgA.chatId).filter((t) => t.startsWith('whale bought'))).toHaveLength(1), WAIT);
    await settle(h);
    const trades = sent('telegram', tgA.chatId);
    expect(trades).toHaveLength(1);
    // The $5,000 trade, as the service values it (wallet-tracker's REST answer may restate it: $5.3K).
    expect(trades[0]).toMatch(/\$5(,\d{3}|\.\d+K|K)/);
  });

  it('a price move past the threshold alerts once', async () => {
    const T = tokens[2] as string;
    await h.say(tgA, `/track token ${T} price 10`);
    await baseline(h, T);
    sim.controls.price({ tokenAddress: T, changePct: 40 });
    await vi.waitFor(() => expect(sent('telegram', tgA.chatId).filter((t) => t.startsWith('Price up'))).toHaveLength(1), WAIT);
    await h.app.reconcile.runNow();
    await settle(h);
    expect(sent('telegram', tgA.chatId)).toHaveLength(1);
  });

  it('liquidity pulled alerts once', async () => {
    const T = tokens[3] as string;
    await h.say(dc, `/track token ${T} liquidity`);
    await baseline(h, T);
    sim.controls.liquidity({ tokenAddress: T, pull: true });
    await vi.waitFor(() => expect(sent('discord', dc.chatId).filter((t) => t.startsWith('Liquidity pulled'))).toHaveLength(1), WAIT);
    await h.app.reconcile.runNow();
    await settle(h);
    expect(sent('discord', dc.chatId)).toHaveLength(1);
  });

  it('a whale entering alerts once', async () => {
    const T = tokens[4] as string;
    await h.say(tgB, `/track token ${T} whale`);
    await baseline(h, T);
    // The holders stream's first frames set the whale list; wait for them before the change.
    await vi.waitFor(async () => expect(Object.keys((await h.app.store.state.token(T))?.whales ?? {}).length).toBeGreaterThan(0), WAIT);
    const known = new Set(Object.keys((await h.app.store.state.token(T))?.whales ?? {}));
    const newcomer = wallets.find((w) => !known.has(w)) as string;
    sim.controls.holder({ tokenAddress: T, wallet: newcomer, supplyPct: 6 });
    await vi.waitFor(() => expect(sent('telegram', tgB.chatId).filter((t) => t.startsWith('Whale in'))).toHaveLength(1), WAIT);
    await settle(h);
    expect(sent('telegram', tgB.chatId).filter((t) => t.startsWith('Whale in'))).toHaveLength(1);
  });

  it('every socket dropped during a risk change: still exactly one alert, reconciliation included', async () => {
    await h.app.stop();
    const { logger, lines } = capturedLogger();
    h = await startHarness(sim, db.env, { logger });
    const T = tokens[5] as string;
    await h.say(tgA, `/track token ${T}`);
    await baseline(h, T);
    const to = sim.market.token(T)?.riskStatus === 'DANGER' ? 'WARNING' : 'DANGER';
    sim.controls.drop();
    sim.controls.risk({ tokenAddress: T, riskStatus: to });
    // Reconciliation reads the change over REST, and runs again on the reconnect the drop causes
    // (a second snapshot on the spec's protocol; the vendor's sends none, and its polls read REST).
    await h.app.reconcile.runNow();
    if (protocol === 'spec')
      await vi.waitFor(
        () => expect(lines.some((line) => line.msg === 'reconciliation done' && line.reason === 'reconnect')).toBe(true),
        WAIT,
      );
    else await vi.waitFor(() => expect(sent('telegram', tgA.chatId)).toHaveLength(1), WAIT);
    await h.app.reconcile.runNow();
    await settle(h);
    const texts = sent('telegram', tgA.chatId);
    expect(texts.filter((t) => t.includes(`→ ${to}`))).toHaveLength(1);
    expect(texts).toHaveLength(1);
    sim.controls.risk({ tokenAddress: T, riskStatus: null });
  });

  it('mute and untrack stop alerts; other chats still get theirs', async () => {
    const T = tokens[6] as string;
    for (const chat of [tgA, tgB]) await h.say(chat, `/track token ${T}`);
    await h.say(dc, `/track token ${T}`);
    expect((await h.say(tgA, `/mute ${T} 1h`)).card.title).toBe('Muted');
    expect((await h.say(tgB, `/untrack ${T}`)).card.title).toBe('No longer tracking');
    await baseline(h, T);
    const to = sim.market.token(T)?.riskStatus === 'DANGER' ? 'WARNING' : 'DANGER';
    sim.controls.risk({ tokenAddress: T, riskStatus: to });
    await vi.waitFor(() => expect(sent('discord', dc.chatId)).toHaveLength(1), WAIT);
    await h.app.reconcile.runNow();
    await settle(h);
    expect(sent('telegram', tgA.chatId)).toHaveLength(0);
    expect(sent('telegram', tgB.chatId)).toHaveLength(0);
    sim.controls.risk({ tokenAddress: T, riskStatus: null });
  });

  it('a restart keeps follows and last-seen state: the next change alerts once', async () => {
    const T = tokens[7] as string;
    // Risk only: a restart may meet holders the first run had not yet seen (whale alerts of their own).
    await h.say(tgA, `/track token ${T} risk`);
    await baseline(h, T);
    await h.app.stop();
    h = await startHarness(sim, db.env);
    expect((await h.say(tgA, '/following')).card.title).toBe('Followed in this chat: 1');
    const to = sim.market.token(T)?.riskStatus === 'DANGER' ? 'WARNING' : 'DANGER';
    sim.controls.risk({ tokenAddress: T, riskStatus: to });
    await vi.waitFor(() => expect(sent('telegram', tgA.chatId)).toHaveLength(1), WAIT);
    await h.app.reconcile.runNow();
    await settle(h);
    expect(sent('telegram', tgA.chatId)).toHaveLength(1);
    sim.controls.risk({ tokenAddress: T, riskStatus: null });
  });

  it('stopped in the middle of delivery and started again on the same file: nothing lost, nothing repeated', async () => {
    const T = tokens[8] as string;
    const chats = [tgA, tgB, chatRef('telegram', '-100333'), chatRef('telegram', '-100444')];
    for (const chat of chats) await h.say(chat, `/track token ${T} risk`);
    await baseline(h, T);
    const first = h.senders.get('telegram') as RecordingSender;
    let release: () => void = () => undefined;
    first.gate = new Promise((resolve) => {
      release = resolve;
    });
    const to = sim.market.token(T)?.riskStatus === 'DANGER' ? 'WARNING' : 'DANGER';
    sim.controls.risk({ tokenAddress: T, riskStatus: to });
    await vi.waitFor(() => expect(first.attempts.length).toBeGreaterThan(0), WAIT);
    const stopping = h.app.stop();
    release();
    await stopping;
    const before = first.sent.map((s) => s.chat.chatId);
    expect(before.length).toBeGreaterThan(0);

    h = await startHarness(sim, db.env);
    await settle(h);
    const second = h.senders.get('telegram') as RecordingSender;
    await vi.waitFor(() => expect(before.length + second.sent.length).toBe(chats.length), WAIT);
    const all = [...before, ...second.sent.map((s) => s.chat.chatId)].sort();
    expect(all).toEqual(chats.map((c) => c.chatId).sort());
    sim.controls.risk({ tokenAddress: T, riskStatus: null });
  });

  it('a chat that is gone is paused once; the others keep getting alerts', async () => {
    const T = tokens[9] as string;
    await h.say(tgA, `/track token ${T} risk`);
    await h.say(tgB, `/track token ${T} risk`);
    await baseline(h, T);
    const telegram = h.senders.get('telegram') as RecordingSender;
    telegram.answer = (attempt) =>
      attempt.chat.chatId === tgA.chatId ? { status: 'gone', reason: 'Forbidden: bot was kicked from the group chat' } : { status: 'sent' };
    const first = sim.market.token(T)?.riskStatus === 'DANGER' ? 'WARNING' : 'DANGER';
    sim.controls.risk({ tokenAddress: T, riskStatus: first });
    await vi.waitFor(() => expect(sent('telegram', tgB.chatId)).toHaveLength(1), WAIT);
    await vi.waitFor(async () => expect(await h.app.store.chats.pausedReason(tgA)).not.toBeNull(), WAIT);
    expect(plainText((await h.say(tgA, '/status')).card.fields.at(-1)?.value ?? [])).toContain('bot was kicked');
    sim.controls.risk({ tokenAddress: T, riskStatus: 'SAFE' });
    await vi.waitFor(() => expect(sent('telegram', tgB.chatId)).toHaveLength(2), WAIT);
    await settle(h);
    expect(telegram.attempts.filter((a) => a.chat.chatId === tgA.chatId)).toHaveLength(1);
    sim.controls.risk({ tokenAddress: T, riskStatus: null });
  });

  it('a backlog in one chat arrives as a digest, nothing dropped', async () => {
    const seven = tokens.slice(10, 17);
    for (const T of seven) await h.say(tgA, `/track token ${T} risk`);
    for (const T of seven) await baseline(h, T);
    const telegram = h.senders.get('telegram') as RecordingSender;
    let release: () => void = () => undefined;
    telegram.gate = new Promise((resolve) => {
      release = resolve;
    });
    const flip = (T: string) =>
      sim.controls.risk({ tokenAddress: T, riskStatus: sim.market.token(T)?.riskStatus === 'DANGER' ? 'WARNING' : 'DANGER' });
    flip(seven[0] as string);
    await vi.waitFor(() => expect(telegram.attempts).toHaveLength(1), WAIT);
    for (const T of seven.slice(1)) flip(T);
    await vi.waitFor(async () => expect((await h.app.store.outbox.pending()).count).toBe(seven.length), WAIT);
    release();
    await vi.waitFor(async () => expect((await h.app.store.outbox.pending()).count).toBe(0), WAIT);
    const titles = telegram.sent.map((s) => s.card.title);
    // The first alert was already on its way; the six behind it became one digest.
    expect(titles).toHaveLength(2);
    expect(titles[0]).toMatch(/^Risk /);
    expect(titles[1]).toBe(`${seven.length - 1} alerts`);
    for (const T of seven) sim.controls.risk({ tokenAddress: T, riskStatus: null });
  });
});

/**
 * The live service's frames leave the pools out (`liquidityPools: {}`), put SOL as token0 and write
 * links without a scheme: the simulator's `real` style does the same. In either style, frames
 * without pools between reconciliations that show them raise no liquidity alert, an alert built
 * from such a frame still shows the liquidity, and a pull is told once with the pool's own SOL.
 * One store (SQLite) and one scenario a style: the store contract is the suite above's.
 */
describe.each(WIRE_STYLES)('liquidity end to end (%s wire style)', (style) => {
  let styled: RunningSimulator;
  let run: Harness;
  let db: StoreHome;

  beforeAll(async () => {
    styled = await quietSimulator(style);
  });

  afterAll(async () => {
    await styled.close();
  });

  beforeEach(async () => {
    db = await (STORE_KINDS[0] as (typeof STORE_KINDS)[number])[1]();
    run = await startHarness(styled, db.env);
  });

  afterEach(async () => {
    await run.app.stop();
    await db.remove();
  });

  function texts(): string[] {
    const sender = run.senders.get('discord') as RecordingSender;
    return sender.sent.filter((s) => s.chat.chatId === dc.chatId).map((s) => cardText(s.card));
  }

  /** SOL in each of the token's pools as the service reports them, by pool address. */
  function solOfPools(token: string): Map<string, bigint> {
    const pools = Object.values(styled.market.token(token)?.liquidityPools ?? {});
    return new Map(pools.map((pool) => [pool.poolAddress, BigInt(pool.suspectedQuoteTokenReserves)]));
  }

  it('frames without pools raise no false alert; a pull is told once, in the pool’s SOL', async () => {
    const hostile = new Set(styled.market.hostileTokens());
    const T = styled.market.tokenAddresses().find((t) => !hostile.has(t)) as string;
    expect((await run.say(dc, `/track token ${T} liquidity,risk`)).errorId).toBeNull();
    await baseline(run, T);
    await run.app.reconcile.runNow();
    await vi.waitFor(async () => expect((await run.app.store.state.token(T))?.pools.length ?? 0).toBeGreaterThan(0), WAIT);

    // Two risk changes: each pushes a frame (without pools in the real style), each re-check shows them.
    const first = styled.market.token(T)?.riskStatus === 'DANGER' ? 'WARNING' : 'DANGER';
    for (const to of [first, 'SAFE'] as const) {
      styled.controls.risk({ tokenAddress: T, riskStatus: to });
      await vi.waitFor(() => expect(texts().filter((text) => text.includes(`→ ${to}`))).toHaveLength(1), WAIT);
      await run.app.reconcile.runNow();
      await settle(run);
    }
    const risks = texts();
    expect(risks).toHaveLength(2);
    for (const text of risks) {
      expect(text).not.toContain('Liquidity pulled');
      expect(text).toMatch(/\nLiquidity .*SOL/);
      expect(text).toMatch(/\nPrice .*SOL/);
    }

    const before = solOfPools(T);
    styled.controls.liquidity({ tokenAddress: T, pull: true });
    const after = solOfPools(T);
    const [pulled] = [...before].filter(([pool, sol]) => (after.get(pool) ?? 0n) < sol);
    expect(pulled).toBeDefined();
    const [poolAddress, from] = pulled as [string, bigint];
    // In the real style the frame shows nothing of the pull: the re-check reads it.
    await run.app.reconcile.runNow();
    await vi.waitFor(() => expect(texts().filter((text) => text.startsWith('Liquidity pulled'))).toHaveLength(1), WAIT);
    await run.app.reconcile.runNow();
    await settle(run);
    const alerts = texts().filter((text) => text.startsWith('Liquidity pulled'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toContain(
      `${poolAddress.slice(0, 4)}…${poolAddress.slice(-4)}: ${solFromLamports(from)} → ${solFromLamports(after.get(poolAddress) ?? 0n)}`,
    );
    styled.controls.risk({ tokenAddress: T, riskStatus: null });
  });
});
