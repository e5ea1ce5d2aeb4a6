import { describe, expect, it } from 'vitest';
import { plainText } from '../../src/cards/card';
import { formatTokenAmount, percent, usd } from '../../src/text/format';
import { HOLDERS_SHOWN, HOLDER_SORTS, buildHoldersCard, isHolderSort, realisedProfitUsd } from '../../src/cards/holdersCard';
import { HolderSchema, TokenSchema, type Holder } from '../../src/market/schemas';
import { expectSafeCard } from '../support/cardSafety';

const TOKEN = '646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25';
const WALLET = '5TWY5giTQjmgJgwgaQkCjiv7CovhojanR44w4ftscE1V';
const NOW = new Date('2025-01-15T12:00:00Z');
const NOW_SECS = NOW.getTime() / 1000;

const token = TokenSchema.parse({
  address: TOKEN,
  chainId: 1399811149,
  decimals: 6,
  name: 'Neon Mochi',
  symbol: 'MOCHI',
  totalSupply: '500000000000000',
  holdersCount: '201',
  top10HoldersSupply: '88162532811189',
  riskStatus: 'SAFE',
});

function holder(overrides: Record<string, unknown> = {}): Holder {
  return HolderSchema.parse({
    chainId: 1399811149,
    tokenAddress: TOKEN,
    address: WALLET,
    currentlyHoldingAmount: '25236610160794',
    holderSince: NOW_SECS - 3 * 86_400,
    totalBoughtAmount: 27649513840243,
    totalBoughtETH: 2.262114474,
    totalBuyTransactions: 2,
    totalSellTransactions: 0,
    totalSoldAmount: 0,
    totalBoughtUSD: 451.74426,
    totalSoldUSD: 0,
    totalSoldETH: 0,
    sent: '2412903679449',
    received: 0,
    tags: ['dev', 'whale'],
    syncedAt: NOW.toISOString(),
    nativeBalance: '667179530',
    ...overrides,
  });
}

describe('realisedProfitUsd', () => {
  it('is the sale minus the average cost of what was sold', () => {
    expect(realisedProfitUsd(holder({ totalBoughtAmount: 1000, totalSoldAmount: 250, totalBoughtUSD: 400, totalSoldUSD: 300 }))).toBe(200);
  });
  it('caps the sold share at the whole when more was sold than bought', () => {
    expect(realisedProfitUsd(holder({ totalBoughtAmount: 100, totalSoldAmount: 300, totalBoughtUSD: 50, totalSoldUSD: 120 }))).toBe(70);
  });
  it('is 0 when nothing was sold and unknown when nothing was bought', () => {
    expect(realisedProfitUsd(holder({ totalSoldAmount: 0 }))).toBe(0);
    expect(realisedProfitUsd(holder({ totalBoughtAmount: 0, totalSoldAmount: 5, totalSoldUSD: 10 }))).toBeNull();
    expect(realisedProfitUsd(holder({ totalSoldAmount: 5, totalSoldUSD: null }))).toBeNull();
  });
});

