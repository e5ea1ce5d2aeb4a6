/** Spec §2.7 and §4.4: GET /api/trades-history. */
import { describe, expect, it } from 'vitest';
import { expectStatus, isRecord, orderBreaks, Problems, show, someWallets } from './support/checks';
import { checkTrade } from './support/fields';
import { conformanceTarget, titleFor, useConformance, type Conformance, type Reply } from './support/server';

const PATH = '/api/trades-history';
const target = conformanceTarget();
const TOKENS_SEARCHED = 10;

interface Traded {
  baseToken: string;
  reply: Reply;
  trades: unknown[];
}

function tradesOf(reply: Reply): unknown[] {
  expectStatus(reply, 200);
  const problems = new Problems(reply.request);
  problems.fields(reply.body, { tradeHistory: 'array', tokensMetadata: 'object' }, 'body');
  problems.assertNone();
  return (reply.body as { tradeHistory: unknown[] }).tradeHistory;
}

const eventId = (trade: unknown): string => (isRecord(trade) ? `${String(trade.transactionHash)}#${String(trade.logIndex)}` : '?');

describe.skipIf(target.mode === 'skip')(titleFor('conformance: trades-history (§2.7, §4.4)', target), () => {
  const ctx = useConformance(target);

  let traded: Promise<Traded[]> | undefined;
  /** The listed tokens the listed wallets traded, asked once with every wallet. */
  const tradedTokens = (c: Conformance): Promise<Traded[]> =>
    (traded ??= (async () => {
      const found: Traded[] = [];
      for (const { address } of c.tokens.slice(0, TOKENS_SEARCHED)) {
        const reply = await c.get(PATH, { baseToken: address, wallets: someWallets(c.wallets).join(',') });
        const trades = tradesOf(reply);
        if (trades.length > 0) found.push({ baseToken: address, reply, trades });
      }
      return found;
    })());

  it('finds trades of the listed wallets in the listed tokens, so the checks below are not vacuous', async () => {
    const found = await tradedTokens(ctx());
    expect(
      found.length,
      `none of the first ${TOKENS_SEARCHED} tokens has a trade by any of the first ${someWallets(ctx().wallets).length} wallets`,
    ).toBeGreaterThan(0);
  });

  it('answers {tradeHistory, tokensMetadata} with complete §2.7 Trades and MakerData', async () => {
    const wallets = someWallets(ctx().wallets);
    const problems = new Problems(PATH);
    for (const { reply, trades } of await tradedTokens(ctx())) {
      trades.forEach((trade, i) => checkTrade(problems, trade, `${reply.request} tradeHistory[${i}]`, wallets));
      const ids = trades.map(eventId);
      problems.check(new Set(ids).size === ids.length, `${reply.request}: a trade (transactionHash#logIndex) appears twice`);
    }
    problems.assertNone();
  });

  it('sorts trades by timestamp, newest first', async () => {
    const problems = new Problems(PATH);
    for (const { reply, trades } of await tradedTokens(ctx())) {
      const times = trades.map((trade) => (isRecord(trade) ? Number(trade.timestamp) : Number.NaN));
      const breaks = orderBreaks(times, (a, b) => a >= b);
      problems.check(
        breaks.length === 0,
        `${reply.request}: timestamps should not increase; ${breaks
          .slice(0, 3)
          .map((i) => `[${i}] ${times[i]} < [${i + 1}] ${times[i + 1]}`)
          .join('; ')}`,
      );
    }
    problems.assertNone();
  });

  it('answers only trades of the base token (tokenIn or tokenOut)', async () => {
    const problems = new Problems(PATH);
    for (const { baseToken, reply, trades } of await tradedTokens(ctx())) {
      trades.forEach((trade, i) => {
        if (!isRecord(trade)) return;
        problems.check(
          trade.tokenIn === baseToken || trade.tokenOut === baseToken,
          `${reply.request} tradeHistory[${i}]: neither tokenIn ${show(trade.tokenIn)} nor tokenOut ${show(trade.tokenOut)} is the baseToken`,
        );
      });
    }
    problems.assertNone();
  });

  it('answers one wallet with only its trades, including all it had in the all-wallet answer', async () => {
    const found = await tradedTokens(ctx());
    const first = found[0];
    if (!first) return expect.fail('no traded token (see the first test)');
    const firstTrade = first.trades[0];
    const maker = isRecord(firstTrade) && isRecord(firstTrade.makerData) ? String(firstTrade.makerData.address) : '';
    const reply = await ctx().get(PATH, { baseToken: first.baseToken, wallets: maker });
    const trades = tradesOf(reply);
    const problems = new Problems(reply.request);
    trades.forEach((trade, i) => checkTrade(problems, trade, `tradeHistory[${i}]`, [maker]));
    problems.assertNone();
    const expected = first.trades
      .filter((trade) => isRecord(trade) && isRecord(trade.makerData) && trade.makerData.address === maker)
      .map(eventId);
    // A subset, not equality: a server may cap the answer's size (§8 leaves it open), and the newest
    // trades of one wallet still include every one of its trades among the newest of all wallets.
    const single = new Set(trades.map(eventId));
    const lost = expected.filter((id) => !single.has(id));
    expect(lost, `${reply.request}: trades of ${maker} in the all-wallet answer but missing here`).toEqual([]);
    expect(
      trades.length,
      `${reply.request}: at least the ${expected.length} trade(s) of ${maker} seen with all wallets`,
    ).toBeGreaterThanOrEqual(expected.length);
  });

  it.each([
    ['baseToken', (c: Conformance) => ({ wallets: someWallets(c.wallets).join(',') })],
    ['wallets', (c: Conformance) => ({ baseToken: c.tokens[0]!.address })],
    ['both', () => ({})],
  ] as const)('refuses a request missing %s with 400', async (_missing, params) => {
    const reply = await ctx().get(PATH, params(ctx()));
    expectStatus(reply, 400);
  });
});
