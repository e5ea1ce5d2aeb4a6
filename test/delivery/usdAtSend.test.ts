/** USD filled in at send time (src/delivery/usdAtSend.ts): what is missing is priced, what was seen is kept, the wait is bounded. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { plainText } from '../../src/cards/card';
import { alertCard } from '../../src/alerts/alertCard';
import type { AlertEvent, TokenMarket, WalletTradeEvent } from '../../src/model/events';
import { lacksUsd, usdAtSend, withUsd } from '../../src/delivery/usdAtSend';
import { priceEvent } from './helpers';

const MARKET: TokenMarket = { priceNative: 0.002, priceUsd: null, changePct: 5, changeSecs: 3_600, marketCapSol: 2_000, liquiditySol: 50 };

afterEach(() => vi.useRealTimers());

describe('usdAtSend', () => {
  it('prices a price move and its market at the rate known when it is sent', async () => {
    const event: AlertEvent = {
      ...priceEvent('k1'),
      token: { address: 'TokenAddress1111111111111111111111111111111', symbol: 'TOK', name: 'Token', market: MARKET },
    };
    expect(lacksUsd(event)).toBe(true);
    const card = await usdAtSend(alertCard, async () => 150)(event, null);
    const shown = Object.fromEntries(card.fields.map((f) => [f.name, plainText(f.value)]));
    expect(shown['Price (USD)']).toBe('$300.00');
    expect(shown['Market cap']).toBe('$300K · 2K SOL');
    expect(shown.Liquidity).toBe('$7.5K · 50 SOL');
  });

  it('keeps USD figures the event was seen with, and asks no rate for them', async () => {
    const event: AlertEvent = {
      ...priceEvent('k2'),
      priceUsd: 280,
      token: { address: 'A', symbol: 'TOK', name: 'Token', market: { ...MARKET, priceUsd: 0.28 } },
    };
    expect(lacksUsd(event)).toBe(false);
    const rate = vi.fn(async () => 150);
    const card = await usdAtSend(alertCard, rate)(event, null);
    expect(rate).not.toHaveBeenCalled();
    expect(plainText(card.fields.find((f) => f.name === 'Price (USD)')?.value ?? [])).toBe('$280.00');
  });

  it('fills a wallet trade’s value from its SOL side', () => {
    const trade: WalletTradeEvent = {
      kind: 'wallet-trade',
      key: 'k3',
      at: 0,
      token: { address: 'A', symbol: 'TOK', name: 'Token' },
      wallet: 'W',
      side: 'buy',
      tokenAmount: '1000',
      decimals: 0,
      nativeAmount: '2500000000',
      amountUsd: null,
      price: 0.0025,
      transactionHash: 'h',
      timestamp: 0,
    };
    expect((withUsd(trade, 200) as WalletTradeEvent).amountUsd).toBe(500);
    expect(trade.amountUsd).toBeNull();
  });

  it('sends in SOL when no rate comes within the wait', async () => {
    vi.useFakeTimers();
    const sent = usdAtSend(alertCard, () => new Promise<number | null>(() => undefined), 5_000)(priceEvent('k4'), null);
    await vi.advanceTimersByTimeAsync(5_000);
    const card = await sent;
    expect(card.fields.find((f) => f.name === 'Price (USD)')).toBeUndefined();
  });
});
