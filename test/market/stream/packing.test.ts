/**
 * How many subscriptions share a socket: `auto` against the built-in simulator, which takes
 * several a socket, and against the simulator made strict (one a socket, closing on a second);
 * against the local fixture for the other ways a strict service may show it (an error alone,
 * silence); and the limit on open sockets, past which subscriptions wait for room.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { STREAM_DEFAULTS, StreamClient, type StreamEvent, type SubscriptionRejection } from '../../../src/market/stream';
import { AUTO_SUBSCRIPTIONS_PER_SOCKET } from '../../../src/market/stream/packing';
import { startSimulator, type RunningSimulator } from 'tmds-simulator';
import { collect, type Collected } from './support/collect';
import { StreamFixture } from './support/fixture';
import { memoryLogger } from './support/logs';
import { token as fixtureToken } from './support/samples';
import { waitFor } from './support/wait';

const KEY = 'packing-key-5d20e1';
const FAST = { heartbeatMs: 2_000, reconnectBaseMs: 50, reconnectMaxMs: 300 } as const;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function simulator(maxSubscriptionsPerSocket?: number): Promise<RunningSimulator> {
  const sim = await startSimulator({
    apiKey: KEY,
    seed: 42,
    port: 0,
    control: true,
    streams: maxSubscriptionsPerSocket === undefined ? {} : { maxSubscriptionsPerSocket },
  });
  cleanups.push(() => sim.close());
  return sim;
}

function client(wsUrl: string, options: Partial<ConstructorParameters<typeof StreamClient>[0]> = {}): StreamClient {
  const made = new StreamClient({ wsUrl, apiKey: KEY, ...FAST, ...options });
  cleanups.push(() => made.close());
  return made;
}

const snapshotted = (collected: Collected): boolean => collected.events.some((event) => event.snapshot);
const changed = (collected: Collected): boolean => collected.events.some((event) => !event.snapshot);

/** A token's feed and holders, as the watcher subscribes a token followed for every kind of alert. */
function followAll(streams: StreamClient, tokens: readonly string[]): Array<{ T: string; feed: Collected; holders: Collected }> {
  return tokens.map((T) => ({
    T,
    feed: collect(streams, 'token-feed', { tokenAddress: T }),
    holders: collect(streams, 'holders-live', { tokenAddress: T }),
  }));
}

