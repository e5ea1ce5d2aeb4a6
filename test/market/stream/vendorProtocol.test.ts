/**
 * The stream client against the replay of the vendor's service (test/support/vendorService.ts,
 * written from real-service.md, not from our code): the protocol asked of the service, the key in
 * the upgrade's header, the chart-live interval as the vendor's `timeframe`, a confirmation that
 * marks a subscription served, one that never comes, and messages of unknown kinds counted with
 * the socket kept.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator } from 'tmds-simulator';
import { ProtocolChoice, StreamClient, probeProtocol } from '../../../src/market/stream';
import { UNCONFIRMED_AFTER_MS } from '../../../src/market/stream/client';
import { silentLogger } from '../../../src/log';
import { addressFor, makeToken, startVendorService, type VendorService } from '../../support/vendorService';
import { ManualClock } from '../support/manualClock';
import { collect } from './support/collect';
import { memoryLogger } from './support/logs';
import { waitFor } from './support/wait';

const KEY = 'vendor-protocol-key-77e1';
const T = addressFor('vendor-protocol:token');
const cleanups: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function service(options: { confirm?: boolean } = {}): Promise<VendorService> {
  const started = await startVendorService({ apiKey: KEY, ...options });
  started.addToken(makeToken({ address: T, symbol: 'VPT', priceSol: 0.001 }));
  cleanups.push(() => started.close());
  return started;
}

function client(wsUrl: string, extra: Partial<ConstructorParameters<typeof StreamClient>[0]> = {}): StreamClient {
  const made = new StreamClient({ wsUrl, apiKey: KEY, protocol: 'vendor', heartbeatMs: 60_000, ...extra });
  cleanups.push(() => made.close());
  return made;
}

describe('the protocol, asked of the service', () => {
  it('is the vendor’s when the service greets, the spec’s when it waits silently, unknown when it cannot open', async () => {
    const vendor = await service();
    // The greeting comes at once: a long wait is only an upper bound.
    expect(await probeProtocol({ wsUrl: vendor.wsUrl, apiKey: KEY, waitMs: 10_000 })).toBe('vendor');
    expect(vendor.upgrades.at(-1)?.apiKeyHeader).toBe(KEY);
    const spec = await startSimulator({ apiKey: KEY, port: 0, seed: 1, tradesPerSecond: 0 });
    cleanups.push(() => spec.close());
    // The spec's reading never speaks first: silence, however short the wait, is the spec's.
    expect(await probeProtocol({ wsUrl: spec.wsUrl, apiKey: KEY, waitMs: 200 })).toBe('spec');
    expect(await probeProtocol({ wsUrl: vendor.wsUrl, apiKey: 'wrong-key', waitMs: 10_000 })).toBeNull();
  });

  it('is kept when pinned, followed when auto, and said in words', async () => {
    const { logger, lines } = memoryLogger();
    const pinned = new ProtocolChoice({ setting: 'spec', wsUrl: 'ws://x', apiKey: KEY, logger, probe: async () => 'vendor' });
    expect(await pinned.decide()).toBe('spec');
    pinned.seen('vendor');
    expect(pinned.current).toBe('spec');
    expect(pinned.describe()).toBe('spec (pinned by TMDS_PROTOCOL)');
    expect(lines().filter((line) => String(line.msg).includes('another protocol than the setting pins'))).toHaveLength(1);

    const auto = new ProtocolChoice({ setting: 'auto', wsUrl: 'ws://x', apiKey: KEY, logger: silentLogger, probe: async () => null });
    const changes: string[] = [];
    auto.onChange((protocol) => changes.push(protocol));
    expect(await auto.decide()).toBe('spec');
    expect(auto.describe()).toBe('spec (the default)');
    auto.seen('vendor');
    expect(auto.current).toBe('vendor');
    expect(changes).toEqual(['vendor']);
    expect(auto.describe()).toBe('vendor (as the service spoke)');
  });
});

describe('the stream client on the vendor’s protocol', () => {
  it('sends the key in the header and the message, and chart-live’s interval as timeframe; a confirmation serves it', async () => {
    const vendor = await service();
    const streams = client(vendor.wsUrl, { protocol: 'spec' });
    const seen: string[] = [];
    streams.onProtocolSeen((protocol) => {
      seen.push(protocol);
      streams.setProtocol(protocol);
    });
    collect(streams, 'trades-live', { tokenAddress: T });
    await waitFor(() => seen.length === 1, 'the welcome');
    expect(seen).toEqual(['vendor']);
    const candles = collect(streams, 'chart-live', { tokenAddress: T, intervalSecs: 60 });
    await vendor.waitFor(() => vendor.subscribers('/ws/trades-live', T) === 1 && vendor.subscribers('/ws/chart-live', T) === 1);
    const sent = vendor.messages.filter((message) => message.path === '/ws/chart-live').map((message) => JSON.parse(message.text));
    expect(sent).toEqual([{ tokenAddress: T, timeframe: 60, apiKey: KEY }]);
    for (const upgrade of vendor.upgrades) expect(upgrade.apiKeyHeader).toBe(KEY);
    vendor.pushCandle(T, { open: 0.15, high: 0.16, low: 0.14, close: 0.155, volume: 10n ** 9n, volumeUsd: 12, timeMs: Date.now() });
    await waitFor(() => candles.events.length === 1, 'the candle');
    expect(candles.events[0]).toMatchObject({ kind: 'candle', tokenAddress: T, priceUnit: 'unstated', snapshot: false });
    expect(streams.status()).toMatchObject({ protocol: 'vendor', unconfirmed: 0, counters: { unreadable: 0, unknown: 0 } });
  });

  it('counts a subscription the service never confirms, once it has waited long enough', async () => {
    const vendor = await service({ confirm: false });
    const clock = new ManualClock(Date.now());
    const streams = client(vendor.wsUrl, { clock });
    collect(streams, 'trades-live', { tokenAddress: T });
    await vendor.waitFor(() => vendor.messages.some((message) => message.path === '/ws/trades-live'));
    expect(streams.status().unconfirmed).toBe(0);
    clock.advance(UNCONFIRMED_AFTER_MS);
    expect(streams.status().unconfirmed).toBe(1);
  });

  it('counts messages of unknown kinds and confirmations of tokens not asked for, logs them once a minute, keeps the socket', async () => {
    const vendor = await service();
    const { logger, lines } = memoryLogger();
    const streams = client(vendor.wsUrl, { logger });
    const trades = collect(streams, 'trades-live', { tokenAddress: T });
    await vendor.waitFor(() => vendor.subscribers('/ws/trades-live', T) === 1);
    vendor.sendRaw('/ws/trades-live', JSON.stringify({ event: 'liquidation', tokenAddress: T }));
    vendor.sendRaw('/ws/trades-live', JSON.stringify({ type: 'maintenance', message: 'soon' }));
    vendor.sendRaw('/ws/trades-live', JSON.stringify({ type: 'subscriptionConfirmed', message: `Subscribed to ${addressFor('other')}` }));
    vendor.pushTrade(T, { type: 'BUY', priceSol: 0.001, priceUsd: 0.15, tokenAmount: 2n ** 60n, quoteAmount: 10n ** 6n, usd: 0.15 });
    await waitFor(() => trades.events.length === 1, 'the trade after the unknown messages');
    const trade = trades.events[0];
    if (trade?.kind !== 'trade') throw new Error('expected a trade');
    expect(trade.trade.amountOut).toBe(2n ** 60n);
    expect(streams.status().counters).toMatchObject({ unknown: 3, unreadable: 0 });
    expect(lines().filter((line) => String(line.msg).startsWith('stream message of an unknown kind'))).toHaveLength(1);
    expect(vendor.openSockets('/ws/trades-live')).toBe(1);
  });
});
