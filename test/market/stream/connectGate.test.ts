/**
 * Sockets connecting at once: a client with many subscriptions at one a socket opens them a few at
 * a time (maxConnecting), each as soon as another has opened, against the local fixture holding
 * every handshake until the test lets it through; and the gate's own order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { StreamClient, STREAM_DEFAULTS } from '../../../src/market/stream';
import { ConnectGate } from '../../../src/market/stream/connectGate';
import { collect, type Collected } from './support/collect';
import { StreamFixture } from './support/fixture';
import { token } from './support/samples';
import { waitFor } from './support/wait';

const KEY = 'gate-key-61c0a2';
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('sockets connecting at once', () => {
  it('are never more than maxConnecting; each opened one lets the next in, until every subscription is served', async () => {
    const fixture = await StreamFixture.start({ apiKey: KEY, holdUpgrades: true });
    cleanups.push(() => fixture.close());
    const client = new StreamClient({ wsUrl: fixture.wsUrl, apiKey: KEY, subscriptionsPerSocket: 1, maxConnecting: 5, heartbeatMs: 5_000 });
    cleanups.push(() => client.close());
    const followed: Collected[] = Array.from({ length: 20 }, (_, n) => collect(client, 'token-feed', { tokenAddress: token(900 + n) }));

    await waitFor(() => fixture.heldUpgrades === 5, 'five handshakes in flight');
    expect(fixture.totalAttempts()).toBe(5);
    fixture.releaseUpgrades(2);
    await waitFor(() => fixture.heldUpgrades === 5 && fixture.totalAttempts() === 7, 'two more in flight as two opened');
    while (fixture.totalAttempts() < 20 || fixture.heldUpgrades > 0) {
      fixture.releaseUpgrades(fixture.heldUpgrades);
      await waitFor(() => fixture.heldUpgrades > 0 || fixture.totalAttempts() === 20, 'the next handshakes');
    }
    await waitFor(() => followed.every((events) => events.events.some((event) => event.snapshot)), 'every snapshot');
    expect(fixture.mostHeld).toBe(5);
    expect(fixture.totalAttempts()).toBe(20);
    expect(client.status().sockets.every((socket) => socket.state === 'open')).toBe(true);
  });

  it('defaults to 128', () => {
    expect(STREAM_DEFAULTS.maxConnecting).toBe(128);
  });
});

describe('the gate', () => {
  it('admits up to its limit, then one waiting for each released, oldest first; a release is idempotent', () => {
    const admitted: string[] = [];
    const connection = (name: string) => ({ name, admitted: () => void admitted.push(name) });
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(connection) as [
      ReturnType<typeof connection>,
      ReturnType<typeof connection>,
      ReturnType<typeof connection>,
      ReturnType<typeof connection>,
    ];
    const gate = new ConnectGate<ReturnType<typeof connection>>(2);
    expect([gate.enter(a), gate.enter(b), gate.enter(c), gate.enter(d)]).toEqual([true, true, false, false]);
    expect(gate.size).toEqual({ connecting: 2, waiting: 2 });
    gate.release(a);
    gate.release(a);
    expect(admitted).toEqual(['c']);
    // One that leaves while waiting frees nothing and is never admitted.
    gate.release(d);
    gate.release(b);
    expect(admitted).toEqual(['c']);
    expect(gate.size).toEqual({ connecting: 1, waiting: 0 });
  });
});
