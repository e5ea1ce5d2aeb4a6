import { describe, expect, it } from 'vitest';
import { decodeText, tradedToken } from '../../../src/market/stream/decode';
import { TradeSchema } from '../../../src/market/schemas';
import { WSOL, token, wallet, wireCandle, wireHolder, wireToken, wireTrade } from './support/samples';

const T = token(1);
const W = wallet(1);

describe('decodeText', () => {
  it('reads the envelope, with snapshot flag and token address', () => {
    const [item] = decodeText('token-feed', JSON.stringify({ type: 'token', tokenAddress: T, snapshot: true, data: wireToken(T) }));
    expect(item).toMatchObject({ type: 'event', tokenAddress: T, snapshot: true, wallet: null });
    if (item?.type !== 'event' || item.payload.kind !== 'token') throw new Error('expected a token event');
    expect(item.payload.token.holdersCount).toBe(120);
    expect(item.payload.token.totalSupply).toBe(1_000_000_000_000_000n);
  });

  it('reads a bare object of the stream kind, taking the address from the payload', () => {
    const [holder] = decodeText('holders-live', JSON.stringify(wireHolder(T, W)));
    expect(holder).toMatchObject({ type: 'event', tokenAddress: T, snapshot: false });
    const [candle] = decodeText('chart-live', JSON.stringify(wireCandle(1_700_000_000_000)));
    expect(candle).toMatchObject({ type: 'event', tokenAddress: null });
    const [trade] = decodeText('trades-live', JSON.stringify(wireTrade(T, W, 'h1')));
    expect(trade).toMatchObject({ type: 'event', tokenAddress: T, wallet: W });
  });

  it('reads a list of envelopes and an envelope carrying a list', () => {
    const frame = JSON.stringify([
      { type: 'holder', tokenAddress: T, data: wireHolder(T, W) },
      { type: 'holder', tokenAddress: T, data: [wireHolder(T, wallet(2)), wireHolder(T, wallet(3))] },
    ]);
    expect(decodeText('holders-live', frame).map((item) => item.type)).toEqual(['event', 'event', 'event']);
  });

  it('reads a flat object with type beside the fields', () => {
    const [item] = decodeText('chart-live', JSON.stringify({ type: 'candle', tokenAddress: T, ...wireCandle(1_700_000_060_000) }));
    expect(item).toMatchObject({ type: 'event', tokenAddress: T });
  });

  it('reads control messages', () => {
    expect(decodeText('token-feed', JSON.stringify({ type: 'subscribed', stream: 'token-feed', tokenAddress: T }))).toEqual([
      { type: 'subscribed', tokenAddress: T, wallets: [], vendor: false },
    ]);
    expect(decodeText('trades-live', JSON.stringify({ type: 'subscribed', wallets: [W] }))).toEqual([
      { type: 'subscribed', tokenAddress: null, wallets: [W], vendor: false },
    ]);
    expect(decodeText('token-feed', JSON.stringify({ type: 'error', error: 'Unknown token', message: 'no such token' }))).toEqual([
      { type: 'error', message: 'Unknown token: no such token' },
    ]);
    expect(decodeText('token-feed', JSON.stringify({ type: 'pong' }))).toEqual([{ type: 'ignored' }]);
  });

  it.each([
    ['not JSON', 'not json {'],
    ['a JSON scalar', '42'],
    ['null', 'null'],
    ['an empty list', '[]'],
    ['an object of the wrong shape', JSON.stringify({ hello: 'world' })],
    ['a payload of another stream', JSON.stringify({ type: 'candle', tokenAddress: T, data: wireCandle(1) })],
    ['an envelope whose data is not the kind', JSON.stringify({ type: 'token', tokenAddress: T, data: { address: 5 } })],
  ])('turns %s into one unreadable item, never throwing', (_name, frame) => {
    const items = decodeText('token-feed', frame);
    expect(items).toHaveLength(1);
    expect(items[0]?.type).toBe('unreadable');
  });

  it('keeps the readable members of a list and marks the others', () => {
    const items = decodeText('token-feed', JSON.stringify([wireToken(T), { nope: true }, [1]]));
    expect(items.map((item) => item.type)).toEqual(['event', 'unreadable']);
    expect(items[1]).toMatchObject({ type: 'unreadable', count: 2 });
  });
});

describe('tradedToken', () => {
  it('prefers maker data, then the side that is not a quote mint', () => {
    const trade = TradeSchema.parse({ ...wireTrade(T, W, 'h'), makerData: null });
    expect(tradedToken(trade)).toBe(T);
    const sell = TradeSchema.parse({ ...wireTrade(T, W, 'h'), makerData: null, tokenIn: T, tokenOut: WSOL });
    expect(tradedToken(sell)).toBe(T);
  });
});
