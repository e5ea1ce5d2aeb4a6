import { describe, expect, it } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import { profitByToken, tokenInfoFrom, type TokenInfo } from '../../src/cards/tradeFacts';
import { WSOL_ADDRESS } from '../../src/market/address';
import { buildWalletCard, MAX_PROFIT_FIELDS, MAX_TRADE_LINES, signedUsd } from '../../src/cards/walletCard';
import { TradeHistorySchema, type TradeHistory } from '../../src/market/schemas';

const TOKEN_A = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const TOKEN_B = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const WALLET_1 = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const WALLET_2 = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const NOW = new Date('2025-01-01T12:00:00Z');
const T = NOW.getTime() / 1000;

interface Maker {
  bought: string;
  sold: string;
  boughtAmount: string;
  soldAmount: string;
  holding: string;
  buys: number;
  sells: number;
}

let sequence = 0;
function trade(token: string, wallet: string, side: 'buy' | 'sell', at: number, maker: Maker | null, usd = '10'): Record<string, unknown> {
  sequence += 1;
  const buy = side === 'buy';
  return {
    chainId: 1399811149,
    timestamp: at,
    transactionHash: String(sequence).padStart(2, '1').repeat(44).slice(0, 88).replace(/0/g, '9'),
    tokenIn: buy ? WSOL_ADDRESS : token,
    tokenOut: buy ? token : WSOL_ADDRESS,
    amountIn: buy ? '1000000000' : '2000000',
    amountOut: buy ? '2000000' : '1000000000',
    amountUSD: usd,
    suspectedBaseTokenPrice: '0.5',
    suspectedBaseTokenPriceUSD: '100',
    makerData:
      maker === null
        ? null
        : {
            address: wallet,
            tokenAddress: token,
            totalBoughtUSD: maker.bought,
            totalSoldUSD: maker.sold,
            totalBoughtAmount: maker.boughtAmount,
            totalSoldAmount: maker.soldAmount,
            currentlyHoldingAmount: maker.holding,
            totalBuyTransactions: maker.buys,
            totalSellTransactions: maker.sells,
            tags: [],
          },
  };
}

function history(trades: Array<Record<string, unknown>>): TradeHistory {
  return TradeHistorySchema.parse({ tradeHistory: trades, tokensMetadata: {} });
}

const INFOS: ReadonlyMap<string, TokenInfo> = new Map([
  [TOKEN_A, tokenInfoFrom(TOKEN_A, { address: TOKEN_A, name: 'Bonk', symbol: 'BONK', decimals: 6, logo: null })],
  [TOKEN_B, tokenInfoFrom(TOKEN_B, { address: TOKEN_B, name: 'USD Coin', symbol: 'USDC', decimals: 6, logo: null })],
]);

describe('profitByToken', () => {
  it('takes the running totals of the newest trade per wallet and token, summed over wallets', () => {
    const h = history([
      // Wallet 1 in A: bought 4 tokens for $100, sold 1 for $40; an older trade's totals are superseded.
      trade(TOKEN_A, WALLET_1, 'sell', T - 10, {
        bought: '100',
        sold: '40',
        boughtAmount: '4000000',
        soldAmount: '1000000',
        holding: '3000000',
        buys: 2,
        sells: 1,
      }),
      trade(TOKEN_A, WALLET_1, 'buy', T - 100, {
        bought: '100',
        sold: '0',
        boughtAmount: '4000000',
        soldAmount: '0',
        holding: '4000000',
        buys: 2,
        sells: 0,
      }),
      // Wallet 2 in A: bought 2 for $10, sold them all for $4.
      trade(TOKEN_A, WALLET_2, 'sell', T - 50, {
        bought: '10',
        sold: '4',
        boughtAmount: '2000000',
        soldAmount: '2000000',
        holding: '0',
        buys: 1,
        sells: 1,
      }),
      trade(TOKEN_B, WALLET_1, 'buy', T - 5, {
        bought: '7',
        sold: '0',
        boughtAmount: '7000000',
        soldAmount: '0',
        holding: '7000000',
        buys: 1,
        sells: 0,
      }),
    ]);
    const [b, a] = profitByToken(h.tradeHistory);
    expect(b).toMatchObject({
      token: TOKEN_B,
      wallets: 1,
      boughtUsd: 7,
      soldUsd: 0,
      realisedUsd: 0,
      buys: 1,
      sells: 0,
      holding: 7000000n,
      lastTradeAt: T - 5,
    });
    // Realised at average cost: wallet 1 sold 1/4 of what cost $100 → 40 − 25; wallet 2 sold all → 4 − 10.
    expect(a).toMatchObject({
      token: TOKEN_A,
      wallets: 2,
      boughtUsd: 110,
      soldUsd: 44,
      buys: 3,
      sells: 2,
      holding: 3000000n,
      lastTradeAt: T - 10,
    });
    expect(a?.realisedUsd).toBeCloseTo(15 - 6, 9);
  });

  it('counts sold tokens beyond those bought at the full cost of the buys', () => {
    const h = history([
      trade(TOKEN_A, WALLET_1, 'sell', T, {
        bought: '10',
        sold: '30',
        boughtAmount: '1000000',
        soldAmount: '3000000',
        holding: '0',
        buys: 1,
        sells: 2,
      }),
    ]);
    expect(profitByToken(h.tradeHistory)[0]?.realisedUsd).toBe(20);
  });

  it('leaves the cost unknown when nothing was bought', () => {
    const h = history([
      trade(TOKEN_A, WALLET_1, 'sell', T, {
        bought: '0',
        sold: '30',
        boughtAmount: '0',
        soldAmount: '3000000',
        holding: '0',
        buys: 0,
        sells: 1,
      }),
    ]);
    expect(profitByToken(h.tradeHistory)[0]?.realisedUsd).toBeNull();
  });

  it('counts listed trades when the service sent no totals', () => {
    const h = history([
      trade(TOKEN_A, WALLET_1, 'sell', T, null),
      trade(TOKEN_A, WALLET_1, 'buy', T - 1, null),
      trade(TOKEN_A, WALLET_1, 'buy', T - 2, null),
    ]);
    expect(profitByToken(h.tradeHistory)[0]).toMatchObject({
      buys: 2,
      sells: 1,
      boughtUsd: null,
      soldUsd: null,
      realisedUsd: null,
      holding: null,
    });
  });
});

