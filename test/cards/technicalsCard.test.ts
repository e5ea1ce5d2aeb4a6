import { describe, expect, it } from 'vitest';
import { type Card, plainText } from '../../src/cards/card';
import { formatTokenAmount, percent } from '../../src/text/format';
import { buildTechnicalsCard, initialBuyerCounts } from '../../src/cards/technicalsCard';
import { TechnicalsSchema, TokenSchema, type Technicals } from '../../src/market/schemas';
import { expectSafeCard } from '../support/cardSafety';

const TOKEN = '646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25';
const WALLETS = [
  'BsLCa1k7Kk4RGqHUcBWyLNrpjf1evUhX8Yp3C4ktZXkp',
  '28uzqbEt9HZB6LEXNKro75RGeTLDEQvbkrEY9j3EfzDd',
  '1tHC6zrr7aL3HaSgPaDatnG6ENRrx1XhT8UcNzA1etS',
  '59HMBfjZm65EWkqXow7x5vDkSwVnCbQF5153tEMSGUkw',
  'J6BuAE76wEpGSw2fKsz17CdUuQg28K61WPmkogESBSe1',
];
const NOW = new Date('2025-01-15T12:00:00Z');

function point(hoursAgo: number, holders: number, top10: number) {
  const at = new Date(NOW.getTime() - hoursAgo * 3_600_000).toISOString();
  return {
    id: `p${hoursAgo}`,
    contractAddress: TOKEN,
    chainId: 1399811149,
    syncedAt: at,
    holdersCount: holders,
    tagsCount: 3,
    topHoldersSupply: { '10': String(top10 * 5_000_000_000), '20': '150000000000000', '50': '200000000000000', '100': '250000000000000' },
    topHoldersSupplyPerc: { '10': top10, '20': 30, '50': 40, '100': 50 },
  };
}

function technicals(overrides: Record<string, unknown> = {}): Technicals {
  return TechnicalsSchema.parse({
    // Deliberately out of order: the card must read them most recent first.
    overtimeTechnicals: Array.from({ length: 24 }, (_, k) => point(23 - k, 200 - (23 - k), 10 + (23 - k) * 0.5)),
    tokenStats: [
      {
        devDeployedTokens: ['A', 'B', 'C', 'D'],
        devDeployedTokensCount: 4,
        isDevRug: false,
        isDevNew: false,
        devSoldSupply: '5000000000000',
        devSoldSupplyPerc: 1,
        initialTotalBoughtSupply: '100000000000000',
        priceNative: 0.0000016,
        liquidityNative: 104.8,
      },
    ],
    devMakerData: {
      totalBoughtAmount: '27649513840243',
      totalSoldAmount: '5000000000000',
      totalBoughtETH: '2.262114474',
      totalSoldETH: '1.5',
      totalSoldUSD: '300',
      totalBuyTransactions: 2,
      totalSellTransactions: 1,
    },
    initialBuyerStats: [
      { walletAddress: WALLETS[0], initialBuyerType: 'SELL_ALL', sniper: true, buyAmount: '6971302085562', sellAmount: '6971302085562' },
      {
        walletAddress: WALLETS[1],
        initialBuyerType: 'SELL_PARTIAL',
        sniper: true,
        buyAmount: '6703819676780',
        sellAmount: '1340763935356',
      },
      { walletAddress: WALLETS[2], initialBuyerType: 'HOLD', sniper: false, buyAmount: '6760776578578', sellAmount: null },
      {
        walletAddress: WALLETS[3],
        initialBuyerType: 'SELL_PARTIAL',
        sniper: true,
        buyAmount: '15257915489038',
        sellAmount: '13608255645516',
      },
      { walletAddress: WALLETS[4], initialBuyerType: 'HOLD', sniper: false, buyAmount: '100', sellAmount: null },
    ],
    ...overrides,
  });
}

const token = TokenSchema.parse({
  address: TOKEN,
  chainId: 1399811149,
  decimals: 6,
  name: 'Neon Mochi',
  symbol: 'MOCHI',
  totalSupply: '500000000000000',
  riskStatus: 'DANGER',
});

