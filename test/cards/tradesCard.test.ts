import { describe, expect, it } from 'vitest';
import { plainText, type Card, type CardField } from '../../src/cards/card';
import { UNSAFE_CHARACTER } from '../../src/text/sanitize';
import { solAmountOf, tokenAmountOf, tokenInfoFrom, tokenTitle, tradeSide, tradeToken } from '../../src/cards/tradeFacts';
import { WSOL_ADDRESS } from '../../src/market/address';
import { buildTradesCard, MAX_TRADE_FIELDS } from '../../src/cards/tradesCard';
import { TradeHistorySchema, type TradeHistory } from '../../src/market/schemas';

const TOKEN = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const WALLET_A = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const WALLET_B = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const NOW = new Date('2025-01-01T12:00:00Z');
const NOW_SECS = NOW.getTime() / 1000;

interface Wire {
  side: 'buy' | 'sell';
  wallet?: string;
  token?: string;
  tokens: string;
  lamports: string;
  usd: string;
  at: number;
  hash: string;
}

function wireTrade(t: Wire): Record<string, unknown> {
  const token = t.token ?? TOKEN;
  const buy = t.side === 'buy';
  return {
    chainId: 1399811149,
    timestamp: t.at,
    blockTimestamp: t.at,
    transactionHash: t.hash,
    tokenIn: buy ? WSOL_ADDRESS : token,
    tokenOut: buy ? token : WSOL_ADDRESS,
    amountIn: buy ? t.lamports : t.tokens,
    amountOut: buy ? t.tokens : t.lamports,
    amountUSD: t.usd,
    suspectedBaseTokenPrice: '0.0000025',
    suspectedBaseTokenPriceUSD: '0.0005',
    poolAddress: 'Pool1111111111111111111111111111111111111111',
    makerData: { address: t.wallet ?? WALLET_A, tokenAddress: token, totalBuyTransactions: 1, totalSellTransactions: 0, tags: [] },
  };
}

const sig = (c: string) => c.repeat(88);

function history(trades: Wire[], metadata: Record<string, unknown> = {}): TradeHistory {
  return TradeHistorySchema.parse({ tradeHistory: trades.map(wireTrade), tokensMetadata: metadata });
}

const META = { [TOKEN]: { address: TOKEN, name: 'Bonk', symbol: 'BONK', decimals: 5, logo: null } };
const BONK = tokenInfoFrom(TOKEN, META[TOKEN]);

function fieldsAfterSummary(card: Card): CardField[] {
  return card.fields.slice(3);
}

describe('trade facts', () => {
  const [buy, sell] = history([
    { side: 'buy', tokens: '150000000', lamports: '2500000000', usd: '500', at: NOW_SECS - 60, hash: sig('2') },
    { side: 'sell', tokens: '50000000', lamports: '900000000', usd: '180', at: NOW_SECS - 120, hash: sig('3') },
  ]).tradeHistory;

  it('reads side, amounts and token relative to the token', () => {
    if (!buy || !sell) throw new Error('fixture');
    expect(tradeSide(buy, TOKEN)).toBe('buy');
    expect(tradeSide(sell, TOKEN)).toBe('sell');
    expect(tradeSide(buy, WALLET_B)).toBeNull();
    expect(tokenAmountOf(buy, TOKEN)).toBe(150000000n);
    expect(tokenAmountOf(sell, TOKEN)).toBe(50000000n);
    expect(solAmountOf(buy)).toBe(2500000000n);
    expect(solAmountOf(sell)).toBe(900000000n);
    expect(tradeToken(buy)).toBe(TOKEN);
    expect(tradeToken(sell)).toBe(TOKEN);
  });

  it('names a token from its metadata, or by address', () => {
    expect(tokenTitle(BONK)).toBe('Bonk (BONK)');
    expect(tokenTitle(tokenInfoFrom(TOKEN, null))).toBe('DezX…B263');
    expect(tokenTitle(tokenInfoFrom(TOKEN, { address: TOKEN, name: '@everyone\u202E', symbol: '', decimals: 6, logo: null }))).toBe(
      '＠everyone',
    );
  });
});

