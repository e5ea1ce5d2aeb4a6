/** A thousand concurrent subscriptions over real sockets, one per socket and packed, against the local fixture. */
import { afterEach, describe, expect, it } from 'vitest';
import { StreamClient, type StreamEvent } from '../../../src/market/stream';
import { StreamFixture } from './support/fixture';
import { token } from './support/samples';
import { waitFor } from './support/wait';

const KEY = 'fixture-key-0123456789';
const COUNT = 1_000;
let fixture: StreamFixture | null = null;
let client: StreamClient | null = null;

afterEach(async () => {
  await client?.close();
  await fixture?.close();
  client = null;
  fixture = null;
});

describe.each([1, 50])('%i subscription(s) per socket', (perSocket) => {
  it(`opens ${COUNT} subscriptions that all receive their snapshot and a change`, async () => {
    fixture = await StreamFixture.start({ apiKey: KEY });
    client = new StreamClient({ wsUrl: fixture.wsUrl, apiKey: KEY, subscriptionsPerSocket: perSocket, heartbeatMs: 5_000 });
    const received = new Map<string, StreamEvent[]>();
    const tokens = Array.from({ length: COUNT }, (_, n) => token(10_000 + n));
    for (const T of tokens) {
      received.set(T, []);
      client.subscribe('token-feed', { tokenAddress: T }, (event) => {
        received.get(T)?.push(event);
      });
    }
    await waitFor(() => fixture!.liveSubscriptions().length === COUNT, 'every subscription on the server', 30_000);
    // Read once settled: a connect refused and retried on a loaded machine can still be closing on
    // the server when the last subscription arrives. A socket that stays open past it fails the wait.
    await waitFor(() => fixture!.openSockets().length === COUNT / perSocket, `${COUNT / perSocket} open sockets on the server`, 30_000);
    await waitFor(() => [...received.values()].every((events) => events.some((event) => event.snapshot)), 'every snapshot', 30_000);
    for (const T of tokens) fixture.change('token-feed', T);
    // On a loaded machine a few of a thousand simultaneous connects may be refused and retried: the
    // assertions are about every subscription receiving, not about zero reconnections.
    await waitFor(() => [...received.values()].every((events) => events.some((event) => !event.snapshot)), 'every change', 30_000);
    for (const [T, events] of received) expect(events.every((event) => event.tokenAddress === T)).toBe(true);
    const status = client.status();
    expect(status.sockets).toHaveLength(COUNT / perSocket);
    expect(status.sockets.every((socket) => socket.state === 'open' && socket.subscriptions === perSocket)).toBe(true);
    expect(fixture.liveSubscriptions()).toHaveLength(COUNT);
    expect(status.counters).toMatchObject({ unreadable: 0, dropped: 0 });
  }, 60_000);
});