function fieldText(card: Card, name: string): string | undefined {
  const found = card.fields.find((f) => f.name === name);
  return found && plainText(found.value);
}

describe('buildWalletCard', () => {
  const h = history([
    trade(
      TOKEN_B,
      WALLET_1,
      'buy',
      T - 60,
      { bought: '7', sold: '0', boughtAmount: '7000000', soldAmount: '0', holding: '7000000', buys: 1, sells: 0 },
      '7.5',
    ),
    trade(
      TOKEN_A,
      WALLET_1,
      'sell',
      T - 3600,
      { bought: '100', sold: '40', boughtAmount: '4000000', soldAmount: '1000000', holding: '3000000', buys: 2, sells: 1 },
      '41',
    ),
  ]);

  it('lists recent trades newest first, then profit per token', () => {
    const card = buildWalletCard({ wallets: [WALLET_1], history: h, tokens: INFOS, now: NOW });
    expect(card.title).toBe('Wallet 7xKX…gAsU');
    expect(card.url).toBe(`https://solscan.io/account/${WALLET_1}`);
    const lines = plainText(card.description ?? []).split('\n');
    expect(lines[0]).toBe('Trades, newest first:');
    expect(lines[1]).toMatch(/^Buy 2 USDC for 1 SOL · \$7\.50 now · 1m ago · \S+…\S+$/);
    expect(lines[2]).toMatch(/^Sell 2 BONK for 1 SOL · \$41\.00 now · 1h ago · /);
    expect(card.fields.slice(0, 4).map((f) => [f.name, plainText(f.value)])).toEqual([
      ['Trades', '2 in 2 tokens'],
      ['Bought', '$107.00'],
      ['Sold', '$40.00'],
      ['Realised', '+$15.00'],
    ]);
    expect(card.fields[4]?.name).toBe('USD Coin (USDC)');
    expect(fieldText(card, 'Bonk (BONK)')).toBe(
      'Bought $100.00 · Sold $40.00 · Realised +$15.00\n2 buys, 1 sell · Holding 3 BONK · last 1h ago',
    );
    expect(card.actions[0]).toEqual({ label: 'Trades', command: 'trades', args: [TOKEN_B, WALLET_1] });
  });

  it('names the maker of each line when several wallets are asked for', () => {
    const card = buildWalletCard({ wallets: [WALLET_1, WALLET_2], history: h, tokens: INFOS, now: NOW });
    expect(card.title).toBe('2 wallets');
    expect(card.url).toBeUndefined();
    const lines = plainText(card.description ?? []).split('\n');
    expect(lines[0]).toBe('Wallets: 7xKX…gAsU, 9WzD…AWWM');
    expect(lines[2]).toContain('· 7xKX…gAsU ·');
  });

  it(`caps lines at ${MAX_TRADE_LINES} and profit fields at ${MAX_PROFIT_FIELDS}, naming the other tokens`, () => {
    const tokens = Array.from({ length: 12 }, (_, i) => `Tok${String(i).padStart(2, '0')}${'1'.repeat(37)}`);
    const many = history(
      tokens.flatMap((token, i) => [trade(token, WALLET_1, 'buy', T - i * 10, null), trade(token, WALLET_1, 'sell', T - i * 10 - 5, null)]),
    );
    const card = buildWalletCard({ wallets: [WALLET_1], history: many, tokens: new Map(), now: NOW });
    const lines = plainText(card.description ?? []).split('\n');
    expect(lines[0]).toBe(`Newest ${MAX_TRADE_LINES} of 24 trades:`);
    expect(lines).toHaveLength(MAX_TRADE_LINES + 1);
    expect(card.fields).toHaveLength(4 + MAX_PROFIT_FIELDS + 1);
    expect(card.fields[card.fields.length - 1]?.name).toBe('Other Tokens');
    expect(fieldText(card, 'Other Tokens')?.split(', ')).toHaveLength(12 - MAX_PROFIT_FIELDS);
    // No totals from the service: USD unknown, never a made-up zero.
    expect(fieldText(card, 'Bought')).toBe('—');
  });

  it('says clearly when there are no trades', () => {
    const card = buildWalletCard({ wallets: [WALLET_1], history: history([]), tokens: INFOS, now: NOW });
    expect(plainText(card.description ?? [])).toBe('No trades by this wallet.');
    expect(card.color).toBe('neutral');
    expect(card.fields).toEqual([]);
  });

  it('signs results', () => {
    expect(signedUsd(12.5)).toBe('+$12.50');
    expect(signedUsd(-3)).toBe('−$3.00');
    expect(signedUsd(0)).toBe('$0');
    expect(signedUsd(null)).toBe('—');
  });
});
