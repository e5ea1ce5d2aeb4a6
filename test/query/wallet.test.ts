import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answered } from '../support/commandContext';
import { plainText, type Card } from '../../src/cards/card';
import { usd } from '../../src/text/format';
import { explorerTxUrl } from '../../src/cards/explorer';
import { MAX_TRADE_LINES } from '../../src/cards/walletCard';
import { MarketClient } from '../../src/market/client';
import { silentLogger } from '../../src/log';
import { QueryService } from '../../src/query/service';
import { walletCard } from '../../src/query/walletQuery';
import { expectSafeCard } from '../support/cardSafety';
import { startTestMarket, type TestMarket } from '../support/market';

interface RawMaker {
  address: string;
  tokenAddress: string;
  totalBoughtUSD: string;
  totalSoldUSD: string;
  totalBuyTransactions: number;
  totalSellTransactions: number;
}
interface RawTrade {
  timestamp: number;
  transactionHash: string;
  amountUSD: string;
  makerData: RawMaker;
}
interface RawHistory {
  tradeHistory: RawTrade[];
  tokensMetadata: Record<string, { decimals: number; symbol: string; name: string }>;
}

function fieldText(card: Card, name: string): string {
  return plainText(card.fields.find((f) => f.name === name)?.value ?? []);
}

/** The service's running totals of the newest trade per wallet and token, computed from the raw answer. */
function newestMakers(raw: RawHistory): Map<string, RawMaker[]> {
  const newest = new Map<string, RawTrade>();
  for (const trade of raw.tradeHistory) {
    const key = `${trade.makerData.tokenAddress}/${trade.makerData.address}`;
    const seen = newest.get(key);
    if (!seen || trade.timestamp > seen.timestamp) newest.set(key, trade);
  }
  const byToken = new Map<string, RawMaker[]>();
  for (const trade of newest.values()) {
    const list = byToken.get(trade.makerData.tokenAddress) ?? [];
    list.push(trade.makerData);
    byToken.set(trade.makerData.tokenAddress, list);
  }
  return byToken;
}

let m: TestMarket;
const now = new Date();

beforeAll(async () => {
  m = await startTestMarket({ now: () => now });
});
afterAll(async () => {
  await m.close();
});

describe('wallet card against the simulator', () => {
  it('lists the newest trades in the order and with the values of the REST data', async () => {
    const wallets = m.listing.wallets.slice(0, 2);
    const raw = await m.raw<RawHistory>(`/api/wallet-tracker?wallets=${wallets.join(',')}`);
    const trades = [...raw.tradeHistory].sort((a, b) => b.timestamp - a.timestamp);
    const card = await walletCard(m.client, wallets, now);

    const tokens = new Set(trades.map((t) => t.makerData.tokenAddress));
    expect(fieldText(card, 'Trades')).toBe(`${trades.length} in ${tokens.size} tokens`);
    const txLinks = (card.description ?? []).filter((span) => span.url?.includes('/tx/')).map((span) => span.url);
    expect(txLinks).toEqual(trades.slice(0, MAX_TRADE_LINES).map((t) => explorerTxUrl(t.transactionHash)));
    const firstLine = plainText(card.description ?? []).split('\n')[2] ?? '';
    expect(firstLine).toContain(`${usd(Number(trades[0]?.amountUSD))} now`);
  });

  it('sums the profit per token from the running totals of each wallet’s newest trade', async () => {
    const wallets = m.listing.wallets.slice(0, 3);
    const raw = await m.raw<RawHistory>(`/api/wallet-tracker?wallets=${wallets.join(',')}`);
    const card = await walletCard(m.client, wallets, now);
    const byToken = newestMakers(raw);

    const latest = raw.tradeHistory[0]?.makerData.tokenAddress ?? '';
    const makers = byToken.get(latest) ?? [];
    const bought = makers.reduce((sum, maker) => sum + Number(maker.totalBoughtUSD), 0);
    const sold = makers.reduce((sum, maker) => sum + Number(maker.totalSoldUSD), 0);
    const buys = makers.reduce((sum, maker) => sum + maker.totalBuyTransactions, 0);
    const sells = makers.reduce((sum, maker) => sum + maker.totalSellTransactions, 0);
    const first = card.fields[4];
    expect(plainText(first?.value ?? [])).toMatch(new RegExp(`^Bought \\${usd(bought)} · Sold \\${usd(sold)} · Realised `));
    expect(plainText(first?.value ?? [])).toContain(`${buys} buy${buys === 1 ? '' : 's'}, ${sells} sell${sells === 1 ? '' : 's'}`);

    const allMakers = [...byToken.values()].flat();
    expect(fieldText(card, 'Bought')).toBe(usd(allMakers.reduce((sum, maker) => sum + Number(maker.totalBoughtUSD), 0)));
    expect(fieldText(card, 'Sold')).toBe(usd(allMakers.reduce((sum, maker) => sum + Number(maker.totalSoldUSD), 0)));
  });

  it('names one wallet in the title and links it', async () => {
    const wallet = m.listing.wallets[0] ?? '';
    const card = await answered(m.query.wallet([wallet]));
    expect(card.title).toBe(`Wallet ${wallet.slice(0, 4)}…${wallet.slice(-4)}`);
    expect(card.url).toBe(`https://solscan.io/account/${wallet}`);
  });

  it('shows wallets that traded hostile tokens without invisible characters, bad links or live mentions', async () => {
    const hostile = m.sim.market.hostileTokens();
    const makers = new Set<string>();
    for (const token of hostile) {
      const all = await m.raw<RawHistory>(`/api/trades-history?baseToken=${token}&wallets=${m.listing.wallets.join(',')}`);
      for (const trade of all.tradeHistory.slice(0, 2)) makers.add(trade.makerData.address);
    }
    const wallets = [...makers];
    for (let i = 0; i < wallets.length; i += 5) {
      const card = await answered(m.query.wallet(wallets.slice(i, i + 5)));
      expect(card.color).toBe('info');
      expectSafeCard(card);
    }
    const shown = await answered(m.query.wallet(wallets.slice(0, 5)));
    expect(JSON.stringify(shown)).toContain('＠');
  });

  it('tells a person to wait when the service is busy, and how long', async () => {
    m.sim.faults.set({ 'wallet-tracker': { script: ['429'], retryAfterSecs: 45 } });
    try {
      const card = await answered(m.query.wallet([m.listing.wallets[5] ?? '']));
      expect(card.title).toBe('Service busy');
      // A wait beyond TMDS_RATE_LIMIT_MAX_WAIT (30 s by default) is told as that cap: the next call asks again.
      expect(plainText(card.description ?? [])).toContain('try again in 30 s');
    } finally {
      m.sim.faults.clear();
    }
  });

  it('tells the operator to check the API key, without showing it', async () => {
    const wrongKey = 'wrong-key-5c2e8a1f';
    const client = new MarketClient({ baseUrl: m.sim.baseUrl, apiKey: wrongKey, logger: silentLogger, maxRetries: 0 });
    try {
      const card = await answered(new QueryService(client, () => now).wallet([m.listing.wallets[0] ?? '']));
      expect(card.title).toBe('API key refused');
      expect(plainText(card.description ?? [])).toContain('TMDS_API_KEY');
      expect(JSON.stringify(card)).not.toContain(wrongKey);
    } finally {
      await client.close();
    }
  });

  it('answers an empty wallet list with a clear card', async () => {
    const card = await answered(m.query.wallet([]));
    expect(card.title).toBe('Something is missing');
    expect(plainText(card.description ?? [])).toContain('Give at least one wallet address.');
  });
});