describe('buildHoldersCard', () => {
  const holders = [
    holder(),
    holder({
      address: '28uzqbEt9HZB6LEXNKro75RGeTLDEQvbkrEY9j3EfzDd',
      currentlyHoldingAmount: '0',
      holderSince: NOW_SECS - 7200,
      totalBoughtAmount: 1000,
      totalSoldAmount: 1000,
      totalBoughtUSD: 100,
      totalSoldUSD: 40,
      tags: [],
    }),
  ];
  const card = buildHoldersCard({ token, holders, sortBy: 'balance', now: NOW });

  it('titles the token and says the order', () => {
    expect(card.title).toBe('Holders · Neon Mochi (MOCHI)');
    expect(card.color).toBe('safe');
    expect(plainText(card.description ?? [])).toBe(`Order: Largest balance · 201 holders · top 10 hold ${percent(17.632506)}`);
    expect(card.footer).toBe('646S…uH25 · 2 of 2 wallets that ever held it');
  });

  it('shows each holder: address link, amount, share, since, bought, sold, realised, tags', () => {
    expect(card.fields.map((f) => f.name)).toEqual([`#1 · ${percent(5.047322)} of supply`, '#2 · exited']);
    const first = card.fields[0]?.value ?? [];
    expect(first[0]).toEqual({ text: '5TWY…cE1V', url: `https://solscan.io/account/${WALLET}` });
    expect(plainText(first).split('\n')).toEqual([
      `5TWY…cE1V · ${formatTokenAmount(25236610160794n, 6)} MOCHI · since 3d ago`,
      `Bought ${usd(451.74426)} · Sold $0 · Realised $0`,
      'Tags: dev, whale',
    ]);
    expect(plainText(card.fields[1]?.value ?? []).split('\n')).toEqual([
      '28uz…fzDd · 0 MOCHI · since 2h ago',
      `Bought $100.00 · Sold $40.00 · Realised ${usd(-60)}`,
    ]);
  });

  it('offers the token, its technicals and the other orders', () => {
    expect(card.actions).toEqual([
      { label: 'Token', command: 'token', args: [TOKEN] },
      { label: 'Technicals', command: 'technicals', args: [TOKEN] },
      { label: 'By Earliest', command: 'holders', args: [TOKEN, 'holderSince'] },
      { label: 'By Bought', command: 'holders', args: [TOKEN, 'totalBoughtUSD'] },
      { label: 'By Sold', command: 'holders', args: [TOKEN, 'totalSoldUSD'] },
    ]);
  });

  it(`shows at most ${HOLDERS_SHOWN} holders, in the given order`, () => {
    const many = Array.from({ length: 25 }, (_, i) => holder({ currentlyHoldingAmount: String(1000 - i) }));
    const long = buildHoldersCard({ token, holders: many, sortBy: 'totalSoldUSD', now: NOW });
    expect(long.fields).toHaveLength(HOLDERS_SHOWN);
    expect(long.footer).toBe(`646S…uH25 · ${HOLDERS_SHOWN} of 25 wallets that ever held it`);
    expect(plainText(long.description ?? [])).toContain('Most sold (USD)');
  });

  it('knows the service’s sort orders', () => {
    expect(HOLDER_SORTS.map((s) => s.value)).toEqual(['balance', 'holderSince', 'totalBoughtUSD', 'totalSoldUSD']);
    expect(isHolderSort('holderSince')).toBe(true);
    expect(isHolderSort('share')).toBe(false);
  });

  it('builds from hostile and missing data', () => {
    const bare = TokenSchema.parse({ address: TOKEN, decimals: 6, name: '\u200b\u202e', symbol: '@everyone' });
    const hostile = holder({
      address: '<@&123456789012345678>\u202e',
      holderSince: null,
      totalBoughtUSD: null,
      totalSoldUSD: null,
      tags: ['@here', '\u0000', 'sniper\u200b', 'x'.repeat(200), 'sniper'],
    });
    const built = buildHoldersCard({ token: bare, holders: [hostile], sortBy: 'holderSince', now: NOW });
    expectSafeCard(built);
    expect(built.title).toBe('Holders · Unnamed token (＠everyone)');
    expect(built.fields[0]?.name).toBe('#1 · —');
    const lines = plainText(built.fields[0]?.value ?? []).split('\n');
    expect(lines[0]).toMatch(/ · since —$/);
    expect(lines[1]).toBe('Bought — · Sold — · Realised $0');
    expect(lines[2]?.startsWith('Tags: ＠here, sniper, xxx')).toBe(true);
    expect(buildHoldersCard({ token: bare, holders: [], sortBy: 'balance', now: NOW }).fields).toEqual([
      { name: 'Holders', value: [{ text: 'none recorded' }], inline: false },
    ]);
  });
});
