import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answered, commandContext } from '../support/commandContext';
import holdersCommand from '../../commands/holders';
import { type Card, plainText } from '../../src/cards/card';
import { formatTokenAmount, percent, relativeTime, shortAddress, usd } from '../../src/text/format';
import { HOLDERS_SHOWN, HOLDER_SORTS } from '../../src/cards/holdersCard';
import type { ChoiceOption, CommandContext } from '../../src/dispatch/command';
import { UsageError, parseCommandLine } from '../../src/dispatch/parseArgs';
import { checkCommand } from '../../src/dispatch/registry';
import { isMarketError } from '../../src/market/errors';
import { holdersCard } from '../../src/query/holdersQuery';
import type { WireHolder, WireTokenEnvelope } from 'tmds-simulator';
import { expectSafeCard } from '../support/cardSafety';
import { type TestMarket, startTestMarket } from '../support/market';

const NOW = new Date('2025-01-15T12:00:00Z');
const UNKNOWN_ADDRESS = 'UnknownAddressUnknownAddressUnknownAddress1';

let market: TestMarket;

beforeAll(async () => {
  market = await startTestMarket({ simulator: { now: () => NOW.getTime() }, now: () => NOW });
});

afterAll(async () => {
  await market.close();
});

function lines(card: Card, index: number): string[] {
  return plainText(card.fields[index]?.value ?? []).split('\n');
}

/** Realised profit computed from the raw record: sale minus the average cost of the sold part. */
function realised(holder: WireHolder): number | null {
  if (holder.totalSoldAmount <= 0) return 0;
  if (holder.totalBoughtAmount <= 0) return null;
  return holder.totalSoldUSD - holder.totalBoughtUSD * Math.min(1, holder.totalSoldAmount / holder.totalBoughtAmount);
}

describe('/holders against the simulator', () => {
  const address = () => market.listing.tokens[0]?.address ?? '';

  for (const sort of HOLDER_SORTS.map((s) => s.value)) {
    it(`agrees with holders-history sorted by ${sort}`, async () => {
      const raw = await market.raw<WireHolder[]>(`/api/holders-history?address=${address()}&sortBy=${sort}`);
      const envelope = await market.raw<WireTokenEnvelope>(`/api/token-data?address=${address()}`);
      const token = envelope.data[address()];
      if (!token) throw new Error('no token');
      const card = await holdersCard(market.client, address(), sort, NOW);

      expect(card.fields).toHaveLength(Math.min(HOLDERS_SHOWN, raw.length));
      expect(card.footer).toBe(`${shortAddress(address())} · ${card.fields.length} of ${raw.length} wallets that ever held it`);
      raw.slice(0, HOLDERS_SHOWN).forEach((holder, i) => {
        const share = (Number(holder.currentlyHoldingAmount) / Number(token.totalSupply)) * 100;
        expect(card.fields[i]?.name).toBe(
          `#${i + 1} · ${holder.currentlyHoldingAmount === '0' ? 'exited' : `${percent(share)} of supply`}`,
        );
        expect(card.fields[i]?.value[0]?.url).toBe(`https://solscan.io/account/${holder.address}`);
        const [first, money] = lines(card, i);
        expect(first).toBe(
          `${shortAddress(holder.address)} · ${formatTokenAmount(BigInt(holder.currentlyHoldingAmount), token.decimals)} ${token.symbol} · since ${relativeTime(holder.holderSince, NOW)}`,
        );
        const profit = realised(holder);
        const profitText = profit === null ? '—' : profit > 0 ? `+${usd(profit)}` : usd(profit);
        expect(money).toBe(`Bought ${usd(holder.totalBoughtUSD)} · Sold ${usd(holder.totalSoldUSD)} · Realised ${profitText}`);
      });
    });
  }

  it('refuses an order the service does not take, before any request', async () => {
    const before = market.sim.stats.count();
    const error = await holdersCard(market.client, address(), 'share', NOW).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isMarketError(error) && error.kind).toBe('invalid-parameter');
    expect(market.sim.stats.count()).toBe(before);
    expect((await answered(market.query.holders(address(), 'share'))).color).toBe('error');
  });

  it('builds a safe card for every hostile token and every order', async () => {
    for (const hostile of market.sim.market.hostileTokens()) {
      for (const sort of HOLDER_SORTS.map((s) => s.value)) {
        const card = await holdersCard(market.client, hostile, sort, NOW);
        expectSafeCard(card);
        expect(card.fields.length).toBeGreaterThan(0);
      }
    }
  });

  it('fails as not-found for an unknown well-formed address', async () => {
    const error = await holdersCard(market.client, UNKNOWN_ADDRESS, undefined, NOW).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isMarketError(error) && error.kind).toBe('not-found');
  });
});

describe('the holders command', () => {
  it('offers the service’s sort orders with friendly labels', () => {
    checkCommand(holdersCommand, 'holders.ts');
    const sort = holdersCommand.options.find((o): o is ChoiceOption => o.name === 'sort' && o.type === 'choice');
    expect(sort?.required).toBe(false);
    expect(sort?.choices.map((c) => c.value)).toEqual(['balance', 'holderSince', 'totalBoughtUSD', 'totalSoldUSD']);
    for (const choice of sort?.choices ?? []) expect(choice.label).not.toBe(choice.value);
  });

  it('parses an address and an optional order', () => {
    const address = market.listing.tokens[0]?.address ?? '';
    expect(parseCommandLine(`/holders ${address}`, [holdersCommand])?.args).toEqual({ address, sort: undefined });
    expect(parseCommandLine(`/holders ${address} totalsoldusd`, [holdersCommand])?.args).toEqual({ address, sort: 'totalSoldUSD' });
    expect(() => parseCommandLine(`/holders ${address} share`, [holdersCommand])).toThrow(UsageError);
  });

  it('runs the query service with the chosen order', async () => {
    const address = market.listing.tokens[0]?.address ?? '';
    const ctx: CommandContext = commandContext({ query: market.query, commands: [holdersCommand], now: () => NOW });
    const card = await holdersCommand.run({ address, sort: 'holderSince' }, ctx);
    expect(card).toEqual(await holdersCard(market.client, address, 'holderSince', NOW));
  });
});