function fieldText(card: Card, name: string): string {
  const found = card.fields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name} in ${card.fields.map((f) => f.name).join(', ')}`);
  return plainText(found.value);
}

describe('buildTechnicalsCard', () => {
  const card = buildTechnicalsCard({ address: TOKEN, technicals: technicals(), token, now: NOW });

  it('names the token and links it', () => {
    expect(card.title).toBe('Technicals · Neon Mochi (MOCHI)');
    expect(card.url).toBe(`https://solscan.io/token/${TOKEN}`);
    expect(card.color).toBe('danger');
    expect(card.footer).toBe('646S…uH25 · synced just now');
    expect(card.actions.map((a) => a.command)).toEqual(['token', 'holders', 'chart']);
  });

  it('shows holder concentration now first, then 6 h and about a day before', () => {
    expect(fieldText(card, 'Holder Concentration').split('\n')).toEqual([
      `Top 10: ${percent(10)} · 6h ago ${percent(13)} · 23h ago ${percent(21.5)}`,
      `Top 20: ${percent(30)} · 6h ago ${percent(30)} · 23h ago ${percent(30)}`,
      `Top 50: ${percent(40)} · 6h ago ${percent(40)} · 23h ago ${percent(40)}`,
      `Top 100: ${percent(50)} · 6h ago ${percent(50)} · 23h ago ${percent(50)}`,
    ]);
    expect(fieldText(card, 'Holders')).toBe('200 (+23 in 23h)');
  });

  it('computes shares from amounts when the service gives no percentages', () => {
    const amountsOnly = technicals({
      overtimeTechnicals: [{ ...point(0, 10, 0), topHoldersSupply: { '10': '125000000000000' }, topHoldersSupplyPerc: {} }],
    });
    const only = buildTechnicalsCard({ address: TOKEN, technicals: amountsOnly, token, now: NOW });
    expect(fieldText(only, 'Holder Concentration')).toBe(`Top 10: ${percent(25)}`);
    expect(fieldText(only, 'Holders')).toBe('10');
  });

  it('shows the developer: other tokens, rug history, new or not, share sold, own trades', () => {
    expect(fieldText(card, 'Dev Other Tokens')).toBe('4');
    expect(fieldText(card, 'Dev Rugged Before')).toBe('no ✅');
    expect(fieldText(card, 'Dev New')).toBe('no');
    expect(fieldText(card, 'Dev Sold')).toBe(`${percent(1)} of supply`);
    expect(fieldText(card, 'Dev Trades').split('\n')).toEqual([
      `Bought ${formatTokenAmount(27649513840243n, 6)} MOCHI for 2.262 SOL in 2 buys`,
      `Sold ${formatTokenAmount(5000000000000n, 6)} MOCHI for 1.5 SOL ($300.00) in 1 sell`,
    ]);
  });

  it('says a developer who never sold sold none, not "0 for 0 in 0 sells"', () => {
    const base = technicals();
    const neverSold = technicals({
      devMakerData: { ...base.devMakerData, totalSoldAmount: '0', totalSoldETH: '0', totalSoldUSD: '0', totalSellTransactions: 0 },
    });
    const built = buildTechnicalsCard({ address: TOKEN, technicals: neverSold, token, now: NOW });
    expect(fieldText(built, 'Dev Trades').split('\n')).toEqual([
      `Bought ${formatTokenAmount(27649513840243n, 6)} MOCHI for 2.262 SOL in 2 buys`,
      'Sold none',
    ]);
  });

  it('counts initial buyers by type and snipers and lists the largest', () => {
    expect(initialBuyerCounts(technicals().initialBuyerStats)).toEqual({ hold: 2, sellPartial: 2, sellAll: 1, other: 0, snipers: 3 });
    expect(fieldText(card, 'Initial Buyers').split('\n')).toEqual([
      '5 buyers: 2 hold · 2 sold part · 1 sold all · 3 snipers',
      `Bought ${percent(20)} of supply at launch`,
    ]);
    const largest = fieldText(card, 'Largest Initial Buyers').split('\n');
    expect(largest).toEqual([
      `59HM…GUkw · bought ${formatTokenAmount(15257915489038n, 6)} MOCHI · sold ${formatTokenAmount(13608255645516n, 6)} MOCHI (part) · sniper`,
      `BsLC…ZXkp · bought ${formatTokenAmount(6971302085562n, 6)} MOCHI · sold ${formatTokenAmount(6971302085562n, 6)} MOCHI (all) · sniper`,
      `1tHC…1etS · bought ${formatTokenAmount(6760776578578n, 6)} MOCHI · holds`,
    ]);
  });

  it('builds with no token, no points, no stats and hostile buyer data', () => {
    const bare = TechnicalsSchema.parse({
      overtimeTechnicals: [],
      tokenStats: [],
      devMakerData: null,
      initialBuyerStats: [
        { walletAddress: '@everyone\u202e', initialBuyerType: '<@&1>\u200bRUG', sniper: null, buyAmount: null, sellAmount: null },
      ],
    });
    const card = buildTechnicalsCard({ address: TOKEN, technicals: bare, token: null, now: NOW });
    expectSafeCard(card);
    expect(card.title).toBe('Technicals · 646S…uH25');
    expect(card.color).toBe('info');
    expect(fieldText(card, 'Holders')).toBe('—');
    expect(fieldText(card, 'Holder Concentration')).toBe('—');
    expect(card.fields.some((f) => f.name.startsWith('Dev'))).toBe(false);
    expect(fieldText(card, 'Initial Buyers')).toContain('1 buyer: 0 hold · 0 sold part · 0 sold all · 1 other · 0 snipers');
  });
});
