/**
 * The live service's answers carry more than the spec's tables: numbers where the tables say
 * strings, fields the spec never names, a logIndex in the millions, an empty metadata map, links
 * without a scheme. Every one of them is read, by the schemas and by the stream's fast reader alike.
 */
import { describe, expect, it } from 'vitest';
import { readTokenFast } from '../../src/market/readToken';
import { TokenSchema, TradeHistorySchema, TradeSchema } from '../../src/market/schemas';
import { addressKind } from '../../src/market/address';
import {
  RECORDED_DEPLOYER,
  RECORDED_MAKER,
  RECORDED_POOL,
  RECORDED_TOKEN,
  WSOL,
  recordedTokenAnswer,
  recordedTokenFrame,
  recordedTrade,
  recordedTradeHistory,
} from '../support/recordedStyle';

/** As the wire gives it: the fixture through JSON, so nothing the fixture shares survives. */
function wire(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

describe('payloads in the live service’s style', () => {
  it('use real-looking Solana addresses', () => {
    for (const address of [RECORDED_TOKEN, RECORDED_POOL, RECORDED_DEPLOYER, RECORDED_MAKER]) expect(addressKind(address)).toBe('solana');
  });

  it('a token_updates frame (no pools, goplusStats, limits, searchGraphData, scheme-less links) is read, and the same by both readers', () => {
    const frame = wire(recordedTokenFrame());
    const token = TokenSchema.parse(frame);
    expect(token.address).toBe(RECORDED_TOKEN);
    expect(token.liquidityPools).toEqual([]);
    expect(token.holdersCount).toBe(344);
    expect(token.top10HoldersSupply).toBeNull();
    expect(token.links).toEqual({ twitter: 'x.com/recordedtoken', website: 'https://en.wikipedia.org/wiki/Solana_(blockchain_platform)' });
    expect(readTokenFast(frame)).toStrictEqual(token);
  });

  it('a token-data answer’s pool (protocolData, suspectedBaseToken and suspectedQuoteToken) is read with its names, and the same by both readers', () => {
    const answer = wire(recordedTokenAnswer());
    const token = TokenSchema.parse(answer);
    expect(token.liquidityPools).toHaveLength(1);
    expect(token.liquidityPools[0]).toMatchObject({
      poolAddress: RECORDED_POOL,
      token0Address: WSOL,
      token1Address: RECORDED_TOKEN,
      suspectedBaseToken: RECORDED_TOKEN,
      suspectedQuoteToken: WSOL,
      suspectedBaseTokenReserves: 285205577648238n,
      suspectedQuoteTokenReserves: 59641293545n,
    });
    expect(readTokenFast(answer)).toStrictEqual(token);
  });

  it('a trade with numeric maker totals, a logIndex in the millions and a block number as text is read whole', () => {
    const trade = TradeSchema.parse(wire(recordedTrade()));
    expect(trade.logIndex).toBe(5_000_000);
    expect(trade.blockNumber).toBe(317050116);
    expect(trade.amountUSD).toBe(3.448871723);
    expect(trade.makerData).toMatchObject({
      address: RECORDED_MAKER,
      totalBoughtAmount: 14987275n,
      totalBoughtUSD: 3.448871723,
      totalSoldUSD: 3.51,
      received: 14987275n,
      sent: 0n,
    });
  });

  it('trades-history with `tokensMetadata: {}` keeps every trade, newest first', () => {
    const history = TradeHistorySchema.parse(wire(recordedTradeHistory()));
    expect(history.tradeHistory.map((trade) => trade.logIndex)).toEqual([5_000_001, 5_000_000]);
    expect(history.tokensMetadata.size).toBe(0);
  });
});
