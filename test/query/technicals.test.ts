import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answered, commandContext } from '../support/commandContext';
import technicalsCommand from '../../commands/technicals';
import { type Card, plainText } from '../../src/cards/card';
import { formatTokenAmount, percent, shortAddress } from '../../src/text/format';
import type { CommandContext } from '../../src/dispatch/command';
import { UsageError, parseCommandLine } from '../../src/dispatch/parseArgs';
import { checkCommand } from '../../src/dispatch/registry';
import { isMarketError } from '../../src/market/errors';
import { technicalsCard } from '../../src/query/technicalsQuery';
import type { WireTechnicals } from 'tmds-simulator';
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

function fieldText(card: Card, name: string): string {
  const found = card.fields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name} in ${card.fields.map((f) => f.name).join(', ')}`);
  return plainText(found.value);
}

async function rawTechnicals(address: string): Promise<WireTechnicals> {
  return (await market.raw<{ data: WireTechnicals }>(`/api/token-technicals?address=${address}`)).data;
}

describe('/technicals against the simulator', () => {
  it('agrees with token-technicals: concentration, holders, developer, initial buyers', async () => {
    for (const { address } of market.listing.tokens.slice(0, 8)) {
      const raw = await rawTechnicals(address);
      const card = await technicalsCard(market.client, address, NOW);
      const newest = raw.overtimeTechnicals[0];
      if (!newest) throw new Error('no points');

      // Concentration: the newest point first, for every top-N the service gives.
      const lines = fieldText(card, 'Holder Concentration').split('\n');
      expect(lines.map((line) => line.split(' · ')[0])).toEqual(
        Object.entries(newest.topHoldersSupplyPerc)
          .sort(([a], [b]) => Number(a) - Number(b))
          .map(([n, share]) => `Top ${n}: ${percent(share)}`),
      );
      expect(fieldText(card, 'Holders').split(' ')[0]).toBe(newest.holdersCount.toLocaleString('en-US'));

      const stats = raw.tokenStats[0];
      if (!stats) throw new Error('no tokenStats');
      expect(fieldText(card, 'Dev Other Tokens')).toBe(String(stats.devDeployedTokensCount));
      expect(fieldText(card, 'Dev Rugged Before')).toMatch(stats.isDevRug ? /^yes/ : /^no/);
      expect(fieldText(card, 'Dev New')).toBe(stats.isDevNew ? 'yes' : 'no');
      expect(fieldText(card, 'Dev Sold')).toBe(`${percent(stats.devSoldSupplyPerc)} of supply`);
      expect(fieldText(card, 'Dev Trades')).toContain(`in ${raw.devMakerData.totalBuyTransactions} buy`);

      const buyers = raw.initialBuyerStats;
      const count = (type: string) => buyers.filter((b) => b.initialBuyerType === type).length;
      const snipers = buyers.filter((b) => b.sniper).length;
      expect(fieldText(card, 'Initial Buyers').split('\n')[0]).toBe(
        `${buyers.length} ${buyers.length === 1 ? 'buyer' : 'buyers'}: ${count('HOLD')} hold · ${count('SELL_PARTIAL')} sold part · ${count('SELL_ALL')} sold all · ${snipers} ${snipers === 1 ? 'sniper' : 'snipers'}`,
      );
      const largest = [...buyers].sort((a, b) => Number(b.buyAmount) - Number(a.buyAmount))[0];
      if (largest) {
        const first = fieldText(card, 'Largest Initial Buyers').split('\n')[0] ?? '';
        expect(
          first.startsWith(`${shortAddress(largest.walletAddress)} · bought ${formatTokenAmount(BigInt(largest.buyAmount), 6)} `),
        ).toBe(true);
      }
    }
  });

  it('compares the newest concentration with the readings 6 h and about a day before', async () => {
    const address = market.listing.tokens[0]?.address ?? '';
    const raw = await rawTechnicals(address);
    const card = await technicalsCard(market.client, address, NOW);
    const at = (hours: number) => raw.overtimeTechnicals.find((p) => Date.parse(p.syncedAt) === NOW.getTime() - hours * 3_600_000);
    const six = at(6);
    const oldest = raw.overtimeTechnicals.at(-1);
    if (!six || !oldest) throw new Error('missing points');
    const hoursBack = (NOW.getTime() - Date.parse(oldest.syncedAt)) / 3_600_000;
    expect(fieldText(card, 'Holder Concentration').split('\n')[0]).toBe(
      `Top 10: ${percent(raw.overtimeTechnicals[0]?.topHoldersSupplyPerc['10'] ?? NaN)} · 6h ago ${percent(six.topHoldersSupplyPerc['10'] ?? NaN)} · ${hoursBack}h ago ${percent(oldest.topHoldersSupplyPerc['10'] ?? NaN)}`,
    );
  });

  it('builds a safe card for every hostile token', async () => {
    for (const address of market.sim.market.hostileTokens()) {
      const card = await technicalsCard(market.client, address, NOW);
      expectSafeCard(card);
      expect(card.title.startsWith('Technicals · ')).toBe(true);
    }
  });

  it('fails as not-found for an unknown well-formed address', async () => {
    const error = await technicalsCard(market.client, UNKNOWN_ADDRESS, NOW).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isMarketError(error) && error.kind).toBe('not-found');
    expect((await answered(market.query.technicals(UNKNOWN_ADDRESS))).color).toBe('error');
  });
});

describe('the technicals command', () => {
  it('is a valid definition that parses an address and rejects anything else', () => {
    checkCommand(technicalsCommand, 'technicals.ts');
    const address = market.listing.tokens[0]?.address ?? '';
    expect(parseCommandLine(`/technicals ${address}`, [technicalsCommand])?.args).toEqual({ address });
    expect(() => parseCommandLine('/technicals 0x12', [technicalsCommand])).toThrow(UsageError);
  });

  it('runs the query service', async () => {
    const address = market.listing.tokens[0]?.address ?? '';
    const ctx: CommandContext = commandContext({ query: market.query, commands: [technicalsCommand], now: () => NOW });
    const card = await technicalsCommand.run({ address }, ctx);
    expect(card.title).toBe((await technicalsCard(market.client, address, NOW)).title);
  });
});
