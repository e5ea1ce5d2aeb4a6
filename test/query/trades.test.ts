import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answered } from '../support/commandContext';
import { plainText, type Card, type CardField } from '../../src/cards/card';
import { formatTokenAmount, solFromLamports, usd } from '../../src/text/format';
import { explorerTxUrl } from '../../src/cards/explorer';
import { MAX_TRADE_FIELDS } from '../../src/cards/tradesCard';
import { tradesCard } from '../../src/query/tradesQuery';
import { expectSafeCard } from '../support/cardSafety';
import { startTestMarket, type TestMarket } from '../support/market';

interface RawTrade {
  timestamp: number;
  transactionHash: string;
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
  amountOut: string;
  amountUSD: string;
  makerData: { address: string; tokenAddress: string };
}
interface RawHistory {
  tradeHistory: RawTrade[];
  tokensMetadata: Record<string, { decimals: number; symbol: string; name: string }>;
}

let m: TestMarket;
const now = new Date();

beforeAll(async () => {
  m = await startTestMarket({ now: () => now });
});
afterAll(async () => {
  await m.close();
});

function tradeFields(card: Card): CardField[] {
  return card.fields.filter((f) => /^(Buy|Sell|Swap) · /.test(f.name));
}

/** A token the first two shared wallets traded, and their trades in it, straight from the REST API. */
async function tradedToken(): Promise<{ token: string; wallets: string[]; raw: RawHistory }> {
  const wallets = m.listing.wallets.slice(0, 2);
  const tracker = await m.raw<RawHistory>(`/api/wallet-tracker?wallets=${wallets.join(',')}`);
  const token = tracker.tradeHistory[0]?.makerData.tokenAddress;
  if (!token) throw new Error('the simulator has no trades for its shared wallets');
  const raw = await m.raw<RawHistory>(`/api/trades-history?baseToken=${token}&wallets=${wallets.join(',')}`);
  return { token, wallets, raw };
}

describe('trades card against the simulator', () => {
  it('agrees with the REST data: count, order, amounts and USD of the newest trade', async () => {
    const { token, wallets, raw } = await tradedToken();
    const card = await tradesCard(m.client, token, wallets, now);
    const trades = [...raw.tradeHistory].sort((a, b) => b.timestamp - a.timestamp);
    expect(trades.length).toBeGreaterThan(1);

    expect(plainText(card.fields[0]?.value ?? [])).toMatch(new RegExp(`^${trades.length}\\b`));
    const fields = tradeFields(card);
    expect(fields).toHaveLength(Math.min(MAX_TRADE_FIELDS, trades.length));
    const shownTx = fields.map((f) => f.value.find((span) => span.url?.includes('/tx/'))?.url);
    expect(shownTx).toEqual(trades.slice(0, MAX_TRADE_FIELDS).map((t) => explorerTxUrl(t.transactionHash)));

    const newest = trades[0];
    if (!newest) throw new Error('no trade');
    const meta = raw.tokensMetadata[token];
    if (!meta) throw new Error('no metadata');
    const buy = newest.tokenOut === token;
    const text = plainText(fields[0]?.value ?? []);
    expect(fields[0]?.name.startsWith(buy ? 'Buy' : 'Sell')).toBe(true);
    expect(text).toContain(usd(Number(newest.amountUSD)));
    expect(text).toContain(`${formatTokenAmount(BigInt(buy ? newest.amountOut : newest.amountIn), meta.decimals)} `);
    expect(text).toContain(solFromLamports(BigInt(buy ? newest.amountIn : newest.amountOut)));
  });

  it('totals bought and sold as the REST data does', async () => {
    const { token, wallets, raw } = await tradedToken();
    const card = await tradesCard(m.client, token, wallets, now);
    const buys = raw.tradeHistory.filter((t) => t.tokenOut === token);
    const sells = raw.tradeHistory.filter((t) => t.tokenIn === token);
    const lamports = (list: RawTrade[], field: 'amountIn' | 'amountOut') => list.reduce((sum, t) => sum + BigInt(t[field]), 0n);
    const bought = plainText(card.fields.find((f) => f.name === 'Bought')?.value ?? []);
    const sold = plainText(card.fields.find((f) => f.name === 'Sold')?.value ?? []);
    expect(bought.startsWith(`${buys.length} · ${solFromLamports(lamports(buys, 'amountIn'))} · `)).toBe(true);
    expect(sold.startsWith(`${sells.length} · ${solFromLamports(lamports(sells, 'amountOut'))} · `)).toBe(true);
  });

  it('says so when the wallets never traded the token', async () => {
    const { token } = await tradedToken();
    const all = await m.raw<RawHistory>(`/api/trades-history?baseToken=${token}&wallets=${m.listing.wallets.join(',')}`);
    const makers = new Set(all.tradeHistory.map((t) => t.makerData.address));
    const idle = m.listing.wallets.find((wallet) => !makers.has(wallet));
    expect(idle).toBeDefined();
    const card = await tradesCard(m.client, token, [idle ?? ''], now);
    expect(card.title.startsWith('No trades in ')).toBe(true);
    expect(plainText(card.description ?? [])).toMatch(/^No trades by these wallets in /);
  });

  it('answers bad input and unknown tokens with an error card through the query service', async () => {
    const wallet = m.listing.wallets[0] ?? '';
    const notAddress = await answered(m.query.trades('not-an-address', [wallet]));
    expect(notAddress.title).toBe('Not an address');
    expect(notAddress.color).toBe('error');
    const unknown = await answered(m.query.trades('DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263', [wallet]));
    expect(unknown.title).toBe('Not found');
  });

  it('shows trades in every hostile token without invisible characters, bad links or live mentions', async () => {
    for (const token of m.sim.market.hostileTokens()) {
      const all = await m.raw<RawHistory>(`/api/trades-history?baseToken=${token}&wallets=${m.listing.wallets.join(',')}`);
      const makers = [...new Set(all.tradeHistory.map((t) => t.makerData.address))].slice(0, 3);
      expect(makers.length, token).toBeGreaterThan(0);
      const card = await m.query.trades(token, makers);
      expect(card.color, token).toBe('info');
      expect(tradeFields(card).length, token).toBeGreaterThan(0);
      expectSafeCard(card);
    }
  });
});
