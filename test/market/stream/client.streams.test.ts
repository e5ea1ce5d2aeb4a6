/** The stream client over real sockets against the local fixture: delivery, targets, unsubscribe, close. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StreamClient } from '../../../src/market/stream';
import { collect } from './support/collect';
import { StreamFixture } from './support/fixture';
import { token, wallet, wireCandle, wireHolder, wireToken, wireTrade } from './support/samples';
import { activeTimers, waitFor } from './support/wait';

const KEY = 'fixture-key-0123456789';
/**
 * No heartbeat is due within a test: a pause of a loaded machine longer than a short beat would
 * cut a socket as dead, and its subscriptions' new snapshots would count as events.
 */
const HEARTBEAT_MS = 60_000;
let fixture: StreamFixture;
let client: StreamClient;

beforeEach(async () => {
  fixture = await StreamFixture.start({ apiKey: KEY });
  client = new StreamClient({ wsUrl: fixture.wsUrl, apiKey: KEY, heartbeatMs: HEARTBEAT_MS, reconnectBaseMs: 20, reconnectMaxMs: 200 });
});

afterEach(async () => {
  await client.close();
  await fixture.close();
});

describe('delivery', () => {
  it('token-feed: snapshot, then a change, as typed events', async () => {
    const T = token(1);
    const { events } = collect(client, 'token-feed', { tokenAddress: T });
    await waitFor(() => events.length === 1, 'the snapshot');
    fixture.change('token-feed', T, { riskStatus: 'DANGER' });
    await waitFor(() => events.length === 2, 'the change');
    const [snapshot, change] = events;
    expect(snapshot).toMatchObject({ stream: 'token-feed', kind: 'token', tokenAddress: T, snapshot: true });
    expect(change).toMatchObject({ stream: 'token-feed', kind: 'token', tokenAddress: T, snapshot: false });
    if (change?.kind !== 'token') throw new Error('expected a token');
    expect(change.token.riskStatus).toBe('DANGER');
    expect(change.token.holdersCount).toBe(120);
  });

  it('chart-live sends the interval and delivers candles', async () => {
    const T = token(2);
    const { events } = collect(client, 'chart-live', { tokenAddress: T, intervalSecs: 60 });
    await waitFor(() => events.length === 1, 'the snapshot');
    expect(fixture.openSockets('chart-live')[0]?.received[0]).toMatchObject({ tokenAddress: T, intervalSecs: 60, apiKey: KEY });
    fixture.change('chart-live', T, { close: 3.25 });
    await waitFor(() => events.length === 2, 'the change');
    expect(events[1]).toMatchObject({ kind: 'candle', tokenAddress: T, snapshot: false, candle: { close: 3.25 } });
  });

  it('holders-live and trades-live deliver holders and trades with their wallet', async () => {
    const T = token(3);
    const holders = collect(client, 'holders-live', { tokenAddress: T });
    const trades = collect(client, 'trades-live', { tokenAddress: T });
    await waitFor(() => holders.events.length === 1 && trades.events.length === 1, 'the snapshots');
    fixture.change('holders-live', T, { wallet: wallet(5) });
    fixture.change('trades-live', T, { wallet: wallet(6) });
    await waitFor(() => holders.events.length === 2 && trades.events.length === 2, 'the changes');
    expect(holders.events[1]).toMatchObject({ kind: 'holder', holder: { address: wallet(5), currentlyHoldingAmount: expect.any(BigInt) } });
    expect(trades.events[1]).toMatchObject({ kind: 'trade', tokenAddress: T, wallet: wallet(6), trade: { amountOut: 123_456_789n } });
  });

  it('trades-live follows wallets across tokens', async () => {
    const W = wallet(7);
    const { events } = collect(client, 'trades-live', { wallets: [W] });
    await waitFor(() => fixture.liveSubscriptions('trades-live').length === 1, 'the subscription');
    expect(fixture.openSockets('trades-live')[0]?.received[0]).toEqual({ wallets: [W], apiKey: KEY });
    fixture.change('trades-live', token(8), { wallet: W });
    fixture.change('trades-live', token(9), { wallet: W });
    await waitFor(() => events.length === 2, 'two trades');
    expect(events.map((event) => event.tokenAddress)).toEqual([token(8), token(9)]);
    expect(events.every((event) => event.kind === 'trade' && event.wallet === W)).toBe(true);
  });

  it('accepts bare objects and infers their kind from the stream', async () => {
    const T = token(10);
    const feed = collect(client, 'token-feed', { tokenAddress: T });
    const chart = collect(client, 'chart-live', { tokenAddress: T });
    const holders = collect(client, 'holders-live', { tokenAddress: T });
    const trades = collect(client, 'trades-live', { tokenAddress: T });
    await waitFor(() => fixture.liveSubscriptions().length === 4, 'four subscriptions');
    fixture.sendRaw('token-feed', JSON.stringify(wireToken(T, { symbol: 'BARE' })));
    fixture.sendRaw('chart-live', JSON.stringify(wireCandle(1_700_000_120_000, 9)));
    fixture.sendRaw('holders-live', JSON.stringify(wireHolder(T, wallet(11))));
    fixture.sendRaw('trades-live', JSON.stringify(wireTrade(T, wallet(12), 'bare')));
    await waitFor(() => [feed, chart, holders, trades].every((collected) => collected.events.length === 2), 'the bare objects');
    expect(feed.events[1]).toMatchObject({ kind: 'token', snapshot: false, token: { symbol: 'BARE' } });
    expect(chart.events[1]).toMatchObject({ kind: 'candle', tokenAddress: T, candle: { close: 9 } });
    expect(holders.events[1]).toMatchObject({ kind: 'holder', tokenAddress: T, holder: { address: wallet(11) } });
    expect(trades.events[1]).toMatchObject({ kind: 'trade', tokenAddress: T, wallet: wallet(12) });
    expect(client.status().counters.unreadable).toBe(0);
  });
});