describe('auto against the simulator', () => {
  it('packs every subscription of a stream on one socket when the service takes several a socket, and says so once', async () => {
    const sim = await simulator();
    const logs = memoryLogger();
    const streams = client(sim.wsUrl, { subscriptionsPerSocket: 'auto', logger: logs.logger });
    const tokens = sim.market.tokenAddresses();
    const followed = followAll(streams, tokens);
    await waitFor(() => followed.every(({ feed, holders }) => snapshotted(feed) && snapshotted(holders)), 'every snapshot', 20_000);
    await waitFor(() => sim.streams.subscriptionCount() === tokens.length * 2, 'every subscription on the simulator');
    expect(sim.streams.socketCount()).toBe(2);
    const status = streams.status();
    expect(status.packing).toEqual({ setting: 'auto', perSocket: AUTO_SUBSCRIPTIONS_PER_SOCKET, state: 'accepted', evidence: null });
    expect(status.sockets.map((socket) => socket.subscriptions)).toEqual([tokens.length, tokens.length]);
    const decisions = logs.lines().filter((line) => String(line.msg).includes('subscriptions on one socket'));
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ level: 30, perSocket: AUTO_SUBSCRIPTIONS_PER_SOCKET });

    const T = tokens[5] ?? '';
    sim.controls.risk({ tokenAddress: T, riskStatus: 'DANGER' });
    const entry = followed.find((item) => item.T === T);
    await waitFor(() => entry !== undefined && changed(entry.feed), 'the change on a packed socket');
  });

  it('falls back, once and for good, to one subscription a socket against a strict service, and every subscription is served', async () => {
    const sim = await simulator(1);
    const logs = memoryLogger();
    const streams = client(sim.wsUrl, { subscriptionsPerSocket: 'auto', logger: logs.logger });
    const tokens = sim.market.tokenAddresses().slice(0, 20);
    const rejections: SubscriptionRejection[] = [];
    const followed = tokens.map((T) => {
      const events: StreamEvent[] = [];
      streams.subscribe('token-feed', { tokenAddress: T }, (event) => void events.push(event), {
        onRejected: (rejection) => rejections.push(rejection),
      });
      return { T, events, holders: collect(streams, 'holders-live', { tokenAddress: T }) };
    });
    await waitFor(
      () => followed.every(({ events, holders }) => events.some((event) => event.snapshot) && snapshotted(holders)),
      'every snapshot',
      20_000,
    );
    await waitFor(() => sim.streams.socketCount() === tokens.length * 2, 'one socket a subscription on the simulator', 20_000);
    await waitFor(() => sim.streams.subscriptionCount() === tokens.length * 2, 'one subscription a socket on the simulator', 20_000);

    const status = streams.status();
    expect(status.packing).toMatchObject({ setting: 'auto', perSocket: 1, state: 'refused' });
    expect(status.packing.evidence).toMatch(/second subscription/);
    expect(status.sockets).toHaveLength(tokens.length * 2);
    expect(status.sockets.every((socket) => socket.subscriptions === 1)).toBe(true);
    // The strict service's refusals are what the fallback expected: no target is reported refused.
    expect(rejections).toEqual([]);
    const decisions = logs.lines().filter((line) => String(line.msg).includes('second subscription on one socket'));
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ level: 40 });
    expect(logs.lines().filter((line) => line.msg === 'stream server refused a subscription')).toEqual([]);

    // For good: a later subscription opens a socket of its own.
    const later = collect(streams, 'token-feed', { tokenAddress: sim.market.tokenAddresses()[30] ?? '' });
    await waitFor(() => snapshotted(later), 'the later subscription served');
    expect(streams.status().sockets).toHaveLength(tokens.length * 2 + 1);
    expect(logs.lines().filter((line) => String(line.msg).includes('second subscription on one socket'))).toHaveLength(1);
  });

  it('an unknown token refused on a packed socket (4004) says nothing about packing', async () => {
    const sim = await simulator();
    const streams = client(sim.wsUrl, { subscriptionsPerSocket: 'auto', rejectedRetryMs: 60_000 });
    const known = sim.market.tokenAddresses();
    const first = collect(streams, 'token-feed', { tokenAddress: known[0] ?? '' });
    await waitFor(() => snapshotted(first), 'the first snapshot');
    const rejections: SubscriptionRejection[] = [];
    streams.subscribe('token-feed', { tokenAddress: fixtureToken(4_242) }, () => undefined, {
      onRejected: (rejection) => rejections.push(rejection),
    });
    await waitFor(() => rejections.length === 1, 'the refusal of the unknown token');
    expect(streams.status().packing.state).toBe('checking');
    const more = known.slice(1, 6).map((T) => collect(streams, 'token-feed', { tokenAddress: T }));
    await waitFor(() => more.every(snapshotted), 'the later snapshots');
    await waitFor(() => streams.status().packing.state === 'accepted', 'packing accepted');
  });
});

