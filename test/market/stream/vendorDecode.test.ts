/**
 * The vendor's stream messages, written here as its endpoint pages show them
 * (../shared/spec/real-service.md), read by the decoder every socket uses.
 */
import { describe, expect, it } from 'vitest';
import { decodeText } from '../../../src/market/stream/decode';

const TOKEN = '2QjvRCTuXrEAgq5MARaKLG1jBtDtwamcfvpHc4Nxpump';
const SOL = 'So11111111111111111111111111111111111111112';
const POOL = 'D29kHv4zGRsQzkPFeNTitPSRqUkTTz7YyksiNFhNt7QZ';
const HOLDER = '8HMw9Lc7dnjWJzMT48bsUCE4RMXHt5bcW71wu5KQSVq1';

/** The page's trade, its raw amounts written as JSON numbers (`token` as given, to test numbers past 2^53). */
function tradeText(tokenAmount: string, type = 'BUY'): string {
  return (
    `{"event": "trade", "timestamp": 1746027341, "datetime": "2025-04-30T15:35:41.000Z", "tokenAddress": "${TOKEN}", ` +
    `"quoteToken": "${SOL}", "type": "${type}", "price": {"sol": 1.1187e-7, "usd": 0.0000159769}, ` +
    `"amount": {"token": ${tokenAmount}, "quote": 1980000001, "usd": 282.77}, ` +
    `"transaction": {"hash": "5sig", "blockNumber": 336925418}, "market": {"protocol": "PUMP_AMM", "poolAddress": "${POOL}"}}`
  );
}