describe('targets', () => {
  it('throws synchronously for a bad target, before any connection', async () => {
    expect(() => client.subscribe('token-feed', { tokenAddress: 'nope' }, () => {})).toThrow(/not a token address/);
    expect(() => client.subscribe('trades-live', { wallets: [] }, () => {})).toThrow(/non-empty/);
    expect(() => client.subscribe('holders-live', { wallets: [wallet(1)] }, () => {})).toThrow(/only trades-live/);
    expect(() => client.subscribe('nope' as never, { tokenAddress: token(1) }, () => {})).toThrow(/Unknown stream/);
    expect(() => client.subscribe('trades-live', { wallets: [wallet(1), 'So1111'] }, () => {})).toThrow(/"So1111" is not a wallet address/);
    expect(() => client.subscribe('trades-live', { tokenAddress: token(1), wallets: [wallet(1)] } as never, () => {})).toThrow(/not both/);
    expect(() => client.subscribe('chart-live', { tokenAddress: token(1), intervalSecs: 1.5 }, () => {})).toThrow(/whole number/);
    expect(() => client.subscribe('token-feed', { tokenAddress: token(1) }, () => {}, { onRejected: 'log it' as never })).toThrow(
      /onRejected must be a function/,
    );
    expect(client.status().sockets).toEqual([]);
    // A good subscription after them: once it is served, any socket the refused ones had opened
    // would have reached the server too.
    const { events } = collect(client, 'token-feed', { tokenAddress: token(2) });
    await waitFor(() => events.length === 1, 'the snapshot of the good subscription');
    expect(fixture.totalAttempts()).toBe(1);
    expect(client.status().sockets).toHaveLength(1);
  });

  it('rejects bad options at construction', () => {
    expect(() => new StreamClient({ wsUrl: 'http://x', apiKey: KEY })).toThrow(/ws:\/\//);
    expect(() => new StreamClient({ wsUrl: fixture.wsUrl, apiKey: KEY, queueLimit: 0 })).toThrow(/queueLimit/);
  });
});

describe('unsubscribe', () => {
  it('closes the socket of a subscription that was alone on it, and stops delivery', async () => {
    const T = token(20);
    const { events, unsubscribe } = collect(client, 'token-feed', { tokenAddress: T });
    await waitFor(() => events.length === 1, 'the snapshot');
    unsubscribe();
    unsubscribe();
    await waitFor(() => fixture.openSockets().length === 0, 'the socket to close');
    // No socket is left to carry a change, so none can arrive later.
    expect(fixture.change('token-feed', T)).toBe(0);
    expect(events).toHaveLength(1);
    expect(client.status().sockets).toEqual([]);
  });

  it('sends the unsubscribe message on a shared socket, the others keep receiving', async () => {
    await client.close();
    client = new StreamClient({ wsUrl: fixture.wsUrl, apiKey: KEY, subscriptionsPerSocket: 10, heartbeatMs: HEARTBEAT_MS });
    const a = collect(client, 'token-feed', { tokenAddress: token(21) });
    const b = collect(client, 'token-feed', { tokenAddress: token(22) });
    await waitFor(() => a.events.length === 1 && b.events.length === 1, 'both snapshots');
    expect(fixture.openSockets()).toHaveLength(1);
    a.unsubscribe();
    await waitFor(() => fixture.liveSubscriptions().length === 1, 'the server to drop one subscription');
    expect(fixture.openSockets()[0]?.received.at(-1)).toEqual({ action: 'unsubscribe', tokenAddress: token(21) });
    fixture.change('token-feed', token(21));
    fixture.change('token-feed', token(22));
    await waitFor(() => b.events.length === 2, 'the change for the remaining one');
    // Frames of one socket are read in order, and an event reaches a plain consumer as its frame
    // is read: a change of a, had it come, came before b's.
    expect(a.events).toHaveLength(1);
    expect(client.status().sockets).toMatchObject([{ state: 'open', subscriptions: 1 }]);
  });

  it('packs only disjoint targets: the same token twice goes to two sockets', async () => {
    await client.close();
    client = new StreamClient({ wsUrl: fixture.wsUrl, apiKey: KEY, subscriptionsPerSocket: 10 });
    const first = collect(client, 'token-feed', { tokenAddress: token(23) });
    const second = collect(client, 'token-feed', { tokenAddress: token(23) });
    await waitFor(() => first.events.length === 1 && second.events.length === 1, 'both snapshots');
    expect(fixture.openSockets()).toHaveLength(2);
    fixture.change('token-feed', token(23));
    await waitFor(() => first.events.length === 2 && second.events.length === 2, 'the change on both');
  });
});

describe('close', () => {
  it('ends every socket and leaves no timer behind', async () => {
    const timersBefore = activeTimers();
    const subscriptions = [token(30), token(31), token(32)].map((T) => collect(client, 'token-feed', { tokenAddress: T }));
    await waitFor(() => subscriptions.every((collected) => collected.events.length === 1), 'the snapshots');
    await client.close();
    expect(client.status().sockets).toEqual([]);
    await waitFor(() => fixture.openSockets().length === 0, 'the server to see every socket closed');
    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
    expect(() => client.subscribe('token-feed', { tokenAddress: token(33) }, () => {})).toThrow(/closed/);
  });

  it('ends a socket that is still connecting or waiting to reconnect', async () => {
    const timersBefore = activeTimers();
    collect(client, 'token-feed', { tokenAddress: token(34) });
    await client.close();
    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
  });
});