describe('buildTradesCard', () => {
  const trades: Wire[] = [
    { side: 'buy', tokens: '150000000', lamports: '2500000000', usd: '500.5', at: NOW_SECS - 300, hash: sig('2') },
    { side: 'sell', wallet: WALLET_B, tokens: '50000000', lamports: '900000000', usd: '180', at: NOW_SECS - 7200, hash: sig('3') },
  ];

  it('lists each trade with side, amounts, USD, price, maker, time and transaction', () => {
    const card = buildTradesCard({ token: BONK, wallets: [WALLET_A, WALLET_B], history: history(trades, META), now: NOW });
    expect(card.title).toBe('Trades in Bonk (BONK)');
    expect(card.url).toBe(`https://solscan.io/token/${TOKEN}`);
    expect(card.color).toBe('info');
    expect(card.image).toBeUndefined();
    const [first, second] = fieldsAfterSummary(card);
    expect(first?.name).toBe('Buy · 5m ago');
    expect(plainText(first?.value ?? [])).toBe(
      `1.5K BONK for 2.5 SOL · $500.50\nPrice 0.0₅25 SOL ($0.0005) · Maker 7xKX…gAsU · Tx ${'2222'}…2222`,
    );
    expect(first?.value.find((span) => span.text === '7xKX…gAsU')?.url).toBe(`https://solscan.io/account/${WALLET_A}`);
    expect(first?.value.find((span) => span.text === '2222…2222')?.url).toBe(`https://solscan.io/tx/${sig('2')}`);
    expect(second?.name).toBe('Sell · 2h ago');
    expect(plainText(second?.value ?? [])).toMatch(/^500 BONK for 0\.9 SOL · \$180\.00\n.*Maker 9WzD…AWWM/);
  });

  it('totals buys and sells over every trade returned', () => {
    const card = buildTradesCard({ token: BONK, wallets: [WALLET_A], history: history(trades, META), now: NOW });
    expect(card.fields.slice(0, 3).map((f) => [f.name, plainText(f.value), f.inline])).toEqual([
      ['Trades', '2', true],
      ['Bought', '1 · 2.5 SOL · $500.50', true],
      ['Sold', '1 · 0.9 SOL · $180.00', true],
    ]);
  });

  it(`shows at most ${MAX_TRADE_FIELDS} trades, newest first, and says how many there are`, () => {
    const many: Wire[] = Array.from({ length: 14 }, (_, i) => ({
      side: i % 2 === 0 ? 'buy' : 'sell',
      tokens: String((i + 1) * 100000),
      lamports: '1000000000',
      usd: String(i + 1),
      at: NOW_SECS - 1000 + i,
      hash: sig('ABCDEFGHJKLMNP'[i] ?? 'Z'),
    }));
    const card = buildTradesCard({ token: BONK, wallets: [WALLET_A], history: history(many, META), now: NOW });
    expect(plainText(card.fields[0]?.value ?? [])).toBe(`14 (newest ${MAX_TRADE_FIELDS} below)`);
    const shown = fieldsAfterSummary(card);
    expect(shown).toHaveLength(MAX_TRADE_FIELDS);
    expect(plainText(shown[0]?.value ?? [])).toContain('$14.00');
    expect(plainText(shown[9]?.value ?? [])).toContain('$5.00');
  });

  it('says clearly when the wallets have no trades in the token', () => {
    const card = buildTradesCard({ token: BONK, wallets: [WALLET_A, WALLET_B], history: history([], META), now: NOW });
    expect(card.title).toBe('No trades in Bonk (BONK)');
    expect(plainText(card.description ?? [])).toMatch(/^No trades by these wallets in Bonk \(BONK\)\.\n2 wallets: 7xKX…gAsU, 9WzD…AWWM$/);
    expect(card.fields).toEqual([]);
    expect(card.color).toBe('neutral');
  });

  it('shows "—" for a token amount whose decimals are unknown', () => {
    const card = buildTradesCard({ token: tokenInfoFrom(TOKEN, null), wallets: [WALLET_A], history: history(trades), now: NOW });
    expect(card.title).toBe('Trades in DezX…B263');
    expect(plainText(fieldsAfterSummary(card)[0]?.value ?? [])).toMatch(/^— for 2\.5 SOL/);
  });

  it('keeps hostile names inert and clean', () => {
    const hostile = tokenInfoFrom(TOKEN, {
      address: TOKEN,
      name: '@everyone <@&1234> FREE\u200B\u202E',
      symbol: '@here\n',
      decimals: 5,
      logo: 'javascript:alert(1)',
    });
    const card = buildTradesCard({ token: hostile, wallets: [WALLET_A], history: history(trades), now: NOW });
    const json = JSON.stringify(card);
    expect(json).not.toMatch(/@everyone|@here|<@/i);
    expect(json).not.toMatch(/javascript:|data:/i);
    expect(UNSAFE_CHARACTER.test(card.title)).toBe(false);
    expect(card.title).toBe('Trades in ＠everyone <＠&1234> FREE (＠here)');
  });

  it('offers the token, its chart and the wallets as actions', () => {
    const card = buildTradesCard({ token: BONK, wallets: [WALLET_A, WALLET_B], history: history(trades, META), now: NOW });
    expect(card.actions).toEqual([
      { label: 'Token', command: 'token', args: [TOKEN] },
      { label: 'Chart', command: 'chart', args: [TOKEN] },
      { label: 'Wallet', command: 'wallet', args: [WALLET_A, WALLET_B] },
    ]);
  });
});
