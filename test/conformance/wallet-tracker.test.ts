/** Spec §2.7 and §4.6: GET /api/wallet-tracker. */
import { describe, expect, it } from 'vitest';
import { expectStatus, isRecord, orderBreaks, Problems, show, someWallets, unknownAddress } from './support/checks';
import { checkTrade } from './support/fields';
import { conformanceTarget, titleFor, useConformance, type Reply } from './support/server';

const PATH = '/api/wallet-tracker';
const target = conformanceTarget();

/** §4.6: with no trades the array may be absent; an absent array reads as empty. */
function tradesOf(reply: Reply): unknown[] {
  expectStatus(reply, 200);
  const problems = new Problems(reply.request);
  const body = problems.fields(reply.body, {}, 'body');
  if (body && 'tradeHistory' in body) problems.kind(body.tradeHistory, 'array', 'body.tradeHistory');
  problems.assertNone();
  const trades = (reply.body as { tradeHistory?: unknown[] }).tradeHistory;
  return trades ?? [];
}

describe.skipIf(target.mode === 'skip')(titleFor('conformance: wallet-tracker (§2.7, §4.6)', target), () => {
  const ctx = useConformance(target);

  it('answers the listed wallets with complete Trades, each with makerData of a requested wallet', async () => {
    const wallets = someWallets(ctx().wallets);
    const reply = await ctx().get(PATH, { wallets: wallets.join(',') });
    const trades = tradesOf(reply);
    expect(trades.length, `${reply.request}: the listed wallets trade, yet no trade came back`).toBeGreaterThan(0);
    const problems = new Problems(reply.request);
    trades.forEach((trade, i) => checkTrade(problems, trade, `tradeHistory[${i}]`, wallets));
    problems.assertNone();
  });

  it('answers one wallet with its trades only', async () => {
    const wallets = someWallets(ctx().wallets);
    const problems = new Problems(PATH);
    for (const wallet of wallets.slice(0, 3)) {
      const reply = await ctx().get(PATH, { wallets: wallet });
      tradesOf(reply).forEach((trade, i) => checkTrade(problems, trade, `${reply.request} tradeHistory[${i}]`, [wallet]));
    }
    problems.assertNone();
  });

  it('covers several tokens at once', async () => {
    const wallets = someWallets(ctx().wallets);
    const reply = await ctx().get(PATH, { wallets: wallets.join(',') });
    const tokens = new Set(
      tradesOf(reply).map((trade) => (isRecord(trade) && isRecord(trade.makerData) ? String(trade.makerData.tokenAddress) : '')),
    );
    expect(tokens.size, `${reply.request}: makerData.tokenAddress values`).toBeGreaterThan(1);
  });

  it('sorts newest first and keys tokensMetadata by token address (design)', async ({ skip }) => {
    const { simulator } = ctx();
    const wallets = someWallets(ctx().wallets);
    if (!simulator) skip('design decision, enforced on the simulator only');
    const reply = await ctx().get(PATH, { wallets: wallets.join(',') });
    const trades = tradesOf(reply);
    const times = trades.map((trade) => (isRecord(trade) ? Number(trade.timestamp) : Number.NaN));
    const breaks = orderBreaks(times, (a, b) => a >= b);
    expect(breaks, `${reply.request}: timestamps should not increase; first at [${breaks[0]}] ${times[breaks[0] ?? 0]}`).toEqual([]);
    const body = reply.body as Record<string, unknown>;
    expect(isRecord(body.tokensMetadata), `${reply.request}: tokensMetadata should be an object, got ${show(body.tokensMetadata)}`).toBe(
      true,
    );
    const keys = Object.keys(body.tokensMetadata as object);
    const traded = new Set(trades.flatMap((trade) => (isRecord(trade) ? [String(trade.tokenIn), String(trade.tokenOut)] : [])));
    const strangers = keys.filter((key) => !traded.has(key));
    expect(strangers, `${reply.request}: tokensMetadata keys that are no traded token's address`).toEqual([]);
    expect(keys.length, `${reply.request}: tokensMetadata should hold the traded tokens`).toBeGreaterThan(0);
  });

  it('answers a wallet without trades with an empty or absent tradeHistory', async () => {
    const reply = await ctx().get(PATH, { wallets: unknownAddress(ctx().wallets) });
    expect(tradesOf(reply), `${reply.request}: tradeHistory`).toEqual([]);
  });

  it('refuses a request without wallets with 400', async () => {
    const reply = await ctx().get(PATH);
    expectStatus(reply, 400);
  });
});