describe('auto against a service that shows otherwise that it takes one a socket', () => {
  it.each(['close', 'error', 'ignore'] as const)(
    'a second subscription met with %s: one a socket, every subscription served',
    async (how) => {
      const fixture = await StreamFixture.start({ apiKey: KEY, onePerSocket: how });
      cleanups.push(() => fixture.close());
      const streams = client(fixture.wsUrl, { subscriptionsPerSocket: 'auto', packProbeMs: 300 });
      const followed = Array.from({ length: 6 }, (_, n) => collect(streams, 'token-feed', { tokenAddress: fixtureToken(700 + n) }));
      await waitFor(() => followed.every(snapshotted), 'every snapshot', 10_000);
      // Read once settled: a snapshot can come on the socket the service then closes, before its
      // subscription is made again on a socket of its own.
      await waitFor(() => fixture.openSockets().length === 6, 'six sockets on the service');
      await waitFor(() => fixture.liveSubscriptions().length === 6, 'six subscriptions on the service');
      expect(streams.status().packing).toMatchObject({ perSocket: 1, state: 'refused' });
    },
  );

  it("a number is the operator's word: nothing is checked, and packing stays", async () => {
    const sim = await simulator();
    const streams = client(sim.wsUrl, { subscriptionsPerSocket: 4 });
    const followed = sim.market
      .tokenAddresses()
      .slice(0, 8)
      .map((T) => collect(streams, 'token-feed', { tokenAddress: T }));
    await waitFor(() => followed.every(snapshotted), 'every snapshot');
    expect(streams.status().packing).toEqual({ setting: 4, perSocket: 4, state: 'fixed', evidence: null });
    expect(streams.status().sockets).toHaveLength(2);
  });

  it('the stream client alone still opens one socket a subscription unless told otherwise', () => {
    expect(STREAM_DEFAULTS.subscriptionsPerSocket).toBe(1);
    expect(() => new StreamClient({ wsUrl: 'ws://127.0.0.1:9', apiKey: KEY, maxSockets: 0 })).toThrow(/maxSockets/);
  });
});

describe('the limit on open sockets', () => {
  it('subscriptions past maxSockets wait, counted and logged once, and take a socket as one closes', async () => {
    const sim = await simulator(1);
    const logs = memoryLogger();
    const streams = client(sim.wsUrl, { subscriptionsPerSocket: 1, maxSockets: 5, logger: logs.logger });
    const tokens = sim.market.tokenAddresses().slice(0, 8);
    const followed = tokens.map((T) => collect(streams, 'token-feed', { tokenAddress: T }));
    await waitFor(() => followed.slice(0, 5).every(snapshotted), 'the first five served');
    await waitFor(() => sim.streams.socketCount() === 5, 'five sockets on the simulator');
    let status = streams.status();
    expect(status).toMatchObject({ maxSockets: 5, waitingForRoom: 3 });
    expect(status.sockets).toHaveLength(5);
    expect(streams.room('token-feed', 'token')).toBe(0);
    expect(followed.slice(5).some(snapshotted)).toBe(false);
    const warnings = logs.lines().filter((line) => String(line.msg).includes('at their limit'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, maxSockets: 5 });

    followed[0]?.unsubscribe();
    followed[1]?.unsubscribe();
    await waitFor(() => snapshotted(followed[5]!) && snapshotted(followed[6]!), 'two waiting subscriptions served');
    status = streams.status();
    expect(status.waitingForRoom).toBe(1);
    expect(status.sockets).toHaveLength(5);
    followed[7]?.unsubscribe();
    expect(streams.status().waitingForRoom).toBe(0);
    expect(streams.room('token-feed', 'token')).toBe(0);
    // Room again: one socket free, one subscription's worth at one a socket.
    followed[2]?.unsubscribe();
    expect(streams.status().sockets).toHaveLength(4);
    expect(streams.room('token-feed', 'token')).toBe(1);
    expect(logs.lines().filter((line) => String(line.msg).includes('at their limit'))).toHaveLength(1);
  });

  it('packed, room counts the free places on sockets of the same stream and the sockets still allowed', async () => {
    const sim = await simulator();
    const streams = client(sim.wsUrl, { subscriptionsPerSocket: 10, maxSockets: 3 });
    const followed = sim.market
      .tokenAddresses()
      .slice(0, 4)
      .map((T) => collect(streams, 'token-feed', { tokenAddress: T }));
    await waitFor(() => followed.every(snapshotted), 'every snapshot');
    expect(streams.room('token-feed', 'token')).toBe(6 + 2 * 10);
    expect(streams.room('holders-live', 'token')).toBe(2 * 10);
    expect(new StreamClient({ wsUrl: sim.wsUrl, apiKey: KEY }).room('token-feed', 'token')).toBe(Number.POSITIVE_INFINITY);
  });
});