describe('the vendor protocol', () => {
  it('reads a trades-live trade as a Trade: sides from BUY/SELL, seconds, exact raw amounts, no maker', () => {
    const [item] = decodeText('trades-live', tradeText('17698939096615'));
    if (item?.type !== 'event' || item.payload.kind !== 'trade') throw new Error(`expected a trade, got ${JSON.stringify(item)}`);
    const { trade } = item.payload;
    expect(item.tokenAddress).toBe(TOKEN);
    expect(item.wallet).toBeNull();
    expect(trade).toMatchObject({
      timestamp: 1746027341,
      transactionHash: '5sig',
      blockNumber: 336925418,
      tokenIn: SOL,
      tokenOut: TOKEN,
      amountIn: 1980000001n,
      amountOut: 17698939096615n,
      amountUSD: 282.77,
      suspectedBaseTokenPrice: 1.1187e-7,
      suspectedBaseTokenPriceUSD: 0.0000159769,
      poolAddress: POOL,
      makerData: null,
      logIndex: null,
    });
    const [sell] = decodeText('trades-live', tradeText('5', 'SELL'));
    if (sell?.type !== 'event' || sell.payload.kind !== 'trade') throw new Error('expected a trade');
    expect(sell.payload.trade).toMatchObject({ tokenIn: TOKEN, tokenOut: SOL, amountIn: 5n, amountOut: 1980000001n });
  });

  it('reads a raw amount past 2^53 exactly, digit for digit', () => {
    const huge = '123456789012345678901';
    const [item] = decodeText('trades-live', tradeText(huge));
    if (item?.type !== 'event' || item.payload.kind !== 'trade') throw new Error('expected a trade');
    expect(item.payload.trade.amountOut).toBe(BigInt(huge));
    // JSON.parse would have rounded it.
    expect(BigInt(JSON.parse(huge) as number)).not.toBe(BigInt(huge));
  });

  it('reads a chart-live candle: time in ms, USD volume, its price unit unstated', () => {
    const text = JSON.stringify({
      event: 'chart',
      tokenAddress: TOKEN,
      quoteToken: SOL,
      timeframe: 60,
      candle: {
        time: 1746026160000,
        datetime: '2025-04-30T15:16:00.000Z',
        open: 0.0000937,
        high: 0.0000937,
        low: 0.0000855,
        close: 0.0000866,
        volume: 2667017166926,
        volumeUsd: 233.23,
        trades: 6,
        buys: 3,
        sells: 3,
      },
    });
    const [item] = decodeText('chart-live', text);
    if (item?.type !== 'event' || item.payload.kind !== 'candle') throw new Error('expected a candle');
    expect(item.payload.priceUnit).toBe('unstated');
    expect(item.payload.candle).toMatchObject({
      timestamp: 1746026160000,
      close: 0.0000866,
      volume: 233.23,
      time: '2025-04-30T15:16:00.000Z',
    });
  });

  it('reads a holders-live holder: currentAmount, ISO holderSince as seconds, totals from activity', () => {
    const text = JSON.stringify({
      event: 'holder',
      address: HOLDER,
      tokenAddress: TOKEN,
      currentAmount: '30000000000000',
      holderSince: '2025-04-30T15:19:00.000Z',
      activity: {
        totalBought: { amount: '31000000000000', usd: '12.5', transactions: 3 },
        totalSold: { amount: 1000000000000, usd: 0.4, transactions: 1 },
      },
      tags: ['sniper'],
      nativeBalance: '5000000000',
      syncedAt: '2025-04-30T15:19:02.000Z',
    });
    const [item] = decodeText('holders-live', text);
    if (item?.type !== 'event' || item.payload.kind !== 'holder') throw new Error('expected a holder');
    expect(item.tokenAddress).toBe(TOKEN);
    expect(item.payload.holder).toMatchObject({
      address: HOLDER,
      currentlyHoldingAmount: 30000000000000n,
      holderSince: Date.parse('2025-04-30T15:19:00.000Z') / 1000,
      totalBoughtAmount: 31000000000000n,
      totalBoughtUSD: 12.5,
      totalBuyTransactions: 3,
      totalSoldAmount: 1000000000000n,
      totalSellTransactions: 1,
      tags: ['sniper'],
    });
  });

  it('reads a holder whose amounts are the page’s placeholders as unknown, not as a broken frame', () => {
    const text = JSON.stringify({
      event: 'holder',
      address: HOLDER,
      tokenAddress: TOKEN,
      currentAmount: '30000000000000',
      holderSince: '2025-04-30T15:19:00.000Z',
      activity: { totalBought: { amount: '...', usd: '...', transactions: 3 }, totalSold: { amount: '...', usd: '...', transactions: 0 } },
    });
    const [item] = decodeText('holders-live', text);
    if (item?.type !== 'event' || item.payload.kind !== 'holder') throw new Error(`expected a holder, got ${JSON.stringify(item)}`);
    expect(item.payload.holder.totalBoughtAmount).toBeNull();
  });

  it('reads the welcome and the confirmations, naming the confirmed token', () => {
    const welcome = { type: 'connected', message: 'Connected to TradesLive WebSocket. Send a JSON object with "tokenAddress".' };
    expect(decodeText('trades-live', JSON.stringify(welcome))).toEqual([{ type: 'welcome' }]);
    expect(decodeText('trades-live', JSON.stringify({ type: 'subscriptionConfirmed', message: `Subscribed to ${TOKEN}` }))).toEqual([
      { type: 'subscribed', tokenAddress: TOKEN, wallets: [], vendor: true },
    ]);
    const chart = { type: 'subscriptionConfirmed', message: `Subscribed to ${TOKEN} with 60s timeframe` };
    expect(decodeText('chart-live', JSON.stringify(chart))).toEqual([
      { type: 'subscribed', tokenAddress: TOKEN, wallets: [], vendor: true },
    ]);
    expect(decodeText('token-feed', JSON.stringify({ type: 'subscriptionConfirmed', message: 'Filters applied' }))).toEqual([
      { type: 'subscribed', tokenAddress: null, wallets: [], vendor: true },
    ]);
  });

  it.each([
    ['an event of an unknown kind', { event: 'liquidation', tokenAddress: TOKEN }],
    ['a control message never seen', { type: 'maintenance', message: 'back soon' }],
    ['token-feed’s filter list', { event: 'token', data: [{ address: TOKEN, price: '$0.00002248252' }] }],
  ])('counts %s as unknown, not unreadable', (_name, message) => {
    const stream = 'event' in message && message.event === 'token' ? 'token-feed' : 'trades-live';
    const items = decodeText(stream, JSON.stringify(message));
    expect(items).toHaveLength(1);
    expect(items[0]?.type).toBe('unknown');
  });

  it('takes a known event on another stream, or a broken one, as unreadable', () => {
    expect(decodeText('chart-live', tradeText('1'))[0]?.type).toBe('unreadable');
    expect(decodeText('trades-live', JSON.stringify({ event: 'trade', tokenAddress: TOKEN }))[0]?.type).toBe('unreadable');
  });
});
